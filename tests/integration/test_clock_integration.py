"""The clock on the production path: PostgreSQL row locks, a real Celery beat and a
real worker over Redis.

Issue 5: "Advancing is idempotent: parallel requests, or a request racing the beat
job, produce exactly one phase change". On SQLite threads serialize on the file
lock, so the races are only meaningful here, against PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.urls import resolve
from django.utils import timezone

from campaign.models import Campaign, Phase, PhaseChange, Player
from campaign.services import clock
from tests.integration.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def running_campaign(uma, alice, bob, *, phase: str = Phase.MOVE,
                     deadline: dt.datetime | None = None) -> Campaign:
    campaign = Campaign.objects.create(name="Clock league", umpire=uma,
                                       status=Campaign.Status.RUNNING, turn=1, phase=phase,
                                       phase_deadline=deadline)
    PhaseChange.objects.create(campaign=campaign, turn=1, phase=phase, opened_by="test")
    Player.objects.create(campaign=campaign, user=alice)
    Player.objects.create(campaign=campaign, user=bob)
    return campaign


def run_in_parallel(calls: list[Callable[[], Any]]) -> list[Any]:
    """Start every call at the same moment, each on its own thread and connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = calls[i]()
        except Exception as exc:  # collected and asserted on below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def test_it_runs_on_postgresql():
    assert connection.vendor == "postgresql"


def test_parallel_umpire_advances_make_exactly_one_phase_change(uma, alice, bob):
    campaign = running_campaign(uma, alice, bob)
    results = run_in_parallel([
        lambda: clock.advance(campaign_id=campaign.pk, by="umpire", expected=(1, "move"))
        for _ in range(THREADS)
    ])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(r.changed for r in results) == 1
    campaign.refresh_from_db()
    assert (campaign.turn, campaign.phase) == (1, Phase.TACTICAL)
    assert PhaseChange.objects.filter(campaign=campaign, turn=1, phase="tactical").count() == 1
    assert campaign.events.filter(kind="phase_opened").count() == 1


def test_parallel_api_requests_make_exactly_one_phase_change(uma, alice, bob, client_for):
    campaign = running_campaign(uma, alice, bob)
    url = f"/api/campaigns/{campaign.pk}/advance/"
    clients = [client_for(uma) for _ in range(THREADS)]
    # Import every URL module (and the views behind them) once before the threads start:
    # a first-request race on lazy imports is not what this test is about.
    resolve(url).func  # noqa: B018
    clients[0].get(f"/api/campaigns/{campaign.pk}/")
    results = run_in_parallel([
        (lambda c=c: c.post(url, {"turn": 1, "phase": "move"}, format="json"))
        for c in clients
    ])
    # API.md: exactly one request advances; every repeat of it answers 409 (never a 500,
    # never a second phase).
    assert sorted(r.status_code for r in results) == [200] + [409] * (THREADS - 1)
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"phase_moved_on"}
    assert PhaseChange.objects.filter(campaign=campaign).count() == 2
    bodiless = run_in_parallel([(lambda c=c: c.post(url)) for c in clients])
    assert [r.status_code for r in bodiless] == [428] * THREADS
    assert PhaseChange.objects.filter(campaign=campaign).count() == 2


def test_an_umpire_advance_racing_the_sweep_makes_exactly_one_phase_change(uma, alice, bob):
    campaign = running_campaign(uma, alice, bob,
                                deadline=timezone.now() - dt.timedelta(seconds=1))
    calls: list[Callable[[], Any]] = []
    for i in range(THREADS):
        if i % 2:
            calls.append(lambda: clock.sweep_deadlines())
        else:
            calls.append(lambda: clock.advance(campaign_id=campaign.pk, by="umpire",
                                               expected=(1, "move")).changed)
    results = run_in_parallel(calls)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(int(r) for r in results) == 1
    campaign.refresh_from_db()
    assert (campaign.turn, campaign.phase) == (1, Phase.TACTICAL)
    assert PhaseChange.objects.filter(campaign=campaign, turn=1, phase="tactical").count() == 1


def test_parallel_ready_marks_advance_once(uma, alice, bob):
    campaign = running_campaign(uma, alice, bob)
    players = list(Player.objects.filter(campaign=campaign))
    run_in_parallel([(lambda p=p: clock.mark_ready(player=p)) for p in players])
    campaign.refresh_from_db()
    assert (campaign.turn, campaign.phase) == (1, Phase.TACTICAL)
    assert PhaseChange.objects.filter(campaign=campaign).count() == 2


def test_real_beat_and_worker_advance_a_campaign_at_its_deadline(celery_process, uma,
                                                                 alice, bob):
    """The deadline passes while nobody is looking: beat enqueues the sweep every
    second, the worker advances the campaign exactly once."""
    deadline = timezone.now() + dt.timedelta(seconds=3)
    campaign = running_campaign(uma, alice, bob, phase=Phase.COMMERCIAL, deadline=deadline)
    celery_process("worker")
    celery_process("beat", extra_env={"CLOCK_SWEEP_SECONDS": "1"})

    def moved() -> bool:
        campaign.refresh_from_db()
        return campaign.phase == Phase.ACTIVITY

    wait_for(moved, timeout=45, what="beat + worker to open the activity phase")
    assert timezone.now() >= deadline
    opening = PhaseChange.objects.get(campaign=campaign, turn=1, phase="activity")
    assert opening.opened_by == "deadline"
    # The new phase got its own default deadline; nothing opened twice.
    assert campaign.phase_deadline is not None and campaign.phase_deadline > deadline
    assert PhaseChange.objects.filter(campaign=campaign).count() == 2


def test_a_paused_campaign_is_left_alone_by_beat(celery_process, uma, alice, bob):
    campaign = running_campaign(uma, alice, bob, phase=Phase.COMMERCIAL,
                                deadline=timezone.now() + dt.timedelta(seconds=1))
    clock.pause(campaign=campaign)
    celery_process("worker")
    beat = celery_process("beat", extra_env={"CLOCK_SWEEP_SECONDS": "1"})
    wait_for(lambda: beat.log().count("Sending due task") >= 3, timeout=30,
             what="beat to send the sweep a few times")
    campaign.refresh_from_db()
    assert campaign.phase == Phase.COMMERCIAL
    assert PhaseChange.objects.filter(campaign=campaign).count() == 1
