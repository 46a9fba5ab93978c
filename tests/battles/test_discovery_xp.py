"""Discovery XP: the pilots of the units that take a never-owned territory explore it.

Seed, Scientist: "They are part of the exploration of a territory where xenotech material
is discovered." Worker: "They are part of a team that discovers an exceptionally pure
depot of mineral." Rulings R-XP-3 (who explores; what counts as xenotech) and R-XP-4
(a starting territory has no explorers).
"""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.services.opening import open_battles
from campaign.dice import forced_dice
from campaign.models import Event
from economy.models import Operative
from territories.models import Exploration
from tests.battles.test_recording import run_with, side

# 3d8 = active, passive, nemesis; then the discovery d8 and its value d8.
XENOTECH = [4, 3, 8, 5, 2]  # nemesis 8 -> discovery 5 (xenotech elements, 2 x 20 SC)
PURE = [4, 7, 4]  # passive 7+ -> exceptionally pure
PURE_AND_ARTIFACT = [4, 8, 8, 7]  # pure, and an artifact
SHIPWRECK = [4, 3, 8, 1, 3]  # not xenotech


def take_unopposed(w, faces):
    w.campaign.phase = "tactical"
    w.campaign.save()
    with forced_dice(faces):
        assert open_battles(campaign=w.campaign) == []


def pilot(unit) -> Operative:
    return Operative.objects.get(pk=unit.pilot_id)


def test_scientists_taking_a_territory_with_xenotech_earn_one_xp(world):
    """Scientist bonus: xenotech found by the exploration their unit made; the soldier
    beside them has no such bonus; the worker none either (not pure)."""
    w = world()
    sci = w.unit("alice", "Beta", klass="scientist")
    sol = w.unit("alice", "Beta", klass="soldier")
    wrk = w.unit("alice", "Beta", klass="worker")
    take_unopposed(w, XENOTECH)
    assert Exploration.objects.get(territory=w.t["Beta"]).discovery == "xenotech"
    assert (pilot(sci).xp, pilot(sol).xp, pilot(wrk).xp) == (1, 0, 0)
    event = Event.objects.get(kind="xp_awarded", data__operative=sci.pilot_id)
    assert event.data["kinds"] == ["xenotech_discovery"]
    assert event.data["territory"] == w.t["Beta"].pk


def test_workers_taking_a_territory_with_a_pure_deposit_earn_one_xp(world):
    """Worker bonus: "an exceptionally pure depot" (passive die 7+)."""
    w = world()
    wrk = w.unit("alice", "Beta", klass="worker")
    sci = w.unit("alice", "Beta", klass="scientist")
    take_unopposed(w, PURE)
    assert Exploration.objects.get(territory=w.t["Beta"]).pure
    assert (pilot(wrk).xp, pilot(sci).xp) == (1, 0)


def test_an_artifact_counts_as_xenotech_and_both_bonuses_can_come_at_once(world):
    """R-XP-3: the artifact and the xeno craft are xenotechnologic finds too."""
    w = world()
    wrk = w.unit("alice", "Beta", klass="worker")
    sci = w.unit("alice", "Beta", klass="scientist")
    take_unopposed(w, PURE_AND_ARTIFACT)
    e = Exploration.objects.get(territory=w.t["Beta"])
    assert e.pure and e.discovery == "artifact"
    assert (pilot(wrk).xp, pilot(sci).xp) == (1, 1)


def test_a_shipwreck_is_not_xenotech(world):
    w = world()
    sci = w.unit("alice", "Beta", klass="scientist")
    take_unopposed(w, SHIPWRECK)
    assert Exploration.objects.get(territory=w.t["Beta"]).discovery == "shipwreck"
    assert pilot(sci).xp == 0


def test_taking_an_already_explored_territory_earns_nothing(world):
    """"When you take control of a territory no-one owned before, you make an exploration
    roll": an owned-before territory is not explored again, so no discovery XP."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    sci = w.unit("alice", "Beta", klass="scientist")
    take_unopposed(w, XENOTECH)
    assert pilot(sci).xp == 0


def test_the_winners_of_a_battle_for_a_never_owned_territory_explore_it(world):
    """After a battle the winner's standing units take the territory (no enemy left) and
    make its exploration roll: the winner's scientist earns survival XP and the xenotech
    bonus; the loser's scientist only survives."""
    w = world()
    mine = w.unit("alice", "Beta", klass="scientist")
    theirs = w.unit("bob", "Beta", klass="scientist")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    with forced_dice(XENOTECH):
        assert run_with(battle, winner=side(w, "alice")) == "recorded"
    w.refresh()
    assert w.t["Beta"].owner_id == w.players["alice"].pk
    assert pilot(mine).xp == 2  # survived + xenotech_discovery
    assert pilot(theirs).xp == 1  # survived (retreated)


def test_a_starting_territory_has_no_explorers(world):
    """R-XP-4: a starting territory is explored by `campaign_start` calling `explore`
    directly, before any unit took it: nobody earns discovery XP, even a scientist who
    happens to stand there."""
    from territories.services.exploration import explore

    w = world()
    sci = w.unit("alice", "Gamma", klass="scientist")
    with forced_dice(XENOTECH):
        explore(territory=w.t["Gamma"], player=w.players["alice"])
    assert Exploration.objects.get(territory=w.t["Gamma"]).discovery == "xenotech"
    assert pilot(sci).xp == 0
    assert not Event.objects.filter(kind="xp_awarded").exists()


def test_a_battle_for_a_never_owned_territory_writes_its_journal_in_order_at_once(world):
    """The exploration's entry, the take, the battle's XP, then the explorer's discovery
    XP (private to the winner) and the result, in that order; written with the rest of
    the recording's journal in one write, and the explorer's XP saved once (issue 32)."""
    w = world()
    mine = w.unit("alice", "Beta", klass="scientist")
    w.unit("bob", "Beta", klass="scientist")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    first = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    with forced_dice(XENOTECH), CaptureQueriesContext(connection) as queries:
        assert run_with(battle, winner=side(w, "alice")) == "recorded"
    events = list(Event.objects.filter(id__gt=first).order_by("id"))
    assert [e.kind for e in events] == ["territory_explored", "territory_taken",
                                        "xp_awarded", "xp_awarded", "xp_awarded",
                                        "battle_result"]
    discovery = events[4]
    assert discovery.data["kinds"] == ["xenotech_discovery"]
    assert discovery.data["operative"] == mine.pilot_id
    assert discovery.data["battle"] == battle.pk and discovery.data["total"] == 2
    assert list(discovery.viewers.values_list("id", flat=True)) == [w.players["alice"].pk]
    sql = [q["sql"] for q in queries.captured_queries]
    assert len([q for q in sql if q.startswith('INSERT INTO "campaign_event" ')]) == 1
    assert len([q for q in sql if q.startswith('UPDATE "economy_operative"')]) == 1
    assert pilot(mine).xp == 2
