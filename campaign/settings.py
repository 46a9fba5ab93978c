"""Django settings, all read from the environment (see README.md, "Configuration").

With no environment at all this runs the embedded default: DEBUG on, a SQLite file
in the project folder, and Celery tasks executed in-process. Production sets
DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import dj_database_url

from campaign.env import envbool, envint, envlist, envstr

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DEBUG", True)
_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = envstr("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = envstr("SITE_URL", "http://127.0.0.1:8000")
ALLOW_SIGNUP = envbool("ALLOW_SIGNUP", True)
# How many reverse proxies stand in front of the app (0: none). Only then are the
# X-Forwarded-Proto and X-Forwarded-For headers believed: otherwise any client could
# claim HTTPS or another address.
TRUSTED_PROXIES = envint("TRUSTED_PROXIES", 0)
# Networks a site trusts for webhooks besides public addresses (e.g. "10.0.0.0/8" for a
# chat bridge on the LAN). Empty: webhooks go to public addresses only (no SSRF).
WEBHOOK_ALLOWED_NETWORKS = envlist("WEBHOOK_ALLOWED_NETWORKS", [])
# Chat and push channels (README "Chat and push channels"). Their hosts pass the same
# check as webhooks (public addresses or WEBHOOK_ALLOWED_NETWORKS). CHANNELS_ALLOW_LOCAL
# lets the tests reach a receiver on 127.0.0.1: a setting only, never from the environment.
CHANNELS_ALLOW_LOCAL = False
# Web Push signing keys (base64url raw private key / uncompressed public key, as printed
# by `vapid --gen` or `manage.py vapid_keys`). Unset: a pair is generated once and kept
# in the database (`VapidKey`). The subject is who the push services may contact.
VAPID_PRIVATE_KEY = envstr("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = envstr("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = envstr("VAPID_SUBJECT", "mailto:admin@localhost")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "axes",
    "campaign.apps.CoreConfig",
    "territories",
    "economy",
    "orders",
    "battles",
    "casebook",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # First after security: an oversized body is refused before anything reads it.
    "campaign.middleware.RequestBodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "campaign.middleware.UserTimezoneMiddleware",
    "campaign.middleware.SeatReturnMiddleware",
    "campaign.middleware.OutOfRangeIdMiddleware",
    "campaign.middleware.RefusalPageMiddleware",
    # Last: turns a locked-out login (too many wrong passwords) into a 429.
    "axes.middleware.AxesMiddleware",
]

# Issue 30.3: request bodies. A campaign import takes up to 50 MB, every other route
# Django's usual 2.5 MB; a larger body is a JSON 413 (campaign.middleware.
# RequestBodyLimitMiddleware). Django's own limit is the larger, so the middleware decides.
API_MAX_BODY_SIZE = envint("API_MAX_BODY_SIZE", 2_621_440)
IMPORT_MAX_BODY_SIZE = envint("IMPORT_MAX_BODY_SIZE", 50_000_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = max(API_MAX_BODY_SIZE, IMPORT_MAX_BODY_SIZE)

ROOT_URLCONF = "campaign.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "campaign.wsgi.application"
ASGI_APPLICATION = "campaign.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The few statements sent as text on the hottest requests (`campaign.sql`) are
    # prepared on their connection once sent this many times (Django's own queries never
    # are: they bind on the client). 0 prepares at once; a negative value turns it off
    # (e.g. behind a pooler in transaction mode that cannot keep prepared statements).
    _prepare_threshold = envint("DATABASE_PREPARE_THRESHOLD", 5)
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        _prepare_threshold if _prepare_threshold >= 0 else None)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite serialises writers; wait for the lock instead of failing at once. A deferred
    # transaction that read first and writes later cannot wait (SQLite refuses the upgrade
    # at once with "database is locked" when another connection writes, e.g. the Celery
    # worker recording a battle while an advance runs), so every atomic block begins as a
    # writer (IMMEDIATE); write-ahead logging lets readers go on while one writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20, transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "campaign.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "campaign.errors.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Scoped rates (per client address; per user where signed in) for the routes an
    # attacker or a runaway script would hammer. Raise them for a club behind one address
    # or a load test.
    "DEFAULT_THROTTLE_RATES": {
        "login": envstr("THROTTLE_LOGIN", "10/min"),
        "signup": envstr("THROTTLE_SIGNUP", "5/min"),
        "odds": envstr("THROTTLE_ODDS", "30/min"),
        # sandbox clones copy a whole campaign (issue 30): per user
        "sandbox": envstr("THROTTLE_SANDBOX", "10/hour"),
        # Issue 30.3: an import is heavy work for a web worker; a claim code is a secret.
        "import": envstr("THROTTLE_IMPORT", "10/hour"),
        "claim": envstr("THROTTLE_CLAIM", "10/min"),
    },
    # How many proxies stand in front (X-Forwarded-For hops trusted for the address).
    "NUM_PROXIES": TRUSTED_PROXIES or None,
}

# Messages between players (issue 30.9): at most this many per player per minute, on the
# API and the pages alike (counted in the database, so every process agrees).
MESSAGES_PER_MINUTE = envint("MESSAGES_PER_MINUTE", 30)

# --- Brute force: django-axes locks out an account from one address after repeated wrong
# passwords (pages and the token route alike, both go through authenticate()); the
# address alone is throttled at a higher limit (issue 30: a club behind one address is
# not locked out by one member's typos). campaign.throttling.PairAndAddressHandler.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = dt.timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_ADDRESS_FAILURE_LIMIT = envint("AXES_ADDRESS_FAILURE_LIMIT", 50)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "campaign.throttling.PairAndAddressHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "campaign.throttling.lockout_response"
AXES_CLIENT_IP_CALLABLE = "campaign.throttling.client_ip"
AXES_VERBOSE = False

SPECTACULAR_SETTINGS = {
    "TITLE": "Unlimit3d 8 campaign manager API",
    "DESCRIPTION": "Strategic layer of Unlimit3d 8: campaigns, territories, economy, "
    "sealed orders and battles. Errors are {\"code\", \"detail\"}.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The phase a request names (advance, roll back, clone): one enum, named as before.
    "ENUM_NAME_OVERRIDES": {
        "AdvancePhaseEnum": "campaign.api.serializers.REQUEST_PHASES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "campaign.schema.add_error_responses",
    ],
}

# --- Cache: throttle counts. CACHE_URL=redis://... shares them across gunicorn workers
# (production); without it each process counts for itself (development, tests).
CACHE_URL = envstr("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": CACHE_URL,
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
    if CACHE_URL.startswith(("redis://", "rediss://")) else
    {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}

# --- Celery -------------------------------------------------------------------------
# Unset broker: tasks run in-process (eager), so the product needs no services.
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = envstr("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up closes the database connections around every task unless this
# is set; it then closes them every that many tasks, and campaign/celery.py applies
# CONN_MAX_AGE and the health checks around each task as Django does around a request.
CELERY_DB_REUSE_MAX = envint("CELERY_DB_REUSE_MAX", 1000)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 3600)}
CELERY_TIMEZONE = "UTC"
CLOCK_SWEEP_SECONDS = envint("CLOCK_SWEEP_SECONDS", 30)
# Jobs committed while the broker was away are sent by the outbox sweeper; battle jobs
# without a live claim past BATTLE_LEASE_SECONDS (a worker killed, a message lost with a
# Redis restart) are sent again by the battle sweeper. Both are idempotent.
OUTBOX_SWEEP_SECONDS = envint("OUTBOX_SWEEP_SECONDS", 10)
BATTLE_LEASE_SECONDS = envint("BATTLE_LEASE_SECONDS", 120)
# Where each phase's secret dice seed comes from (R-DICE-1): "random" (real leagues), or
# "campaign_seed" (reproducible tests and demos: predictable by anyone who knows the seed).
DICE_SECRETS = envstr("DICE_SECRETS", "random")

# Further tactical rulesets installed beside the built-in ones, "name=module:attribute"
# separated by commas (a ruleset package outside this repository; the tests' toy
# coin-flip ruleset in the integration suite's workers).
EXTRA_RULESETS = dict(
    item.strip().split("=", 1)
    for item in envstr("EXTRA_RULESETS", "").split(",") if "=" in item)
CELERY_BEAT_SCHEDULE = {
    "send-daily-digests": {  # each user's digest goes once a day; the hour checks who is due
        "task": "campaign.tasks.send_digests",
        "schedule": 3600.0,
    },
    "advance-campaigns-past-deadline": {
        "task": "campaign.tasks.sweep_deadlines",
        "schedule": float(CLOCK_SWEEP_SECONDS),
    },
    "send-waiting-jobs": {
        "task": "campaign.tasks.drain_outbox",
        "schedule": float(OUTBOX_SWEEP_SECONDS),
    },
    "resend-battles-without-a-live-claim": {
        "task": "battles.tasks.sweep_battles",
        "schedule": float(max(5, BATTLE_LEASE_SECONDS // 4)),
    },
}

# --- Mail ---------------------------------------------------------------------------
EMAIL_BACKEND = envstr("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = envstr("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = envstr("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "umpire@localhost")

# --- Production hardening (all on when DEBUG is off; each overridable) --------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXIES else None
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # In-process (eager) jobs would log every task run; a worker logs them itself.
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}
