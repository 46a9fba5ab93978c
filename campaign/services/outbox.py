"""Background jobs that survive a broker outage: the transactional outbox.

`send_later(task, *args)` writes an `OutboxMessage` in the caller's transaction and sends
it once the transaction commits. If the broker (Redis) is unreachable then, the change
still commits, the caller gets its answer, and the message waits: `drain()` (the beat
job `campaign.tasks.drain_outbox`, or the development server's clock thread) sends it
when the broker is back. A rolled-back change leaves no message. Jobs are idempotent
(battle recording, notifications and odds each do their work once), so the rare job sent
twice (sent, then the "sent" mark lost with the database) changes nothing.

In the embedded mode (no broker, eager Celery) "sending" runs the task in-process.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from campaign.celery import app
from campaign.models import OutboxMessage

log = logging.getLogger(__name__)

#: Seconds a message may wait for its on-commit send before the sweeper takes it.
GRACE_SECONDS = 5
#: Sent messages are kept this long (audit), then deleted by the sweeper.
KEEP_SENT = dt.timedelta(days=7)

# Messages this request could not send (the broker was down): views report it.
_unsent: contextvars.ContextVar[int] = contextvars.ContextVar("outbox_unsent", default=0)


def send_later(task: str, *args: Any, countdown: float | None = None) -> OutboxMessage:
    """Record a job with the current transaction; send it once that commits."""
    message = OutboxMessage.objects.create(task=task, args=list(args),
                                           countdown=float(countdown or 0))
    transaction.on_commit(lambda: dispatch([message.pk]))
    return message


def send_many_later(task: str, args: Iterable[tuple[Any, ...]]) -> list[OutboxMessage]:
    """`send_later` for many jobs of one task in one statement (a phase advance opening
    every battle of the turn): their query count does not grow with their number."""
    messages = OutboxMessage.objects.bulk_create(
        [OutboxMessage(task=task, args=list(a), countdown=0.0) for a in args])
    if any(m.pk is None for m in messages):  # a backend that returns no ids
        raise RuntimeError("send_many_later needs a database that returns ids")
    ids = [m.pk for m in messages]
    if ids:
        transaction.on_commit(lambda: dispatch(ids))
    return messages


def unsent_in_this_request() -> int:
    """How many jobs this request committed but could not send yet (broker down)."""
    return _unsent.get()


def reset_request_counter() -> None:
    _unsent.set(0)


def _task(name: str) -> Any:
    """The registered task called `name`. A web process has imported no tasks module
    yet: importing the apps' `tasks` modules (Celery's autodiscovery) registers them."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]


#: The job's Celery task id names its outbox row, so a finished job can mark it done.
TASK_ID_PREFIX = "outbox-"

#: Jobs whose own sweeper re-sends them by their state (battles: `sweep_battles`).
SWEPT_ELSEWHERE = frozenset({"battles.tasks.run_battle"})


def _send(message: OutboxMessage, producer: Any = None) -> None:
    task = _task(message.task)
    options: dict[str, Any] = {"retry": False,
                               "task_id": f"{TASK_ID_PREFIX}{message.pk}-{message.attempts}"}
    if message.countdown:
        options["countdown"] = message.countdown
    if producer is not None:
        options["producer"] = producer
    task.apply_async(tuple(message.args), **options)


def _producer() -> Any:
    """One broker connection and producer (Celery's pool) for a whole dispatch."""
    return app.producer_or_acquire()


def _eager() -> bool:
    return bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def dispatch(ids: Iterable[int]) -> int:
    """Send the given unsent messages, oldest first; stop at the first broker failure
    (the rest wait for the sweeper). Returns how many were sent.

    With a broker, in one pass (issue 32): one statement locks every message still
    unsent (skipping those another process is sending), one broker connection sends
    them, one statement marks the sent ones -- 3 queries whatever their number, so an
    advance opening 200 battles does not pay 2 queries a battle after its commit. If
    the marks are lost (the database goes away after the sends) the messages are sent
    again by the sweeper: every job is idempotent. In the embedded mode (eager Celery
    runs the job in-process) each message keeps its own short transaction, so one job's
    locks are not held while the next runs."""
    pks = sorted(set(ids))
    if not pks:
        return 0
    if _eager():
        return _dispatch_one_by_one(pks)
    sent: list[int] = []
    with transaction.atomic():
        messages = list(OutboxMessage.objects.select_for_update(skip_locked=True)
                        .filter(pk__in=pks, sent_at__isnull=True).order_by("pk"))
        if not messages:
            return 0
        failed: OutboxMessage | None = None
        try:
            with _producer() as producer:
                for message in messages:
                    message.attempts += 1
                    try:
                        _send(message, producer)
                    except Exception as exc:  # the broker is away: the rest wait too
                        failed = message
                        message.last_error = f"{type(exc).__name__}: {exc}"[:2000]
                        break
                    sent.append(message.pk)
        except Exception as exc:  # no broker connection to be had at all
            if failed is None:
                failed = next((m for m in messages if m.pk not in sent), None)
                if failed is not None:
                    failed.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        if sent:
            OutboxMessage.objects.filter(pk__in=sent).update(
                sent_at=timezone.now(), attempts=F("attempts") + 1)
        if failed is not None:
            OutboxMessage.objects.filter(pk=failed.pk).update(
                attempts=F("attempts") + 1, last_error=failed.last_error)
    if failed is not None:
        _unsent.set(_unsent.get() + len(messages) - len(sent))
        log.warning("outbox: %s not sent (%s); %d wait for the sweeper", failed,
                    failed.last_error, len(messages) - len(sent))
    return len(sent)


def _dispatch_one_by_one(pks: list[int]) -> int:
    sent = 0
    for pk in pks:
        with transaction.atomic():
            message = (OutboxMessage.objects.select_for_update(skip_locked=True)
                       .filter(pk=pk, sent_at__isnull=True).first())
            if message is None:
                continue  # sent meanwhile, or being sent by another process
            message.attempts += 1
            try:
                _send(message)
            except Exception as exc:  # kombu/redis connection errors: the broker is away
                message.last_error = f"{type(exc).__name__}: {exc}"[:2000]
                message.save(update_fields=["attempts", "last_error"])
                _unsent.set(_unsent.get() + 1)
                log.warning("outbox: %s not sent (%s); it waits for the sweeper",
                            message, message.last_error)
                return sent
            message.sent_at = timezone.now()
            message.save(update_fields=["attempts", "sent_at"])
            sent += 1
    return sent


def mark_done(task_id: str | None, *, task: str = "") -> None:
    """A worker finished the job sent with `task_id` (Celery's task_postrun signal).
    A job swept elsewhere (`task` in SWEPT_ELSEWHERE: a battle job, whose battle's status
    is its done mark) writes nothing: the outbox sweeper never re-sends it, so the mark
    would be one more statement per battle of a phase that nothing reads (issue 32)."""
    if not task_id or not task_id.startswith(TASK_ID_PREFIX) or task in SWEPT_ELSEWHERE:
        return
    pk = task_id[len(TASK_ID_PREFIX):].split("-", 1)[0]
    if pk.isdigit():
        OutboxMessage.objects.filter(pk=int(pk), done_at__isnull=True).update(
            done_at=timezone.now())


def lease_seconds() -> int:
    return int(getattr(settings, "BATTLE_LEASE_SECONDS", 120))


def drain(*, limit: int = 1000, now: dt.datetime | None = None) -> int:
    """The sweeper: send every message that waited longer than the grace period, and
    again every job sent longer than a lease ago that no worker finished (lost with a
    Redis restart; battles have their own sweeper, by their state)."""
    now = now or timezone.now()
    waiting = list(OutboxMessage.objects.filter(
        sent_at__isnull=True, created_at__lte=now - dt.timedelta(seconds=GRACE_SECONDS))
        .order_by("id").values_list("pk", flat=True)[:limit])
    lost = list(OutboxMessage.objects.filter(
        sent_at__lt=now - dt.timedelta(seconds=lease_seconds()), done_at__isnull=True
    ).exclude(task__in=SWEPT_ELSEWHERE).values_list("pk", flat=True)[:limit])
    if lost:  # sent again below, as if it had never left
        OutboxMessage.objects.filter(pk__in=lost).update(sent_at=None)
        waiting += lost
    sent = dispatch(waiting) if waiting else 0
    OutboxMessage.objects.filter(sent_at__lt=now - KEEP_SENT).delete()
    return sent


def waiting_count() -> int:
    return OutboxMessage.objects.filter(sent_at__isnull=True).count()
