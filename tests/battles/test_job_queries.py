"""A battle job reads the battlefield's neighbourhood only and writes units, pilots and
journal entries in bulk (issue 15, target 5): at most 15 queries per job, the same on a
5-territory map and on one with 400 more territories; the winner taking the field
included. On PostgreSQL: two recordings of one campaign whose neighbourhoods do not meet
run side by side (no campaign lock), and the advance still cannot leave the tactical
phase under a recording in flight."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.services import jobs
from battles.services.opening import open_battles
from campaign.models import Campaign, Event
from economy.models import Operative, Unit
from territories.models import Adjacency, Territory
from tests.battles.conftest import fake_result

MAX_QUERIES_PER_JOB = 15


def _grow(campaign: Campaign, extra: int) -> None:
    """`extra` more territories in a chain hanging off Epsilon (far from the battle)."""
    last = Territory.objects.get(campaign=campaign, name="Epsilon")
    created = Territory.objects.bulk_create(
        [Territory(campaign=campaign, name=f"Far {i}") for i in range(extra)])
    edges = []
    for t in created:
        a, b = sorted((last.pk, t.pk))
        edges.append(Adjacency(campaign=campaign, a_id=a, b_id=b))
        last = t
    Adjacency.objects.bulk_create(edges)


def _battle(world, extra: int):
    w = world(owners={"Alpha": "alice", "Beta": "bob", "Gamma": "bob"})
    if extra:
        _grow(w.campaign, extra)
    attacker = w.unit("alice", "Beta")
    defender = w.unit("bob", "Beta")
    parked = w.unit("bob", "Beta", klass=None)  # an unpiloted vehicle: no participant
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return w, battle, attacker, defender, parked


def _run(battle: Battle, winner_id: int) -> int:
    """Run the job with a scripted result: `winner_id`'s side wins, every unit intact."""
    def resolver(battle_input: BattleInput):
        assert str(winner_id) in battle_input.sides
        return fake_result(battle_input, winner=str(winner_id))

    with CaptureQueriesContext(connection) as queries:
        assert jobs.run_battle_job(battle_id=battle.pk, resolver=resolver) == "recorded"
    # The test's own transaction turns the job's transactions into savepoints; outside
    # a test they are BEGIN and COMMIT, which are not statements of the job.
    return len([q for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))])


@pytest.mark.parametrize("extra", [0, 400])
def test_a_job_where_the_attacker_takes_the_field_stays_within_its_query_budget(world, extra):
    w, battle, attacker, defender, parked = _battle(world, extra)
    count = _run(battle, w.players["alice"].pk)
    assert count <= MAX_QUERIES_PER_JOB
    # What the bulk writes wrote: the field changed hands, the loser and its parked
    # vehicle retreated next door (Gamma, bob's), XP and the journal entries are there.
    assert Territory.objects.get(pk=battle.territory_id).owner_id == w.players["alice"].pk
    gamma = w.t["Gamma"].pk
    assert Unit.objects.get(pk=defender.pk).territory_id == gamma
    assert Unit.objects.get(pk=parked.pk).territory_id == gamma
    assert Operative.objects.get(pk=attacker.pilot_id).xp >= 1
    kinds = list(Event.objects.filter(campaign=w.campaign).order_by("id")
                 .values_list("kind", flat=True))
    assert kinds[-4:] == ["territory_taken", "xp_awarded", "xp_awarded", "battle_result"]
    xp_event = Event.objects.filter(campaign=w.campaign, kind="xp_awarded").first()
    assert xp_event is not None and xp_event.viewers.count() == 1


def test_a_job_costs_the_same_queries_on_a_small_and_a_large_map(world, db):
    counts = []
    for extra in (0, 400):
        w, battle, *_ = _battle(world, extra)
        counts.append(_run(battle, w.players["bob"].pk))
        Campaign.objects.filter(pk=w.campaign.pk).delete()
    assert counts[0] == counts[1] <= MAX_QUERIES_PER_JOB


def test_a_workers_first_job_of_a_campaign_builds_the_shared_graph_once(world):
    """The neighbours come from the campaign's graph, shared by the worker process: its
    first job of a campaign builds it (two queries, once), the next ones do not."""
    from territories.services.graph import forget

    w, battle, *_ = _battle(world, 0)
    warm_world_battle = _run(battle, w.players["bob"].pk)
    w2, battle2, *_ = _battle(world, 0)
    forget(w2.campaign.pk)
    assert _run(battle2, w2.players["bob"].pk) == warm_world_battle + 2


# ---------------------------------------------------------------------------
# PostgreSQL: no campaign lock
# ---------------------------------------------------------------------------

postgres_only = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                   reason="row locks exist on PostgreSQL only")


def _hold_battle_lock(battle_id: int, held: threading.Event,
                      release: threading.Event) -> None:
    """Another connection: a recording in flight (its battle row and neighbourhood)."""
    from territories.selectors import lock_neighbourhood

    try:
        with transaction.atomic():
            battle = (Battle.objects.select_for_update(of=("self",))
                      .select_related("campaign").get(pk=battle_id))
            lock_neighbourhood(battle.campaign, battle.territory_id)
            held.set()
            release.wait(10)
    finally:
        connections.close_all()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_recording_does_not_lock_the_campaign_row(world):
    w, battle, *_ = _battle(world, 0)
    held, release = threading.Event(), threading.Event()
    other = threading.Thread(target=_hold_battle_lock, args=(battle.pk, held, release))
    other.start()
    try:
        assert held.wait(10)
        with transaction.atomic():  # the campaign row is free...
            Campaign.objects.select_for_update(nowait=True).get(pk=w.campaign.pk)
        with pytest.raises(OperationalError), transaction.atomic():  # ...the battle's not
            Battle.objects.select_for_update(nowait=True).get(pk=battle.pk)
    finally:
        release.set()
        other.join(10)


def test_a_first_delivery_claims_its_battle_in_two_statements_without_a_transaction(world):
    """Every battle of a phase is claimed once: a conditional UPDATE and the input's read,
    no savepoint (no transaction) and no campaign row; the claim is what the locked path
    writes (issue 32)."""
    _w, battle, *_ = _battle(world, 0)
    with CaptureQueriesContext(connection) as queries:
        claimed = jobs._claim(battle.pk, "job-1")
    assert claimed == (battle.input, battle.ruleset_name)
    sql = [q["sql"] for q in queries]
    assert len(sql) == 2 and sql[0].startswith("UPDATE") and sql[1].startswith("SELECT")
    battle.refresh_from_db()
    assert (battle.status, battle.attempts, battle.claim) == (Battle.Status.RUNNING, 1, "job-1")
    assert battle.started_at is not None
    assert jobs._claim(battle.pk, "job-2") is None  # a duplicate: the live claim holds
    battle.refresh_from_db()
    assert (battle.attempts, battle.claim) == (1, "job-1")
