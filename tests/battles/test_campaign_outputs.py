"""What battles take from and give back to the campaign beyond units: turret weapons and
silo missiles and the defender's containers go in; missiles spent, containers carried off
and laboratories robbed come out (rulings R-ECO-17, R-BJ-11, R-BJ-12, R-BJ-13)."""

from __future__ import annotations

import dataclasses

from battles.models import Battle
from battles.rulesets.unlimit3d8.engine.model import BattleInput, CargoOutcome
from battles.services import jobs
from battles.services.opening import open_battles
from campaign.models import Event, Player
from economy.models import Building, Operative, Stock, Weapon
from tests.battles.conftest import fake_result
from tests.battles.test_recording import side


def open_all(w):
    w.campaign.phase = "tactical"
    w.campaign.save()
    return open_battles(campaign=w.campaign)


def record(battle, **extra):
    script = {k: extra.pop(k) for k in ("winner", "fates", "events", "buildings_destroyed")
              if k in extra}

    def resolver(battle_input: BattleInput):
        return dataclasses.replace(fake_result(battle_input, **script), **extra)

    return jobs.run_battle_job(battle_id=battle.pk, resolver=resolver)


def silo(w, where, missiles, *, radar=True):
    b = w.building(where, "missile_silo", x=5, y=5)
    Building.objects.filter(pk=b.pk).update(missiles=missiles)
    if radar:
        w.building(where, "radar", x=6, y=6)
    return b


def test_a_turrets_weapon_goes_into_the_battle(world):
    """Seed, "Turret": "can be fitted with any one kind of weapons"; R-BAT-16."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    turret = w.building("Beta", "turret", x=2, y=2)
    gun = Weapon.objects.create(player=w.players["bob"], territory=w.t["Beta"],
                                weapon="cannon", templates=["heavy"])
    Building.objects.filter(pk=turret.pk).update(weapon=gun)
    (battle,) = open_all(w)
    (entry,) = [b for b in battle.input["buildings"] if b["id"] == turret.pk]
    assert entry["weapon"] == {"key": "cannon", "templates": ["heavy"]}


def test_silo_missiles_are_listed_nearest_first_and_never_twice(world):
    """Missile silo: "needs a radar on the territory it's built on to operate";
    designation: "2CDT by territory that separates the silo from the target". R-BJ-11:
    Bob's silo on Beta (0) then Gamma (1); Alice's silo without radar is not listed; a
    second battle of Bob's the same turn gets only what is left."""
    w = world(owners={"Alpha": "alice", "Beta": "bob", "Gamma": "bob", "Delta": "bob"})
    silo(w, "Beta", 1)
    far = silo(w, "Gamma", 2)
    silo(w, "Alpha", 3, radar=False)
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.unit("alice", "Delta")
    w.unit("bob", "Delta")
    first, second = open_all(w)
    bob = side(w, "bob")
    lists = {b.territory.name: b.input.get("missiles", {}) for b in (first, second)}
    everything = sorted((m["silo_distance"], m["silo"]) for b in lists.values()
                        for m in b.get(bob, []))
    assert len(everything) == 3  # 1 + 2 missiles, each listed once
    assert side(w, "alice") not in lists["Beta"] and side(w, "alice") not in lists["Delta"]
    assert sum(1 for d, s in everything if s == far.pk) == 2


def test_missiles_fired_are_taken_from_the_silos_listed_first(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob", "Gamma": "bob"})
    near = silo(w, "Beta", 1)
    far = silo(w, "Gamma", 2)
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    (battle,) = open_all(w)
    assert record(battle, winner=side(w, "bob"),
                  missiles_used={side(w, "bob"): 2}) == "recorded"
    near.refresh_from_db()
    far.refresh_from_db()
    assert (near.missiles, far.missiles) == (0, 1)
    result = Event.objects.get(kind="battle_result").data
    assert [m["silo"] for m in result["missiles_fired"]] == [near.pk, far.pk]


def test_the_defenders_containers_go_into_the_battle(world):
    """Containers hold "up to ten units of one single resource": 23 minerals are three
    containers standing at the warehouse."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    wh = w.building("Beta", "warehouse", x=4, y=9)
    Stock.objects.create(territory=w.t["Beta"], resource="minerals", units=23)
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    (battle,) = open_all(w)
    cargo = battle.input["cargo"]
    assert [c["units"] for c in cargo] == [10, 10, 3]
    assert {(c["x"], c["y"]) for c in cargo} == {(wh.x, wh.y)}


def cargo_world(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.building("Beta", "warehouse", x=4, y=9)
    w.building("Alpha", "warehouse", x=4, y=9)
    Stock.objects.create(territory=w.t["Beta"], resource="minerals", units=15)
    bandit = w.unit("alice", "Beta", klass="bandit")
    w.unit("bob", "Beta")
    (battle,) = open_all(w)
    return w, bandit, battle


def test_a_container_carried_off_by_a_retreating_raider_goes_home_with_it(world):
    """Bandit: "They manage to steal a cargo of any kind"; "Any Unit equiped with Medium or
    Heavy Grappling Arms can lift a container and take it away". R-BJ-12: the raider
    retreated to Alpha with 10 minerals; the bandit earns steal_cargo."""
    w, bandit, battle = cargo_world(world)
    (first, *_rest) = battle.input["cargo"]
    taken = CargoOutcome(id=first["id"], owner=side(w, "bob"), resource="minerals",
                         units=first["units"], fate="taken", taken_by=side(w, "alice"),
                         carrier=bandit.pk, lifter=bandit.pk)
    assert record(battle, winner=side(w, "bob"), events=[(bandit.pk, "steal_cargo")],
                  cargo=(taken,), cargo_taken={side(w, "alice"): (first["id"],)}
                  ) == "recorded"
    assert Stock.objects.get(territory=w.t["Alpha"], resource="minerals").units == 10
    assert Stock.objects.get(territory=w.t["Beta"], resource="minerals").units == 5
    assert Operative.objects.get(pk=bandit.pilot_id).xp == 2  # survived + steal_cargo


def test_a_lost_container_is_gone_and_a_won_field_keeps_its_stock(world):
    w, bandit, battle = cargo_world(world)
    first, second = battle.input["cargo"]
    lost = CargoOutcome(id=first["id"], owner=side(w, "bob"), resource="minerals",
                        units=10, fate="lost")
    kept = CargoOutcome(id=second["id"], owner=side(w, "bob"), resource="minerals",
                        units=5, fate="taken", taken_by=side(w, "alice"), carrier=bandit.pk)
    assert record(battle, winner=side(w, "alice"), cargo=(lost, kept)) == "recorded"
    w.refresh()
    assert w.t["Beta"].owner_id == w.players["alice"].pk
    assert Stock.objects.get(territory=w.t["Beta"], resource="minerals").units == 5
    assert not Stock.objects.filter(territory=w.t["Alpha"]).exists()


def test_a_successful_laboratory_piracy_steals_research_points(world):
    """Piracy: "Used on a laboratory, it will allow the pirate to steal a technology on a
    tech skill roll equal to the number of Research Points necessary to get the
    technology." R-BJ-13: the difficulty beaten, in research points, at most what the
    owner has, moves to the pirate's player; a failed attempt moves nothing."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    lab = w.building("Beta", "laboratory", x=3, y=3)
    Player.objects.filter(pk=w.players["bob"].pk).update(research_points=12)
    pirate = w.unit("alice", "Beta", klass="scientist")
    w.unit("bob", "Beta")
    (battle,) = open_all(w)
    attempts = ({"unit": pirate.pk, "side": side(w, "alice"), "laboratory": lab.pk,
                 "score": 25, "difficulty": 20, "success": True},
                {"unit": pirate.pk, "side": side(w, "alice"), "laboratory": lab.pk,
                 "score": 3, "difficulty": 20, "success": False})
    assert record(battle, winner=side(w, "bob"), lab_piracies=attempts,
                  events=[(pirate.pk, "piracy_success")]) == "recorded"
    points = dict(Player.objects.values_list("pk", "research_points"))
    assert (points[w.players["alice"].pk], points[w.players["bob"].pk]) == (12, 0)
    assert Operative.objects.get(pk=pirate.pilot_id).xp == 2


def test_a_result_without_the_new_outputs_still_records(world):
    """Older engine results have no missiles, cargo or piracy keys."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    silo(w, "Beta", 2)
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    (battle,) = open_all(w)

    def resolver(battle_input):
        data = fake_result(battle_input, winner=side(w, "bob")).to_dict()
        for key in ("missiles_used", "missile_strikes", "cargo", "cargo_taken",
                    "lab_piracies"):
            data.pop(key, None)
        return data

    from battles.services.recording import record_result

    assert record_result(battle_id=battle.pk,
                         result=resolver(BattleInput.from_dict(battle.input))) is True
    assert Battle.objects.get(pk=battle.pk).status == "finished"
    assert Building.objects.get(kind="missile_silo").missiles == 2


def test_a_destroyed_turret_loses_its_weapon(world):
    """R-ECO-17: the weapon goes down with the turret."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    turret = w.building("Beta", "turret", x=2, y=2)
    gun = Weapon.objects.create(player=w.players["bob"], territory=w.t["Beta"],
                                weapon="cannon")
    Building.objects.filter(pk=turret.pk).update(weapon=gun)
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    (battle,) = open_all(w)
    assert record(battle, winner=side(w, "bob"), buildings_destroyed=(turret.pk,)) \
        == "recorded"
    assert not Building.objects.filter(pk=turret.pk).exists()
    assert not Weapon.objects.filter(pk=gun.pk).exists()


def test_the_real_engine_takes_missiles_and_cargo_and_records(world):
    """End to end with the engine: the new inputs are accepted and the result records."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    silo(w, "Beta", 2)
    w.building("Beta", "warehouse", x=4, y=9)
    Stock.objects.create(territory=w.t["Beta"], resource="minerals", units=12)
    w.unit("alice", "Beta", weapons=("cannon",))
    w.unit("bob", "Beta", weapons=("designator", "machine_gun"), model="hellound")
    (battle,) = open_all(w)
    assert battle.input["missiles"] and battle.input["cargo"]
    assert jobs.run_battle_job(battle_id=battle.pk) == "recorded"
    battle.refresh_from_db()
    assert battle.status == "finished"
    fired = Event.objects.get(kind="battle_result").data["missiles_fired"]
    assert Building.objects.get(kind="missile_silo").missiles == 2 - len(fired)
