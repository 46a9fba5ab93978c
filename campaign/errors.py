"""Domain errors and the API's single error shape: {"code", "detail"[, "fields"]}.

Services raise a `GameError` subclass; the DRF exception handler below turns it
(and DRF's own errors) into the contract's body with the right status. Views never
build error bodies by hand.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.views.defaults import server_error as page
from rest_framework import exceptions as drf_exceptions
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class GameError(Exception):
    """A refused action. `code` is machine-readable, `detail` is for people."""

    status_code: int = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, detail: str, *, code: str | None = None, fields: dict | None = None):
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        self.fields = fields


class InvalidInput(GameError):
    """400: the request is malformed or breaks a rule of the game."""


class Forbidden(GameError):
    """403: the caller may see the thing but may not do this to it."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "forbidden"


class NotFound(GameError):
    """404: does not exist, or the caller may not know that it exists."""

    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"


class Conflict(GameError):
    """409: not allowed in the current phase or state."""

    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


class WrongPhase(Conflict):
    code = "wrong_phase"


class TooManyRequests(GameError):
    """429: the caller did this too often in too short a time; nothing was done."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "throttled"


class PreconditionRequired(GameError):
    """428: a state-changing request that could be repeated by a double click must say
    which state it acts on (e.g. the turn and phase an advance leaves)."""

    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    code = "precondition_required"


def error_body(code: str, detail: str, fields: dict | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "detail": detail}
    if fields:
        body["fields"] = fields
    return body


def first_message(data: Any) -> str:
    """The first error's sentence of a serializer's errors, prefixed by its field."""
    return _first_message(data)


def _first_message(data: Any) -> str:
    if isinstance(data, dict):
        for key, value in data.items():
            msg = _first_message(value)
            if msg:
                return msg if key in ("detail", "non_field_errors") else f"{key}: {msg}"
        return ""
    if isinstance(data, list):
        return _first_message(data[0]) if data else ""
    return str(data)


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, GameError):
        return Response(error_body(exc.code, exc.detail, exc.fields), status=exc.status_code)
    trouble = database_trouble(exc)
    if trouble is not None:
        return Response(error_body(trouble, _TROUBLE[trouble]),
                        status=status.HTTP_503_SERVICE_UNAVAILABLE,
                        headers={"Retry-After": str(RETRY_AFTER if trouble == "unavailable"
                                                    else 1)})
    if isinstance(exc, OverflowError) or (
            isinstance(exc, DataError) and "out of range" in str(exc)):
        # An id beyond what the database can store (SQLite: OverflowError; PostgreSQL:
        # "integer out of range"): no such object, never a 500.
        return Response(error_body("not_found", "No such object: that id is out of range."),
                        status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, drf_exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else None
        response.data = error_body(
            "invalid", _first_message(exc.detail) or "Invalid input.", fields
        )
    elif isinstance(exc, drf_exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = error_body(str(code), _first_message(exc.detail))
    return response


#: seconds a client is asked to wait when the database cannot be reached
RETRY_AFTER = 30


def database_trouble(exc: BaseException | None) -> str | None:
    """What a database error that reached a view means to the person: "unavailable" (it
    could not be reached, or dropped the connection: an outage, not a bug) or "busy" (a
    deadlock or serialization abort that no retrying service caught); None otherwise."""
    from campaign.services.locking import RETRYABLE_SQLSTATES, sqlstate  # noqa: PLC0415 (cycle: campaign.errors -> campaign.services.locking -> campaign.errors)

    if not isinstance(exc, InterfaceError | OperationalError):
        return None
    return "busy" if sqlstate(exc) in RETRYABLE_SQLSTATES else "unavailable"


_TROUBLE = {
    "unavailable": "The game's database cannot be reached just now; nothing you sent was "
                   "lost or half-done. Try again in a minute.",
    "busy": "The game is busy with another request that touches the same things; nothing "
            "changed. Try again in a moment.",
}


def unavailable(request: Any, trouble: str = "unavailable") -> Any:
    """503 while the database is away (or too busy): the contract's JSON on the API, a
    page (rendered without the database: no session, no user) elsewhere; `Retry-After`
    on both."""
    if request.path.startswith("/api/"):
        response: Any = JsonResponse(error_body(trouble, _TROUBLE[trouble]), status=503)
    else:
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER if trouble == "unavailable" else 1)
    return response


def server_error(request: Any, *args: Any, **kwargs: Any) -> Any:
    """handler500: an unexpected error answers the contract's JSON on the API (never an
    HTML page a client cannot read) and the site's page elsewhere. Nothing of the error
    itself is shown (it is in the server's log). A database outage is not an error of
    the server's code: 503 with `Retry-After` (`unavailable`)."""
    trouble = database_trouble(sys.exc_info()[1])
    if trouble is not None:
        return unavailable(request, trouble)
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("server_error", "Something went wrong on the server; "
                                       "nothing you sent is at fault. The error is logged "
                                       "for the site's administrator."), status=500)
    return page(request, *args, **kwargs)


def not_found(request: Any, exception: Any = None) -> Any:
    """handler404: JSON on the API (the contract's error shape), the site's page that says
    what the person can do instead elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", "Nothing here: check the address (see "
                                       "/api/docs/)."), status=404)
    return render(request, "404.html", {"request_path": request.path}, status=404)


def forbidden(request: Any, exception: Any = None) -> Any:
    """handler403: the reason (a sentence the pages raise) and where to go instead."""
    reason = str(exception) if exception and str(exception) else \
        "You may not do this here."
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("forbidden", reason), status=403)
    return render(request, "403.html", {"reason": reason}, status=403)


#: a refusal's page: (heading, what the person can do instead), by status
_REFUSAL_PAGES: dict[int, tuple[str, str]] = {
    400: ("That did not work", "Check what you entered and try again: nothing was changed."),
    403: ("Not for you", "If you think you should be able to do this, ask the campaign's "
          "umpire."),
    404: ("Nothing here", "The page may have moved, or it belongs to a campaign you are not "
          "in."),
    409: ("Not now", "This is not possible in the campaign's current phase or state; its "
          "dashboard says which phase it is in and when the next one opens. Nothing was "
          "changed."),
}


#: refusals that deserve their own words, by code
_REFUSALS_BY_CODE: dict[str, tuple[str, str]] = {
    "seat_removed": ("You no longer play this campaign", "Your other campaigns, and the "
                     "public leagues anyone can follow, are on your home page; to play again "
                     "here, ask the umpire to hand you a seat."),
}


def refused_page(request: Any, exc: GameError) -> Any:
    """The styled page of a refusal on the pages (see `RefusalPageMiddleware`)."""
    heading, advice = _REFUSALS_BY_CODE.get(exc.code) or _REFUSAL_PAGES.get(
        exc.status_code, _REFUSAL_PAGES[400])
    return render(request, "refused.html", {"heading": heading, "reason": exc.detail,
                                            "advice": advice, "code": exc.code},
                  status=exc.status_code)
