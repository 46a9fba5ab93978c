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
