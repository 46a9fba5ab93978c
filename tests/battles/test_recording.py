"""Recording a result: losses, damage, ownership, retreats, off-map units, buildings."""

from __future__ import annotations

from battles.models import Battle
from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.services import jobs
from battles.services.opening import open_battles
from economy.models import Building, Operative, Unit
from tests.battles.conftest import fake_result


def open_one(w):
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return battle


def run_with(battle, **script):
    def resolver(battle_input: BattleInput):
        return fake_result(battle_input, **script)

    return jobs.run_battle_job(battle_id=battle.pk, resolver=resolver)


def side(w, who):
    return str(w.players[who].pk)


def test_the_attacker_wins_takes_the_territory_and_the_defender_retreats_home(world):
    """Seed: units fight "until all the units of one side are either destroyed or retreat to
    an adjacent territory. You can only retreat to a territory you control." The winner's
    units are then on a territory with no enemy: "they take possession of said territory"."""
    w = world(owners={"Alpha": "alice", "Beta": "bob", "Gamma": "bob"})
    attacker = w.unit("alice", "Beta")
    defender = w.unit("bob", "Beta")
    battle = open_one(w)
    assert run_with(battle, winner=side(w, "alice"),
                    fates={defender.pk: ("retreated", 4, 5)}) == "recorded"
    w.refresh()
    assert w.t["Beta"].owner_id == w.players["alice"].pk
    defender.refresh_from_db()
    attacker.refresh_from_db()
    assert defender.territory_id == w.t["Gamma"].pk and defender.status == "ready"
    assert (defender.damage_repairable, defender.damage_unrepairable) == (4, 5)
    assert attacker.territory_id == w.t["Beta"].pk
    battle.refresh_from_db()
    assert battle.winner_id == w.players["alice"].pk


def test_a_unit_with_nowhere_to_retreat_leaves_the_map_and_is_locked(world):
    """Seed: "If ... a unit can't retreat to an adjacent, controlled territory then they are
    removed from the map and reappear at the beginning of the next Movement phase ... That
    unit cannot change any Equipment or Pilots until the beginning of the subsequent
    Strategic Turn." (turn 1's loser: locked until turn 3)."""
    w = world(owners={"Gamma": "bob", "Epsilon": "alice"})
    w.unit("alice", "Gamma")
    loser = w.unit("bob", "Gamma")
    battle = open_one(w)
    run_with(battle, winner=side(w, "alice"), fates={loser.pk: ("retreated", 2, 2)})
    loser.refresh_from_db()
    assert loser.status == Unit.Status.OFF_MAP and loser.territory_id is None
    assert loser.locked_until_turn == 3
    w.refresh()
    assert w.t["Gamma"].owner_id == w.players["alice"].pk


def test_the_defender_holds_and_beaten_attackers_retreat_to_where_they_came_from(world):
    w = world(owners={"Alpha": "alice", "Beta": "alice", "Gamma": "bob"})
    attacker = w.unit("alice", "Gamma")
    w.unit("bob", "Gamma")
    battle = open_one(w)
    # The engine reports an attacker still standing (e.g. at the round limit): not the
    # winner's, so it withdraws (R-BJ-5).
    run_with(battle, winner=side(w, "bob"), fates={attacker.pk: ("damaged", 3, 3)})
    attacker.refresh_from_db()
    assert attacker.territory_id == w.t["Beta"].pk
    w.refresh()
    assert w.t["Gamma"].owner_id == w.players["bob"].pk


def test_a_destroyed_unit_is_lost_and_its_pilot_ejects_without_survival_xp(world):
    """R-BJ-6 (default "survives"): the pilot of a destroyed unit lives, goes where a
    retreat would, and earns no XP for surviving ("After surviving a battle ...")."""
    w = world(owners={"Alpha": "alice", "Beta": "bob", "Gamma": "bob"})
    w.unit("alice", "Beta")
    wreck = w.unit("bob", "Beta")
    pilot = wreck.pilot
    battle = open_one(w)
    run_with(battle, winner=side(w, "alice"), fates={wreck.pk: ("destroyed", 12, 13)})
    wreck.refresh_from_db()
    pilot.refresh_from_db()
    assert wreck.status == Unit.Status.DESTROYED and wreck.pilot_id is None
    assert pilot.alive and pilot.territory_id == w.t["Gamma"].pk and pilot.xp == 0


def test_the_pilot_can_die_with_the_unit_by_option(world):
    w = world(owners={"Beta": "bob"}, options={"pilot_of_destroyed_unit": "dies"})
    w.unit("alice", "Beta")
    wreck = w.unit("bob", "Beta", klass="soldier")
    pilot = wreck.pilot
    battle = open_one(w)
    run_with(battle, winner=side(w, "alice"), fates={wreck.pk: ("destroyed", 12, 13)},
             events=[(wreck.pk, "destroy_unit")])
    pilot.refresh_from_db()
    assert not pilot.alive and pilot.xp == 0


def test_destroyed_buildings_are_removed(world):
    w = world(owners={"Beta": "bob"})
    radar = w.building("Beta", "radar", x=1, y=1)
    station = w.building("Beta", "station", x=2, y=2)
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    battle = open_one(w)
    run_with(battle, winner=side(w, "bob"), buildings_destroyed=[radar.pk])
    assert list(Building.objects.values_list("pk", flat=True)) == [station.pk]


def test_the_result_is_public_and_names_the_units_that_fought(world):
    from campaign.models import Event

    w = world(owners={"Beta": "bob"})
    a = w.unit("alice", "Beta")
    b = w.unit("bob", "Beta")
    battle = open_one(w)
    run_with(battle, winner=side(w, "bob"))
    event = Event.objects.get(kind="battle_result")
    assert event.visibility == Event.Visibility.PUBLIC
    assert {u["unit"] for u in event.data["units"]} == {a.pk, b.pk}
    assert event.data["winner"] == w.players["bob"].pk
    assert Battle.objects.get().status == "finished"
    assert Operative.objects.filter(xp=1).count() == 2
