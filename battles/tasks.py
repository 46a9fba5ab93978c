"""Celery tasks of the battles app: thin — load by id, call a service.

Late acknowledgement (`acks_late`, `reject_on_worker_lost`) means a job whose worker dies
is delivered again; the services make a second delivery harmless. A database that is
away (OperationalError, InterfaceError) is not a finished job: the task is retried with
backoff instead of acknowledged. The beat sweeper sends again every job without a live
claim past its lease (`jobs.sweep_battles`).
"""

from __future__ import annotations

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from battles.services import jobs, odds
from campaign.tasks import RetryOptions

DATABASE_AWAY = (OperationalError, InterfaceError)
RETRY: RetryOptions = {"autoretry_for": DATABASE_AWAY, "retry_backoff": 1, "retry_backoff_max": 30,
         "retry_jitter": False, "max_retries": 40}


@shared_task(name="battles.tasks.run_battle", acks_late=True, reject_on_worker_lost=True,
             bind=True, **RETRY)
def run_battle(self: Task, battle_id: int) -> str:
    """Resolve one battle with the engine and record its result, once. The task id
    names the claim: a retry or a redelivery of this job takes it back at once."""
    return jobs.run_battle_job(battle_id=battle_id, claim=str(self.request.id or ""))


@shared_task(name="battles.tasks.estimate_odds", acks_late=True, reject_on_worker_lost=True,
             **RETRY)
def estimate_odds(odds_id: int) -> str:
    """Run one odds request's seeded simulations in a batch."""
    return odds.run_odds_job(odds_id=odds_id)


@shared_task(name="battles.tasks.odds_chunk", acks_late=True, reject_on_worker_lost=True,
             **RETRY)
def odds_chunk(odds_id: int, start: int, count: int) -> str:
    """Count one chunk of an odds request's simulations (the chunks share the pool)."""
    return odds.run_odds_chunk(odds_id=odds_id, start=start, count=count)


@shared_task(name="battles.tasks.sweep_battles", ignore_result=True, **RETRY)
def sweep_battles() -> int:
    """Beat job: send again the battle jobs whose claim or message went missing."""
    return jobs.sweep_battles()
