"""Issue 19.3 (and 30.6): a service the database aborts for a deadlock or a serialization
failure runs again, three attempts in all; a third failure answers 503 `busy` (never a
500); other errors pass through, and inside a caller's transaction nothing is retried (the
caller owns it)."""

from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from campaign.services.locking import Busy, retry_on_conflict, sqlstate


class _PgError(Exception):
    def __init__(self, state: str) -> None:
        super().__init__(state)
        self.sqlstate = state


def _db_error(state: str) -> OperationalError:
    err = OperationalError(f"database said {state}")
    err.__cause__ = _PgError(state)
    return err


def flaky(failures: list[str]):
    calls = []

    @retry_on_conflict
    def service() -> str:
        calls.append(1)
        if len(calls) <= len(failures):
            raise _db_error(failures[len(calls) - 1])
        return "done"

    return service, calls


def test_a_deadlock_is_retried():
    service, calls = flaky(["40P01"])
    assert service() == "done" and len(calls) == 2


def test_two_aborts_in_a_row_are_still_retried():
    service, calls = flaky(["40P01", "40001"])
    assert service() == "done" and len(calls) == 3


def test_three_serialization_failures_answer_busy_503():
    service, calls = flaky(["40001", "40001", "40001"])
    with pytest.raises(Busy) as refused:
        service()
    assert refused.value.status_code == 503 and refused.value.code == "busy"
    assert len(calls) == 3


def test_other_database_errors_are_not_retried():
    service, calls = flaky(["08006"])  # connection failure: not ours to hide
    with pytest.raises(OperationalError):
        service()
    assert len(calls) == 1
    assert sqlstate(_db_error("40P01")) == "40P01"


@pytest.mark.django_db
def test_inside_a_callers_transaction_nothing_is_retried():
    service, calls = flaky(["40P01"])
    with pytest.raises(OperationalError), transaction.atomic():
        service()
    assert len(calls) == 1
