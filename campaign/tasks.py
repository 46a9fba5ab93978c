"""Celery tasks of the core app: thin wrappers around services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from celery import shared_task
from django.db import InterfaceError, OperationalError

from campaign.services import channels, clock, notifications, outbox

DATABASE_AWAY = (OperationalError, InterfaceError)


class RetryOptions(TypedDict):
    """The retry keywords a task takes (typed, so `shared_task(**RETRY)` is checked)."""

    autoretry_for: Sequence[type[BaseException]]
    retry_backoff: int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


RETRY: RetryOptions = {"autoretry_for": DATABASE_AWAY, "retry_backoff": 1, "retry_backoff_max": 30,
         "retry_jitter": False, "max_retries": 40}


@shared_task(name="campaign.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Beat job: advance every campaign whose phase deadline has passed."""
    return clock.sweep_deadlines()


@shared_task(name="campaign.tasks.ping")
def ping(value: str) -> str:
    """Round trip used by the integration suite to prove a worker is listening."""
    return f"pong:{value}"


@shared_task(name="campaign.tasks.drain_outbox", ignore_result=True)
def drain_outbox() -> int:
    """Beat job: send the jobs whose broker was away when their change committed."""
    return outbox.drain()


@shared_task(name="campaign.tasks.notify", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, **RETRY)
def notify(campaign_id: int, kind: str, turn: int, phase: str,
           player_ids: list[int] | None = None) -> int:
    """Send one notification (email to the seats that want it, and the webhook), then
    hand the chat channels and browsers their own job (`notify_channels`, through the
    outbox). Enqueued on commit by campaign.services.notifications; never fails the
    clock. A redelivery sends nothing twice (one `Notification` row per recipient)."""
    sent = notifications.deliver(campaign_id=campaign_id, kind=kind, turn=turn, phase=phase,
                                 player_ids=player_ids)
    channels.enqueue("campaign.tasks.notify_channels", campaign_id, kind, turn, phase,
                     player_ids)
    return sent


@shared_task(name="campaign.tasks.notify_message", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, **RETRY)
def notify_message(message_id: int) -> int:
    """Mail a new message's readers (enqueued through the outbox when it is written),
    then hand their chat channels and browsers `notify_message_channels`."""
    sent = notifications.deliver_message(message_id=message_id)
    channels.enqueue("campaign.tasks.notify_message_channels", message_id)
    return sent


CHANNEL_RETRIES = 6


@shared_task(bind=True, name="campaign.tasks.notify_channels", ignore_result=True,
             acks_late=True, reject_on_worker_lost=True, **RETRY)
def notify_channels(self: Any, campaign_id: int, kind: str, turn: int, phase: str,
                    player_ids: list[int] | None = None) -> int:
    """Post one notification to the chat channels and browsers that want it (issue 27).
    A channel that failed is retried later; one that was sent is never sent again."""
    try:
        return channels.deliver(campaign_id=campaign_id, kind=kind, turn=turn, phase=phase,
                                player_ids=player_ids)
    except channels.DeliveryFailed as exc:
        return _retry_later(self, exc)


@shared_task(bind=True, name="campaign.tasks.notify_message_channels", ignore_result=True,
             acks_late=True, reject_on_worker_lost=True, **RETRY)
def notify_message_channels(self: Any, message_id: int) -> int:
    """A new message to its readers' chat channels and browsers."""
    try:
        return channels.deliver_message(message_id=message_id)
    except channels.DeliveryFailed as exc:
        return _retry_later(self, exc)


def _retry_later(task: Any, exc: Exception) -> int:
    """Retry a failed delivery (a minute, doubling); in the embedded mode (eager, no
    worker) there is no later: the failure is logged on the channel and dropped."""
    if task.request.is_eager or task.request.retries >= CHANNEL_RETRIES:
        return 0
    raise task.retry(exc=exc, countdown=channels.retry_delay(task.request.retries)
                     .total_seconds())


@shared_task(name="campaign.tasks.channel_test", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, **RETRY)
def channel_test(channel_id: int, token: str) -> bool:
    """"Send a test" on a channels page: one test message, once."""
    return channels.send_test(channel_id=channel_id, token=token)


@shared_task(name="campaign.tasks.send_digests", ignore_result=True)
def send_digests() -> int:
    """Beat job: the daily digest of each user who asked for one (issue 17)."""
    return notifications.send_digests()
