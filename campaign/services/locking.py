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
import random
import time
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


#: attempts of a service the database aborted for a deadlock or a serialization failure
ATTEMPTS = 3


def retry_on_conflict(func: Callable[P, R]) -> Callable[P, R]:
    """Run a service again (up to `ATTEMPTS` in all, after a short random pause) if the
    database aborted it for a deadlock or a serialization failure (SQLSTATE 40P01,
    40001, 55P03). Only the outermost call retries: inside a caller's transaction the
    error goes up to the caller, who owns the transaction. When every attempt failed:
    503 `busy`, nothing changed."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:
            return func(*args, **kwargs)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if sqlstate(exc) not in RETRYABLE_SQLSTATES:
                    raise
                if attempt == ATTEMPTS:
                    raise Busy("The game is busy with another request that touches the "
                               "same things; nothing changed. Try again in a moment."
                               ) from exc
                log.warning("%s: %s; attempt %d of %d", func.__qualname__, sqlstate(exc),
                            attempt + 1, ATTEMPTS)
                time.sleep(random.uniform(0.005, 0.05) * attempt)
        raise AssertionError("unreachable")

    return wrapper
