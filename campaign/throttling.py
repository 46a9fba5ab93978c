"""Brute-force and flood protection (issue 19.6).

- API routes that an attacker or a runaway script would hammer carry a DRF scope
  (`login`, `signup`, `odds`, `sandbox`); their rates are settings from the environment
  (`THROTTLE_LOGIN`, `THROTTLE_SIGNUP`, `THROTTLE_ODDS`, `THROTTLE_SANDBOX`). A
  page doing the same thing counts against the same scope (`page_throttle`). Counts
  live in Django's cache: shared across processes when `CACHE_URL` names Redis.
- Wrong passwords lock out the account *from that address* for a cool-off (django-axes,
  for the log-in page and the token route alike, both going through `authenticate()`):
  a club behind one address is not locked out by one member's typos, and nobody locks
  another person out of their account from elsewhere (issue 30). The address itself is
  throttled separately, at a higher limit (`AXES_ADDRESS_FAILURE_LIMIT` wrong passwords
  for any accounts within the cool-off), against one address guessing many accounts.
  The lock-out answers 429, as JSON on `/api/` and as a page elsewhere.

A throttle whose cache is unreachable (Redis blinking) lets the request through and logs
it: an outage of the cache must not turn every log-in into a 500.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle

from campaign.errors import error_body

log = logging.getLogger(__name__)


class ScopedThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, failing open when the cache is down."""

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # the cache backend's own errors (redis.ConnectionError, ...)
            log.warning("throttle cache unreachable; request let through", exc_info=True)
            return True


def page_throttle(request: HttpRequest, scope: str) -> int | None:
    """Count one request of a page against the API's scoped rate (the page and the route
    share the count): None when it is allowed, else the seconds to wait."""
    throttle = ScopedThrottle()
    if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):  # type: ignore[arg-type]
        return None
    return max(1, int(throttle.wait() or 1))


def wait_text(seconds: int) -> str:
    minutes = (seconds + 59) // 60
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or with `TRUSTED_PROXIES = n` the address the
    n-th proxy from the right saw in X-Forwarded-For (what a client writes there itself
    is never believed)."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return str(request.META.get("REMOTE_ADDR", ""))


def address_failures(request: HttpRequest) -> int:
    """Wrong passwords from the request's address, for any accounts, within the
    cool-off."""
    address = getattr(request, "axes_ip_address", None)
    if not address:
        return 0
    total = (AccessAttempt.objects.filter(ip_address=address,
                                          attempt_time__gt=get_cool_off_threshold(request))
             .aggregate(n=Sum("failures_since_start"))["n"])
    return int(total or 0)


def address_locked(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.AXES_ADDRESS_FAILURE_LIMIT


class PairAndAddressHandler(AxesDatabaseHandler):
    """Axes' database handler counting the account-and-address pair
    (`AXES_LOCKOUT_PARAMETERS`) against `AXES_FAILURE_LIMIT`, and the address alone
    against the higher `AXES_ADDRESS_FAILURE_LIMIT`: past that, every log-in from the
    address counts as locked out (axes compares one number with one limit, so the
    address's excess is reported as the pair's limit)."""

    def get_failures(self, request: Any, credentials: dict | None = None) -> int:
        pair = int(super().get_failures(request, credentials))
        if address_locked(request):
            return max(pair, int(get_failure_limit(request, credentials)))
        return pair


def lockout_minutes() -> int:
    cooloff = settings.AXES_COOLOFF_TIME
    return max(1, int(cooloff.total_seconds() // 60))


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict | None = None) -> HttpResponse:
    """What a locked-out log-in gets: 429, JSON on the API, a page on the site."""
    if address_locked(request):
        what = "from your address, for one account or several"
    else:
        what = "for this account from your address"
    detail = (f"Too many wrong passwords {what}: try again in {lockout_minutes()} minutes, "
              "or ask the site's administrator.")
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("locked_out", detail), status=429)
    return HttpResponse(render_to_string("registration/locked_out.html", {"detail": detail},
                                         request=request), status=429)
