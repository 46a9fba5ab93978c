"""Issue 30, item 7: a battle never waits out its lease after a recovery. The job that
holds a claim takes it back at once when it is delivered again (a retry after a database
error, a redelivery after its worker died: Celery keeps the task id), another job never
does; a rollback sends again the job of every battle it put back unfinished.
(The real PostgreSQL blip with real workers: tests/integration/test_outage_drill.py.)"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import OperationalError
from django.utils import timezone

from battles.models import Battle, BattleRecord
from battles.services import jobs
from battles.services.opening import open_battles
from campaign.models import OutboxMessage


def one_battle(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return w, battle


def test_a_job_retried_after_a_database_error_takes_its_claim_back_at_once(
        world, settings, monkeypatch):
    settings.BATTLE_LEASE_SECONDS = 120
    _w, battle = one_battle(world)
    from battles.services import recording

    real = recording.record_result

    def database_gone(**_kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(recording, "record_result", database_gone)
    with pytest.raises(OperationalError):  # the task's autoretry takes it from here
        jobs.run_battle_job(battle_id=battle.pk, claim="task-1")
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RUNNING and battle.claim == "task-1"
    monkeypatch.setattr(recording, "record_result", real)
    # Another job (a duplicate message) leaves the live claim alone...
    assert jobs.run_battle_job(battle_id=battle.pk, claim="task-2") == "skipped"
    # ...the job that holds it, retried a second later, records at once.
    assert jobs.run_battle_job(battle_id=battle.pk, claim="task-1") == "recorded"
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED and battle.attempts == 2
    assert BattleRecord.objects.filter(battle=battle).count() == 1


def test_a_claim_past_its_lease_is_still_taken_by_any_job(world, settings):
    settings.BATTLE_LEASE_SECONDS = 60
    _w, battle = one_battle(world)
    Battle.objects.filter(pk=battle.pk).update(
        status="running", attempts=1, claim="dead-worker",
        started_at=timezone.now() - dt.timedelta(seconds=61))
    assert jobs.run_battle_job(battle_id=battle.pk, claim="another") == "recorded"


def test_the_task_names_its_claim_with_its_task_id(world):
    from battles.tasks import run_battle

    _w, battle = one_battle(world)
    result = run_battle.apply(args=(battle.pk,), task_id="the-task-id")
    assert result.get() == "recorded"
    battle.refresh_from_db()
    assert battle.claim == "the-task-id"


def test_a_rollback_hook_queues_and_sends_again_every_unfinished_battle(
        world, django_capture_on_commit_callbacks):
    w, battle = one_battle(world)
    Battle.objects.filter(pk=battle.pk).update(status="running", claim="gone",
                                               started_at=timezone.now())
    OutboxMessage.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=False):
        jobs.resend_restored(w.campaign)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.QUEUED and battle.claim == ""
    sent = OutboxMessage.objects.filter(task=jobs.RUN_TASK)
    assert [m.args for m in sent] == [[battle.pk]]


def test_a_finished_battle_is_not_sent_again_by_a_rollback(world):
    w, battle = one_battle(world)
    assert jobs.run_battle_job(battle_id=battle.pk) == "recorded"
    OutboxMessage.objects.all().delete()
    jobs.resend_restored(w.campaign)
    assert not OutboxMessage.objects.exists()


def test_the_battles_app_asks_every_rollback_to_send_restored_jobs_again():
    from campaign.services import rollback

    assert jobs.resend_restored in rollback.rollback_restored.receivers()
