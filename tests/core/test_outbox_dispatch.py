"""Issue 32: the outbox sends a phase's jobs in one pass -- its queries do not grow with
the number of messages -- and a broker failure mid-way keeps the rest waiting."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import OutboxMessage
from campaign.services import outbox


class _Broker:
    """Records what was sent; fails from the `fail_at`-th send on (the broker gone)."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.sent: list[tuple[int, int]] = []
        self.fail_at = fail_at

    def send(self, message: OutboxMessage, producer: Any = None) -> None:
        assert producer == "one-producer"
        if self.fail_at is not None and len(self.sent) >= self.fail_at:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379")
        self.sent.append((message.pk, message.attempts))


@pytest.fixture
def broker(monkeypatch) -> _Broker:
    fake = _Broker()
    monkeypatch.setattr(outbox, "_eager", lambda: False)
    monkeypatch.setattr(outbox, "_send", fake.send)
    monkeypatch.setattr(outbox, "_producer",
                        lambda: contextlib.nullcontext("one-producer"))
    return fake


def _messages(count: int) -> list[int]:
    made = OutboxMessage.objects.bulk_create(
        [OutboxMessage(task="battles.tasks.run_battle", args=[i], countdown=0.0)
         for i in range(count)])
    return [m.pk for m in made]


@pytest.mark.django_db
def test_dispatch_costs_the_same_queries_for_5_and_50_messages(broker: _Broker) -> None:
    counts = []
    for size in (5, 50):
        ids = _messages(size)
        with CaptureQueriesContext(connection) as captured:
            assert outbox.dispatch(list(reversed(ids))) == size
        counts.append(len(captured.captured_queries))
        # Oldest first, each once, with the attempt its task id names.
        assert broker.sent[-size:] == [(pk, 1) for pk in ids]
        rows = OutboxMessage.objects.filter(pk__in=ids)
        assert rows.filter(sent_at__isnull=False, attempts=1).count() == size
    assert counts[0] == counts[1], counts
    assert counts[0] <= 5, counts
    # Sent messages are not sent again.
    before = len(broker.sent)
    assert outbox.dispatch(ids) == 0
    assert len(broker.sent) == before


@pytest.mark.django_db
def test_a_broker_failure_mid_way_leaves_the_rest_waiting(broker: _Broker) -> None:
    broker.fail_at = 3
    outbox.reset_request_counter()
    ids = _messages(10)
    assert outbox.dispatch(ids) == 3
    sent = OutboxMessage.objects.filter(pk__in=ids, sent_at__isnull=False)
    assert sorted(sent.values_list("pk", flat=True)) == ids[:3]
    failed = OutboxMessage.objects.get(pk=ids[3])
    assert failed.sent_at is None and failed.attempts == 1
    assert failed.last_error.startswith("ConnectionError")
    assert OutboxMessage.objects.filter(pk__in=ids[4:], attempts=0,
                                        sent_at__isnull=True).count() == 6
    assert outbox.unsent_in_this_request() == 7
    # The broker is back: the sweeper's dispatch sends the rest, the failed one with a
    # new attempt number (a new task id).
    broker.fail_at = None
    assert outbox.dispatch(ids) == 7
    assert (ids[3], 2) in broker.sent
    assert OutboxMessage.objects.filter(pk__in=ids, sent_at__isnull=True).count() == 0
