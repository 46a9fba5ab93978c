"""Row locks in one global order, and a second chance when PostgreSQL still says no.

The order every service takes its locks in (ARCHITECTURE.md, "Locks"):

    campaign (FOR UPDATE, or FOR SHARE for orders) -> battle -> players (by id)
    -> territories (by id) -> trade -> units, operatives, weapons, buildings -> stock
    -> orders

A service that needs a later lock never takes an earlier one after it. Two requests of
the same player (a purchase and a trade acceptance, say) then queue instead of waiting
for each other. Where an ordering cannot be proven (a foreign key check takes a KEY
SHARE lock on a row another request holds FOR UPDATE), PostgreSQL may still detect a
deadlock or a serialization failure: `retry_on_conflict` runs the whole service once
more, and if that fails too answers 503 `busy` with `{"code","detail"}` — never a 500.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection
from rest_framework import status

from campaign.errors import GameError

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


#: deadlock_detected, serialization_failure, lock_not_available
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001", "55P03"})


class Busy(GameError):
    """503: the database refused the request twice because of concurrent work."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    code = "busy"


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a database error (psycopg's, under Django's wrapper)."""
    for err in (exc, exc.__cause__):
        state = getattr(err, "sqlstate", None)
        if state:
            return str(state)
    return None


def retry_on_conflict(func: Callable[P, R]) -> Callable[P, R]:
    """Run a service again once if the database aborted it for a deadlock or a
    serialization failure. Only the outermost call retries: inside a caller's
    transaction the error goes up to the caller, who owns the transaction."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:
            return func(*args, **kwargs)
        try:
            return func(*args, **kwargs)
        except OperationalError as exc:
            if sqlstate(exc) not in RETRYABLE_SQLSTATES:
                raise
            log.warning("%s: %s; trying once more", func.__qualname__, sqlstate(exc))
        try:
            return func(*args, **kwargs)
        except OperationalError as exc:
            if sqlstate(exc) not in RETRYABLE_SQLSTATES:
                raise
            raise Busy("The game is busy with another request of yours that touches the "
                       "same things; nothing changed. Try again in a moment.") from exc

    return wrapper
