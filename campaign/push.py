"""Web Push (RFC 8030 with VAPID, RFC 8292, and aes128gcm payloads, RFC 8291).

The site signs its pushes with a VAPID key pair: `settings.VAPID_PRIVATE_KEY` and
`VAPID_PUBLIC_KEY` (from the environment) when set; otherwise a pair is generated on
first use and kept in the database (`VapidKey`), so every process uses the same one.

A subscription's endpoint is a URL the browser's push service gave; a user could post
any URL, so it is checked like a webhook (https, public address) unless
`settings.CHANNELS_ALLOW_LOCAL` (tests only).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid, b64urlencode

from campaign import webhooks
from campaign.models import VapidKey

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = webhooks.TIMEOUT_SECONDS
#: how long a push service keeps an undelivered push (seconds)
TTL_SECONDS = 24 * 3600


class UnsafeEndpoint(ValueError):
    """The subscription cannot be used; the message says why, for a person."""


@dataclass(frozen=True)
class Keys:
    private: str  # base64url raw or DER, or PEM
    public: str  # base64url uncompressed point (the browser's applicationServerKey)


def _generate() -> Keys:
    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return Keys(private=vapid.private_pem().decode(), public=b64urlencode(public))


def env_lines() -> str:
    """A new key pair as the two environment lines a production site sets (the private
    key as base64url raw, which fits on one line)."""
    made = _generate()
    private = Vapid.from_pem(made.private.encode()).private_key
    raw = private.private_numbers().private_value.to_bytes(32, "big")
    return f"VAPID_PRIVATE_KEY={b64urlencode(raw)}\nVAPID_PUBLIC_KEY={made.public}"


def vapid_keys() -> Keys:
    """The site's key pair: from the settings, or the one kept in the database (made
    on first use; two processes racing keep the first)."""
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return Keys(private=settings.VAPID_PRIVATE_KEY, public=settings.VAPID_PUBLIC_KEY)
    kept = VapidKey.objects.order_by("pk").first()
    if kept is None:
        made = _generate()
        VapidKey.objects.create(private_pem=made.private, public_key=made.public)
        kept = VapidKey.objects.order_by("pk").first()
        assert kept is not None
    return Keys(private=kept.private_pem, public=kept.public_key)


def _vapid(private: str) -> Any:
    if "BEGIN" in private:
        return Vapid.from_pem(private.encode())
    return Vapid.from_string(private)


def check_endpoint(endpoint: str) -> None:
    """UnsafeEndpoint unless the push service's URL may be called."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1000:
        raise UnsafeEndpoint("The browser gave no push address (or one too long).")
    if getattr(settings, "CHANNELS_ALLOW_LOCAL", False):
        if not endpoint.startswith(("http://", "https://")):
            raise UnsafeEndpoint("The push address must be an https:// URL.")
        return
    if not endpoint.startswith("https://"):
        raise UnsafeEndpoint("The push address must be an https:// URL.")
    try:
        webhooks.checked_address(endpoint)
    except webhooks.UnsafeWebhook as exc:
        raise UnsafeEndpoint(str(exc).replace("webhook", "push service")) from exc


def _session() -> Any:
    """A requests session that follows no redirect (the checked endpoint is the one
    called)."""
    import requests  # noqa: PLC0415 (memory: only the process that sends loads it)

    class NoRedirects(requests.Session):
        def request(self, *args: Any, **kwargs: Any) -> Any:
            kwargs["allow_redirects"] = False
            return super().request(*args, **kwargs)

    return NoRedirects()


def send(*, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any]) -> int:
    """Encrypt `payload` for the subscription and POST it, signed with the site's VAPID
    key. Returns the push service's HTTP status (201 accepted; 404/410: the subscription
    is gone), or 0 when it could not be reached or the endpoint is refused."""
    try:
        check_endpoint(endpoint)
    except UnsafeEndpoint as exc:
        log.warning("push endpoint refused: %s", exc)
        return 0
    # pywebpush (with requests and http_ece, ~15 MB) is loaded by the process that sends
    # a push, not by every web worker that never does (memory_bench, issue 32)
    from pywebpush import WebPushException, webpush  # noqa: PLC0415 (memory, see above)

    keys = vapid_keys()
    try:
        with _session() as session:
            answer = webpush({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
                             data=json.dumps(payload), vapid_private_key=_vapid(keys.private),
                             vapid_claims={"sub": settings.VAPID_SUBJECT},
                             content_encoding="aes128gcm", timeout=TIMEOUT_SECONDS,
                             ttl=TTL_SECONDS, requests_session=session)
    except WebPushException as exc:
        return int(exc.response.status_code) if exc.response is not None else 0
    except (OSError, ValueError) as exc:
        log.warning("push to %s failed: %s", endpoint[:60], exc)
        return 0
    return int(getattr(answer, "status_code", 0))
