"""Brute-force and flood protection (issue 19.6).

- API routes that an attacker or a runaway script would hammer carry a DRF scope
  (`login`, `signup`, `odds`); their rates are settings from the environment
  (`THROTTLE_LOGIN`, `THROTTLE_SIGNUP`, `THROTTLE_ODDS`). Counts live in Django's cache:
  shared across processes when `CACHE_URL` names Redis.
- Wrong passwords lock out the account and the address for a cool-off (django-axes, for
  the log-in page and the token route alike, both going through `authenticate()`); the
  lock-out answers 429, as JSON on `/api/` and as a page elsewhere.

A throttle whose cache is unreachable (Redis blinking) lets the request through and logs
it: an outage of the cache must not turn every log-in into a 500.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
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


def lockout_minutes() -> int:
    cooloff = settings.AXES_COOLOFF_TIME
    return max(1, int(cooloff.total_seconds() // 60))


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict | None = None) -> HttpResponse:
    """What a locked-out log-in gets: 429, JSON on the API, a page on the site."""
    detail = (f"Too many wrong passwords for this account or from this address: try again "
              f"in {lockout_minutes()} minutes, or ask the site's administrator.")
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("locked_out", detail), status=429)
    return HttpResponse(render_to_string("registration/locked_out.html", {"detail": detail},
                                         request=request), status=429)
