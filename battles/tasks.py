"""Celery tasks of the battles app: thin — load by id, call a service.

Late acknowledgement (`acks_late`, `reject_on_worker_lost`) means a job whose worker dies
is delivered again; the services make a second delivery harmless.
"""

from __future__ import annotations

from celery import shared_task

from battles.services import jobs, odds


@shared_task(name="battles.tasks.run_battle", acks_late=True, reject_on_worker_lost=True)
def run_battle(battle_id: int) -> str:
    """Resolve one battle with the engine and record its result, once."""
    return jobs.run_battle_job(battle_id=battle_id)


@shared_task(name="battles.tasks.estimate_odds", acks_late=True, reject_on_worker_lost=True)
def estimate_odds(odds_id: int) -> str:
    """Run one odds request's seeded simulations in a batch."""
    return odds.run_odds_job(odds_id=odds_id)
