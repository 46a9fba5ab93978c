"""Battle jobs: status, idempotent recording, failures, quarantine, umpire retry, and the
clock's refusal to leave the tactical phase with unfinished battles."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleRecord
from battles.services import jobs
from battles.services.opening import open_battles
from battles.tasks import run_battle
from campaign.errors import Conflict
from campaign.models import Event
from campaign.services import clock
from economy.models import Operative


def one_battle(world, **options):
    w = world(options=options or None, owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return w, battle


def boom(*_args):
    raise RuntimeError("engine exploded")


def test_the_task_runs_the_real_engine_and_records_the_battle(world):
    _w, battle = one_battle(world)
    assert run_battle(battle.pk) == "recorded"
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED
    assert battle.log and battle.result["units"]
    assert battle.attempts == 1 and battle.finished_at is not None
    assert BattleRecord.objects.get(battle=battle).source == "engine"


def test_a_job_delivered_twice_records_once(world):
    """Recording is keyed on the battle (one-to-one BattleRecord): a second delivery finds
    the record and changes nothing — the XP is not awarded twice."""
    _w, battle = one_battle(world)
    assert run_battle(battle.pk) == "recorded"
    xp = sorted(Operative.objects.values_list("pk", "xp"))
    events = Event.objects.count()
    assert run_battle(battle.pk) == "skipped"
    assert jobs.run_battle_job(battle_id=battle.pk) == "skipped"
    assert BattleRecord.objects.filter(battle=battle).count() == 1
    assert sorted(Operative.objects.values_list("pk", "xp")) == xp
    assert Event.objects.count() == events


def test_two_deliveries_racing_past_the_claim_still_record_once(world):
    """Both runs resolve (a redelivery while the first still runs); the record decides."""
    from battles.rulesets.unlimit3d8.engine.model import BattleInput
    from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
    from battles.services.recording import record_result

    _w, battle = one_battle(world)
    payload = resolve_battle(BattleInput.from_dict(battle.input)).to_dict()
    assert record_result(battle_id=battle.pk, result=payload) is True
    assert record_result(battle_id=battle.pk, result=payload) is False
    assert Event.objects.filter(kind="battle_result").count() == 1


def test_a_failing_job_keeps_its_error_and_is_quarantined_after_max_attempts(
        world, monkeypatch, django_capture_on_commit_callbacks):
    _w, battle = one_battle(world, battle_max_attempts=2)
    monkeypatch.setattr(jobs, "default_resolver", boom)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = run_battle(battle.pk)
    battle.refresh_from_db()
    assert outcome == "failed"  # the first failure re-enqueued; the retry quarantined
    assert battle.status == Battle.Status.FAILED and battle.quarantined
    assert battle.attempts == 2
    assert "engine exploded" in battle.error
    assert not BattleRecord.objects.exists()
    event = Event.objects.get(kind="battle_quarantined")
    assert event.visibility == Event.Visibility.UMPIRE
    assert run_battle(battle.pk) == "skipped"  # quarantined: no loop


def test_a_single_failure_with_one_attempt_allowed_is_failed_at_once(world, monkeypatch):
    _w, battle = one_battle(world, battle_max_attempts=1)
    monkeypatch.setattr(jobs, "default_resolver", boom)
    assert run_battle(battle.pk) == "quarantined"
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FAILED and "RuntimeError" in battle.error


def test_a_job_whose_workers_keep_dying_is_quarantined_at_its_next_claim(world):
    """A job redelivered after its worker died is claimed again; after
    battle_max_attempts claims without a result it stops instead of looping."""
    _w, battle = one_battle(world, battle_max_attempts=3)
    Battle.objects.filter(pk=battle.pk).update(status="running", attempts=3)
    assert run_battle(battle.pk) == "skipped"
    battle.refresh_from_db()
    assert battle.quarantined and battle.status == Battle.Status.FAILED


def test_the_umpire_retries_a_quarantined_battle(world, monkeypatch, client_for, uma, alice,
                                                 django_capture_on_commit_callbacks):
    w, battle = one_battle(world, battle_max_attempts=1)
    monkeypatch.setattr(jobs, "default_resolver", boom)
    run_battle(battle.pk)
    monkeypatch.undo()
    url = f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/retry/"
    assert client_for(alice).post(url).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(uma).post(url)
    assert response.status_code == 202
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED and not battle.quarantined
    again = client_for(uma).post(url)
    assert again.status_code == 409 and again.json()["code"] == "battle_finished"


@pytest.mark.parametrize("status", ["queued", "running"])
def test_a_retry_of_a_live_job_is_refused_and_changes_nothing(world, client_for, uma, status,
                                                             django_capture_on_commit_callbacks):
    """Issue 19.7: retry is for failed or quarantined battles only. A queued or running job
    is still alive; retrying it would reset its attempts and run it twice."""
    w, battle = one_battle(world)
    Battle.objects.filter(pk=battle.pk).update(status=status, attempts=1)
    before = Battle.objects.filter(pk=battle.pk).values().get()
    events = Event.objects.count()
    url = f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/retry/"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client_for(uma).post(url)
    assert response.status_code == 409
    assert response.json()["code"] == "battle_not_failed"
    assert status in response.json()["detail"]
    assert Battle.objects.filter(pk=battle.pk).values().get() == before
    assert Event.objects.count() == events and callbacks == []


def test_the_tactical_phase_cannot_end_while_a_battle_is_unfinished(
        world, django_capture_on_commit_callbacks):
    """API.md: "Advancing out of "tactical" is refused with 409 while any of its battles is
    unfinished." Seed: "When all battles are resolved, the next Strategic Turn begins."""
    w, battle = one_battle(world)
    with pytest.raises(Conflict) as refused:
        clock.advance(campaign_id=w.campaign.pk, by="umpire")
    assert refused.value.code == "battles_unfinished"
    run_battle(battle.pk)
    result = clock.advance(campaign_id=w.campaign.pk, by="umpire")
    assert result.changed and result.campaign.phase == "commercial"


def test_entering_tactical_enqueues_and_runs_each_battle_after_commit(
        world, django_capture_on_commit_callbacks):
    """Eager mode (no broker): the job runs in-process once the advance commits."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        clock.advance(campaign_id=w.campaign.pk, by="umpire")
    assert Battle.objects.get().status == Battle.Status.QUEUED
    for callback in callbacks:
        callback()
    assert Battle.objects.get().status == Battle.Status.FINISHED
