"""Request-wide concerns of the pages: the user's time zone, ids out of the database's
range, and refusals that reach no form."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.handlers.exception import response_for_exception
from django.db import DataError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from campaign.errors import GameError, error_body, forbidden, not_found, refused_page
from campaign.services.absence import acting


class UserTimezoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        tzname = None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None) if hasattr(user, "profile") else None
            tzname = getattr(profile, "time_zone", None)
        if tzname:
            try:
                timezone.activate(zoneinfo.ZoneInfo(tzname))
            except zoneinfo.ZoneInfoNotFoundError:
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class SeatReturnMiddleware:
    """Marks a request that changes something (not GET, HEAD or OPTIONS): the player's
    seat, if the stand-in plays it, is handed back by `campaign.access.membership`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = acting.set(request.method not in ("GET", "HEAD", "OPTIONS"))
        try:
            return self.get_response(request)
        finally:
            acting.reset(token)


class OutOfRangeIdMiddleware:
    """An id too large for the database (SQLite: OverflowError; PostgreSQL: "out of
    range") names nothing: answer 404 on pages as the API does, never a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if isinstance(exception, OverflowError) or (
                isinstance(exception, DataError) and "out of range" in str(exception)):
            return response_for_exception(request, Http404("No such object."))
        return None


class RefusalPageMiddleware:
    """A refusal (`GameError`: wrong phase, not yours, bad input; or a page's own Http404
    and PermissionDenied, even with DEBUG on) that a page view did not turn into a
    message on its form answers a styled page with the refusal's sentence, the
    right status (400/403/404/409) and what the person can do instead, never a 500 or a
    bare error. The API answers its own JSON through DRF's handler and is left alone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (settings.DEBUG and response.status_code == 404
                and getattr(request, "resolver_match", None) is None
                and not request.path.startswith(("/api/", settings.STATIC_URL or "/static/"))):
            # an address that matches no page: with DEBUG Django answers its technical
            # "Page not found" listing every route; the person gets the site's page

            return not_found(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if request.path.startswith("/api/"):
            return None
        if isinstance(exception, GameError):
            return refused_page(request, exception)
        # Without DEBUG Django renders handler404/handler403 itself; with DEBUG (`make
        # run`) it would show its technical page to a person who was simply refused
        # (issue 26): the site's own pages, in every mode.
        if settings.DEBUG and isinstance(exception, Http404):
            return not_found(request, exception)
        if settings.DEBUG and isinstance(exception, PermissionDenied):
            return forbidden(request, exception)
        return None


class RequestBodyLimitMiddleware:
    """Issue 30.3: a body too big for its route answers the API's JSON `413
    {code, detail}` (Django's own refusal is an HTML 400). The campaign import reads up to
    `IMPORT_MAX_BODY_SIZE` (50 MB), every other route `API_MAX_BODY_SIZE`; Django's
    `DATA_UPLOAD_MAX_MEMORY_SIZE` is raised to the larger so that only this class
    decides. A body without a length that grows past the limit while read is caught as
    Django's `RequestDataTooBig` and answered alike."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    @staticmethod
    def limit(request: HttpRequest) -> int:
        if request.path.rstrip("/").endswith("/campaigns/import"):
            return int(settings.IMPORT_MAX_BODY_SIZE)
        return int(settings.API_MAX_BODY_SIZE)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > self.limit(request):
            return self.too_big(request)
        return self.get_response(request)

    def too_big(self, request: HttpRequest) -> HttpResponse:
        megabytes = self.limit(request) / 1_000_000
        detail = (f"The request is too large: this address takes at most "
                  f"{megabytes:g} MB.")
        if request.path.startswith("/api/"):
            return JsonResponse(error_body("too_large", detail), status=413)
        return HttpResponse(detail, status=413, content_type="text/plain; charset=utf-8")

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if isinstance(exception, RequestDataTooBig):
            return self.too_big(request)
        return None
