"""Celery tasks of the core app: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from campaign.services import clock


@shared_task(name="campaign.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Beat job: advance every campaign whose phase deadline has passed."""
    return clock.sweep_deadlines()


@shared_task(name="campaign.tasks.ping")
def ping(value: str) -> str:
    """Round trip used by the integration suite to prove a worker is listening."""
    return f"pong:{value}"


@shared_task(name="campaign.tasks.notify", ignore_result=True)
def notify(campaign_id: int, kind: str, turn: int, phase: str,
           player_ids: list[int] | None = None) -> int:
    """Send one notification (email to the seats that want it, and the webhook).
    Enqueued on commit by campaign.services.notifications; never fails the clock. A
    redelivery sends nothing twice (one `Notification` row per recipient)."""
    from campaign.services import notifications

    return notifications.deliver(campaign_id=campaign_id, kind=kind, turn=turn, phase=phase,
                                 player_ids=player_ids)
