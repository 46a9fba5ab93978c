"""Issue 19.1: no battle job is lost, and none holds the turn for the broker's one-hour
visibility timeout.

- Jobs are committed with the change that causes them (the outbox) and sent after
  commit; a rolled-back change sends nothing.
- The sweeper sends again every battle without a live claim past its lease: a `running`
  battle whose worker died, a `queued` battle whose message was lost.
- A duplicate message never takes a live claim twice (no attempt burnt, no second run).
(The broker really being away is in tests/integration/test_outage_drill.py.)"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, BattleRecord
from battles.services import jobs
from battles.services.opening import open_battles
from battles.tasks import run_battle
from campaign.models import OutboxMessage
from campaign.services import outbox


def one_battle(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return w, battle


def test_opening_commits_the_job_with_the_battle_and_sends_it_after_commit(
        world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _w, battle = one_battle(world)
    message = OutboxMessage.objects.get(task="battles.tasks.run_battle", args=[battle.pk])
    assert message.sent_at is not None and message.attempts == 1
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED and battle.dispatched_at is not None


def test_a_rolled_back_change_leaves_no_job(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), \
            transaction.atomic():
        outbox.send_later("battles.tasks.run_battle", 123456)
        raise RuntimeError("the advance failed")
    assert not OutboxMessage.objects.filter(args=[123456]).exists()


def test_a_running_battle_past_its_lease_is_sent_again_and_recorded_once(
        world, settings, django_capture_on_commit_callbacks):
    """A worker SIGKILLed mid-battle leaves the battle `running`: past the lease (not the
    broker's visibility timeout) the sweeper sends it again; it is recorded once."""
    settings.BATTLE_LEASE_SECONDS = 60
    _w, battle = one_battle(world)
    long_ago = timezone.now() - dt.timedelta(seconds=61)
    Battle.objects.filter(pk=battle.pk).update(status="running", attempts=1,
                                               started_at=long_ago)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.sweep_battles() == 1
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED and battle.attempts == 2
    assert BattleRecord.objects.filter(battle=battle).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.sweep_battles() == 0  # finished: nothing more to send


def test_a_live_claim_is_left_alone_by_the_sweeper_and_by_a_duplicate_message(
        world, settings, django_capture_on_commit_callbacks):
    settings.BATTLE_LEASE_SECONDS = 60
    _w, battle = one_battle(world)
    just_now = timezone.now() - dt.timedelta(seconds=5)
    Battle.objects.filter(pk=battle.pk).update(status="running", attempts=1,
                                               started_at=just_now)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.sweep_battles() == 0
    assert run_battle(battle.pk) == "skipped"  # a duplicate delivery of the same job
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RUNNING and battle.attempts == 1


def test_a_queued_battle_whose_message_was_lost_is_sent_again(
        world, settings, django_capture_on_commit_callbacks):
    """Redis keeps nothing on disk here: a restart loses queued messages. A battle still
    `queued` a lease after its job was sent is sent again."""
    settings.BATTLE_LEASE_SECONDS = 60
    _w, battle = one_battle(world)  # callbacks not run: the message "went missing"
    Battle.objects.filter(pk=battle.pk).update(
        dispatched_at=timezone.now() - dt.timedelta(seconds=61))
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.sweep_battles() == 1
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED


def test_the_outbox_sweeper_sends_what_waited_and_nothing_twice(
        world, django_capture_on_commit_callbacks):
    _w, battle = one_battle(world)  # on-commit send never ran (as if the broker was down)
    message = OutboxMessage.objects.get(task="battles.tasks.run_battle", args=[battle.pk])
    assert message.sent_at is None
    assert outbox.drain() == 0  # within the grace period: the on-commit send may come
    later = timezone.now() + dt.timedelta(seconds=outbox.GRACE_SECONDS + 1)
    assert outbox.drain(now=later) == 1
    assert outbox.drain(now=later) == 0
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED


def test_a_sent_job_no_worker_finished_is_sent_again_after_the_lease(
        db, settings, django_capture_on_commit_callbacks):
    """Redis keeps nothing on disk here: a notification sent just before a restart is
    lost. The outbox knows it was never finished (no done_at) and sends it again a lease
    later; battles are left to their own sweeper."""
    settings.BATTLE_LEASE_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=True):
        message = outbox.send_later("campaign.tasks.ping", "hello")
    message.refresh_from_db()
    assert message.sent_at is not None and message.done_at is not None  # ran (eager)
    OutboxMessage.objects.filter(pk=message.pk).update(
        done_at=None, sent_at=timezone.now() - dt.timedelta(seconds=61))
    battle_job = OutboxMessage.objects.create(
        task="battles.tasks.run_battle", args=[999999],
        sent_at=timezone.now() - dt.timedelta(seconds=61))
    assert outbox.drain() == 1
    message.refresh_from_db()
    assert message.attempts == 2 and message.done_at is not None
    battle_job.refresh_from_db()
    assert battle_job.attempts == 0  # sweep_battles decides for battles


def test_a_finished_battle_job_writes_no_done_mark_its_battle_is_the_mark(
        world, django_capture_on_commit_callbacks):
    """The outbox's done mark is what its sweeper reads; battles are swept by their own
    status, so a battle job pays no statement for it (issue 32), a notification still
    does (above)."""
    with django_capture_on_commit_callbacks(execute=True):
        _w, battle = one_battle(world)
    message = OutboxMessage.objects.get(task="battles.tasks.run_battle", args=[battle.pk])
    battle.refresh_from_db()
    assert battle.status == Battle.Status.FINISHED  # the job ran (eager) ...
    assert message.sent_at is not None and message.done_at is None  # ... and wrote no mark
