"""Mobius as a pure engine (seed 000_8a487fefb02227dd.txt): whole battles replay bit for
bit from their seed, every die goes through the seam, army lists are data checked by a JSON
Schema, and the campaign sees factions, prices, fates and veterancy in its own terms."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

from battles.rulesets.base import Battlefield, FieldUnit, RulesetError, XpAward
from battles.rulesets.mobius import armylists as A
from battles.rulesets.mobius import engine
from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.ruleset import RULESET, SECTIONS, seeded_dice
from battles.rulesets.registry import find_ruleset, names
from campaign.rules.dice import Dice, ForcedDice

BOOK = Path(__file__).parents[2] / "casebook" / "mobius"
PACKAGE = Path(__file__).parents[3] / "battles" / "rulesets" / "mobius"


def _unit(uid: int, player: int, key: str, state: dict | None = None) -> FieldUnit:
    entry = next(e for e in RULESET.catalogue() if e.key == key)
    return FieldUnit(id=uid, player=player, key=key, name=f"{entry.name} {uid}",
                     profile=dict(entry.profile), state=state or RULESET.initial_state(key))


def test_registered_under_its_name_with_its_seed():
    assert "mobius" in names()
    ruleset = find_ruleset("mobius")
    assert ruleset is RULESET
    assert (ruleset.title, ruleset.seed_file) == ("Mobius", "000_8a487fefb02227dd.txt")
    assert ruleset.dice == ("d6",)  # "Mobius is what's referred to as a 'bucket of D6'"


def test_a_hundred_seeded_battles_replay_bit_for_bit_and_account_for_every_unit():
    for seed in range(100):
        battle = RULESET.sample_battle(seed)
        first = RULESET.resolve(battle, seeded_dice(battle))
        again = RULESET.resolve(battle, seeded_dice(battle))
        assert first == again
        ids = sorted(u["id"] for units in battle["sides"].values() for u in units)
        assert sorted(f.unit for f in first.units) == ids
        assert 1 <= first.rounds <= T.OPTIONS["mobius_rounds"]
        assert first.winner in (1, 2, None)
        for fate in first.units:
            if fate.fate == "destroyed":
                assert fate.state == {"hp": [], "models": 0}
            else:
                assert fate.state["models"] == len(fate.state["hp"]) > 0


def test_every_die_goes_through_the_seam():
    battle = RULESET.sample_battle(4)
    counting = Dice(random.Random(4))
    RULESET.resolve(battle, counting)
    assert counting.count > 20
    with pytest.raises(Exception, match="exhausted"):
        RULESET.resolve(battle, ForcedDice([3, 3, 3]))
    for module in ("tables.py", "rules.py", "engine.py", "state.py", "missions.py",
                   "armylists.py"):
        source = (PACKAGE / module).read_text()
        assert "import random" not in source and "randint" not in source, module


def test_both_sides_can_win_the_sample_battle():
    wins = {RULESET.resolve(b, seeded_dice(b)).winner
            for b in (RULESET.sample_battle(s) for s in range(200))}
    assert {1, 2} <= wins


def test_the_first_turn_curse_holds_the_second_player_safe_in_round_one():
    """"If a Player hasn't had their first Turn, their Units may not be targeted for
    anything" (The First Turn Curse): the defender (first) fires at nothing in round 1."""
    battle = RULESET.sample_battle(7)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    defender_first = [s for s in outcome.log if s["round"] == 1 and s.get("side") == "2"
                      and s.get("action") in ("fire", "charge", "melee")]
    attackers_turn = [i for i, s in enumerate(outcome.log) if s.get("side") == "1"]
    first_attacker_step = attackers_turn[0] if attackers_turn else len(outcome.log)
    assert not [s for s in defender_first if outcome.log.index(s) < first_attacker_step]


def test_factions_are_the_seeds_and_the_catalogue_honours_faction():
    """"Factions Summarised": the ten factions, each with its starter list."""
    assert RULESET.factions == tuple(T.FACTIONS)
    assert len(RULESET.factions) == 10
    for faction in RULESET.factions:
        entries = RULESET.catalogue(faction=faction)
        assert entries and {e.faction for e in entries} == {faction}
        assert [e.price for e in entries] == sorted(e.price for e in entries)
        assert all(e.ruling and e.ruling.startswith("R-MOB-7") for e in entries)
    with pytest.raises(RulesetError, match="Unknown Mobius faction"):
        RULESET.catalogue(faction="sega")


def test_prices_follow_the_points_per_sc_setting():
    """R-MOB-1: SC = points / mobius_points_per_sc, rounded up."""
    sonic = next(e for e in RULESET.catalogue() if e.key == "sonic")
    assert sonic.price == 125  # 250 points at 2 per SC
    cheap = next(e for e in RULESET.catalogue(options={"mobius_points_per_sc": 3})
                 if e.key == "sonic")
    assert cheap.price == 84


GOOD_LIST = {"faction": "wolf_pack_nation", "name": "Howlers", "units": [
    {"key": "howlers", "name": "Howlers", "rank": "troops", "type": "infantry",
     "points": 80, "models": 6, "move": 7, "cqc": 5, "rc": 5, "pan": 7, "hp": 1,
     "def": 3, "rules": ["cry_of_the_wolf"],
     "weapons": [{"key": "spear", "name": "Spear", "rng": 0, "st": 4, "ak": 1, "dam": 1,
                  "type": "melee"}]}]}


def test_an_umpire_imports_an_army_list_through_the_campaign_options():
    options = {"mobius_army_lists": [GOOD_LIST]}
    RULESET.check_options(options)
    entries = RULESET.catalogue(faction="wolf_pack_nation", options=options)
    imported = next(e for e in entries if e.key == "howlers")
    assert imported.price == 40 and imported.ruling == "imported by the umpire (R-MOB-9)"
    assert imported.profile["faction"] == "wolf_pack_nation"


def test_a_bad_army_list_is_refused_with_sentences_naming_each_field():
    bad = copy.deepcopy(GOOD_LIST)
    bad["units"][0].update(points=0, rank="general")
    bad["units"][0]["weapons"][0]["rng"] = 12  # a "melee" weapon with a range
    with pytest.raises(RulesetError) as refused:
        RULESET.check_options({"mobius_army_lists": [bad]})
    message = str(refused.value)
    assert "units[0].points must be at least 1" in message
    assert "units[0].rank must be one of hq, troops" in message
    weapon = copy.deepcopy(GOOD_LIST)
    weapon["units"][0]["weapons"][0]["rng"] = 12
    with pytest.raises(RulesetError, match="a melee weapon has range CQC"):
        A.validate(weapon)
    clash = copy.deepcopy(GOOD_LIST)
    clash["units"][0]["key"] = "sonic"
    with pytest.raises(RulesetError, match="starter lists: sonic"):
        RULESET.check_options({"mobius_army_lists": [clash]})
    with pytest.raises(RulesetError, match="mobius_mission"):
        RULESET.check_options({"mobius_mission": "capture_the_emerald"})


def test_every_starter_list_is_valid_and_names_its_reason():
    for army in A.STARTERS:
        A.validate(army)
        for unit in army["units"]:
            assert unit["ruling"].startswith("R-MOB-7: ")
    keys = [u["key"] for _, u in A.starter_units()]
    assert len(keys) == len(set(keys))


def test_the_points_limit_holds_back_what_does_not_fit():
    """"The total value of all Units in your Army must be no more than the game's Points
    Limit" (R-MOB-2): units beyond the limit, in id order, stay out and come back intact."""
    field = Battlefield(territory=1, defender=2, seed=1,
                        options={"mobius_points_limit": 300},
                        sides={1: [_unit(1, 1, "acorn_officer"), _unit(2, 1, "sonic"),
                                   _unit(3, 1, "acorn_royal_army")],
                               2: [_unit(4, 2, "egg_boss"), _unit(5, 2, "egg_pawns")]})
    battle = RULESET.forces(field)
    assert [u["id"] for u in battle["sides"]["1"]] == [1, 2]
    assert battle["held_back"] == {"1": [3]}
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    held = next(f for f in outcome.units if f.unit == 3)
    assert held.fate == "intact" and held.detail["held_back"]
    assert all(x.unit != 3 for x in outcome.xp)


def test_veterancy_climbs_never_falls_and_steadies_the_unit():
    """R-MOB-8: Veteran after 2 battles survived (+1 PAN), Elite after 5 (+1 CQC too)."""
    state = RULESET.initial_state("acorn_royal_army")
    state = RULESET.veterancy(state, [XpAward(unit=1, kind="battle_survived")])
    assert state["level"] == "regular"
    state = RULESET.veterancy(state, [XpAward(unit=1, kind="battle_survived")])
    assert state["level"] == "veteran"
    assert RULESET.veterancy({"battles": 0, "level": "elite"}, [])["level"] == "elite"
    field = Battlefield(territory=1, defender=2, seed=1, sides={
        1: [_unit(1, 1, "acorn_royal_army", {"battles": 5, "level": "elite"})],
        2: [_unit(2, 2, "egg_pawns")]})
    unit = RULESET.forces(field)["sides"]["1"][0]
    assert (unit["pan"], unit["cqc"]) == (7, 5)


def test_a_unit_with_no_models_left_cannot_fight():
    field = Battlefield(territory=1, defender=2, seed=1, sides={
        1: [_unit(1, 1, "acorn_royal_army", {"hp": [0, 0]})], 2: [_unit(2, 2, "egg_pawns")]})
    with pytest.raises(RulesetError, match="no models left"):
        RULESET.forces(field)


def test_repair_prices_lost_hit_points():
    """R-MOB-27: lost HP costs its share of the price."""
    profile = next(e for e in RULESET.catalogue() if e.key == "acorn_royal_army").profile
    cost, state = RULESET.repair(profile, {"hp": [1] * 5, "models": 5, "battles": 1})
    assert cost == 23  # 45 SC x 5/10, rounded up
    assert state == {"battles": 1}


def test_missions_decide_the_winner_where_the_setting_says_so():
    """Basic Missions: King of the Hill by Victory Points, Control Points by objectives,
    Struggle for Survival by Casualty Rate (R-MOB-6)."""
    seen = set()
    for mission in ("king_of_the_hill", "control_points", "struggle_for_survival"):
        for seed in range(15):
            battle = RULESET.sample_battle(seed)
            battle = {**battle, "mission": mission}
            outcome = RULESET.resolve(battle, seeded_dice(battle))
            assert outcome.result["mission"] == mission
            seen.add(outcome.end_reason)
            if outcome.end_reason == "victory_points":
                vp = outcome.result["victory_points"]
                assert vp[str(outcome.winner)] == max(vp.values())
            if outcome.end_reason == "casualty_rate" and outcome.winner is not None:
                rates = outcome.result["casualty_rates"]
                standing = {str(f.player) for f in outcome.units if f.fate in
                            ("intact", "damaged")}
                assert rates[str(outcome.winner)] == min(rates[s] for s in standing)
    assert seen & {"victory_points", "control_points", "casualty_rate", "one_side_left"}


def test_casualty_rate_counts_destroyed_and_half_strength_units():
    """"add the Points Value of those Units ... If a Unit's total LP has been reduced to
    half its original number, add half their Points Value"."""
    battle = RULESET.sample_battle(0)
    b = engine.build(battle, Dice(0))
    next(u for u in b.units if u.id == 1).destroyed = True  # the officer, 40 points
    pawns = next(u for u in b.units if u.id == 6)
    pawns.hp = [1] * 5 + [0] * 5  # half the pawns gone: half of 50 points
    rates = engine.casualty_rates(b)
    assert rates == {"2": 25, "1": 40}


def test_odds_are_reproducible_and_sum_to_one():
    battle = RULESET.sample_battle(3)
    first = RULESET.odds(battle, simulations=20, seed=9)
    assert first == RULESET.odds(battle, simulations=20, seed=9)
    assert sum(first["win_probability"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("defender", ["2", None])  # None: a roll-off orders the turns
def test_odds_simulations_fight_the_battles_resolve_fights(defender):
    """The odds read the units from the input once and play each simulation on fresh
    copies sharing their look-ups: every simulation must still be the battle `resolve`
    fights with the same dice, whatever the simulations before it did."""
    battle = {**RULESET.sample_battle(3), "defender": defender}
    seeds = random.Random(11)
    wins: dict[str, int] = {"1": 0, "2": 0, "none": 0}
    lost: dict[str, int] = {"1": 0, "2": 0}
    for _ in range(40):
        outcome = RULESET.resolve(battle, Dice(random.Random(seeds.getrandbits(32))))
        wins[str(outcome.winner) if outcome.winner is not None else "none"] += 1
        for fate in outcome.units:
            lost[str(fate.player)] += fate.fate in ("destroyed", "retreated")
    odds = RULESET.odds(battle, simulations=40, seed=11)
    assert odds["win_probability"] == {k: v / 40 for k, v in wins.items()}
    assert odds["expected_units_lost"] == {k: v / 40 for k, v in lost.items()}


def test_a_tabletop_report_speaks_mobius_and_lying_about_blips_loses_the_army():
    """Punishment for Lying: "For purposes of campaigns, lying about Blips causes the
    whole army to go MIA" (R-MOB-28)."""
    battle = RULESET.sample_battle(1)
    assert "lied_about_blips" in RULESET.tabletop_schema()["properties"]
    out = RULESET.outcome_from_report(battle, {
        "winner": 1, "lied_about_blips": [2],
        "units": [{"id": 2, "models_lost": 3, "hp_lost": 2}, {"id": 3, "routed": True}]})
    fates = {f.unit: f for f in out.units}
    assert all(fates[u].fate == "destroyed" for u in (5, 6, 7, 8, 9))
    assert fates[2].fate == "damaged" and fates[2].state == {"hp": [1] * 5, "models": 5}
    assert fates[3].fate == "retreated"
    with pytest.raises(RulesetError, match="cannot be its winner"):
        RULESET.outcome_from_report(battle, {"winner": 2, "lied_about_blips": [2]})
    with pytest.raises(RulesetError, match="cannot lose 11"):
        RULESET.outcome_from_report(battle, {"winner": 1,
                                             "units": [{"id": 2, "models_lost": 11}]})


def test_the_replay_names_units_and_keeps_the_dice_and_the_document_round_trips():
    battle = RULESET.sample_battle(2)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    steps = RULESET.replay(battle, outcome.result, outcome.log)
    assert steps and all(step["text"] for step in steps)
    assert any("Royal Army squad" in s["text"] and s["rolls"] for s in steps)
    assert {s["phase"] for s in steps} >= {"movement", "action", "end"}
    assert RULESET.outcome(RULESET.document(outcome)).units == outcome.units


def test_tables_are_served_with_the_schema_and_the_settings():
    tables = RULESET.tables()
    assert tables["ruleset"] == "mobius" and tables["army_list_schema"] == A.SCHEMA
    assert tables["average"] == {"move": 6, "cqc": 3, "rc": 4, "pan": 6, "hp": 1, "def": 3}
    assert set(tables["options"]) == set(T.OPTIONS)
    for keyword in ("bomb", "combined", "indirect_fire", "instant_hit", "ignores_cover",
                    "tankbuster", "unwieldy"):
        assert keyword in tables["weapon_rules"]
    for keyword in ("independent", "climb", "furious_charge", "heavy_duty", "ambush",
                    "escapist", "fearless", "immortal", "terrifying", "teleport", "vanguard"):
        assert keyword in tables["unit_rules"]


def test_every_section_has_a_case_or_a_reason_and_the_book_is_big_enough():
    files = list(BOOK.glob("*.yaml"))
    assert len(files) >= 60
    covered = set()
    for path in files:
        case = yaml.safe_load(path.read_text())
        assert case["ruleset"] == "mobius" and case["rule"]["quote"]
        covered.add(case["rule"]["section"])
    listed = {s for s, _ in SECTIONS}
    assert covered <= listed, covered - listed
    assert {s for s, reason in SECTIONS if reason is None} <= covered


def test_flyers_are_never_charged_from_the_ground_and_fly_over_terrain():
    """Combat in the Air: "Units in Flight may only be targeted for Ranged Commands and
    Attacks, unless by other Models that are in the air"."""
    for seed in range(20):
        field = Battlefield(territory=1, defender=2, seed=seed, sides={
            1: [_unit(1, 1, "wolf_warriors"), _unit(2, 1, "wolf_chieftain")],
            2: [_unit(3, 2, "buzz_bombers")]})
        battle = RULESET.forces(field)
        outcome = RULESET.resolve(battle, seeded_dice(battle))
        log = outcome.log
        for i, step in enumerate(log):  # only a flyer that fled, landed and is still
            if step.get("action") == "charge" and step["target"] == 3:  # panicked
                assert any(e.get("action") == "flee" and e["unit"] == 3
                           and step["round"] - e["round"] in (0, 1) for e in log[:i])
        assert not [s for s in outcome.log if s.get("action") == "dangerous" and s["unit"] == 3]


def test_a_compulsory_duel_settles_two_variants_before_the_battle():
    """Named Characters: two sides with a Sonic: one of them leaves the battle."""
    field = Battlefield(territory=1, defender=2, seed=3, sides={
        1: [_unit(1, 1, "sonic"), _unit(2, 1, "acorn_royal_army")],
        2: [_unit(3, 2, "sonic"), _unit(4, 2, "egg_pawns")]})
    battle = RULESET.forces(field)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    assert outcome.log[0]["action"] == "duel"
    fates = {f.unit: f.fate for f in outcome.units}
    assert "destroyed" in (fates[1], fates[3])


def test_a_vehicle_fires_its_heavy_cannon_after_a_standard_move_but_only_one_weapon():
    """Vehicles, Shooting: "Vehicles fire all Weapons as if they had remained Stationary
    ... Standard Move 1 Weapon"."""
    field = Battlefield(territory=1, defender=2, seed=5, options={"mobius_deploy_gap": 52},
                        sides={1: [_unit(1, 1, "acorn_cuirassier")],
                               2: [_unit(2, 2, "egg_pawns")]})
    battle = RULESET.forces(field)
    battle["terrain"] = ["open"] * len(battle["terrain"])
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    first = [s for s in outcome.log if s["round"] == 1 and s.get("unit") == 1]
    assert [s["action"] for s in first[:2]] == ["standard_move", "fire"]
    assert first[1]["weapon"] == "tank_cannon"
    assert len([s for s in first if s["action"] == "fire"]) == 1


def test_wolves_howl_once_when_no_charge_reaches():
    """Cry of the Wolf (R-MOB-25): a unit skips its turn for a War Howl, once a battle."""
    howled = 0
    for seed in range(10):
        field = Battlefield(territory=1, defender=2, seed=seed,
                            options={"mobius_deploy_gap": 36},
                            sides={1: [_unit(1, 1, "wolf_warriors")],
                                   2: [_unit(2, 2, "gun_soldiers")]})
        battle = RULESET.forces(field)
        outcome = RULESET.resolve(battle, seeded_dice(battle))
        howls = [s for s in outcome.log if s.get("action") == "war_howl"]
        assert len(howls) <= 1
        if howls:
            howled += 1
            same_turn = [s for s in outcome.log if s["round"] == howls[0]["round"]
                         and s.get("unit") == 1 and s is not howls[0]
                         and s.get("phase") in ("movement", "action", "hero")]
            assert same_turn == []
    assert howled


def test_without_a_defender_the_players_roll_off_and_three_sides_fight():
    """Basic Gameplay: "every Player rolls a D6 and the highest roller decides who goes
    first" (R-MOB-4); three sides replay bit for bit too."""
    field = Battlefield(territory=1, defender=None, seed=8, sides={
        1: [_unit(1, 1, "gun_soldiers")], 2: [_unit(2, 2, "egg_pawns")],
        3: [_unit(3, 3, "wolf_warriors")]})
    battle = RULESET.forces(field)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    assert outcome == RULESET.resolve(battle, seeded_dice(battle))
    assert outcome.log[0]["action"] == "roll_off" and outcome.log[0]["rolls"]
    assert len(outcome.units) == 3


def test_faction_abilities_reach_the_engine():
    """"Factions Summarised": every unit of a faction carries its abilities; Stand Together
    (R-MOB-21) and Hatred (R-MOB-26) change the roll to hit."""
    field = Battlefield(territory=1, defender=2, seed=1, sides={
        1: [_unit(1, 1, "acorn_royal_army"), _unit(2, 1, "dingo_troopers")],
        2: [_unit(3, 2, "legionnaires"), _unit(4, 2, "echidna_security")]})
    b = engine.build(RULESET.forces(field), Dice(0))
    acorn, dingo, legion, echidna = (b.unit(i) for i in (1, 2, 3, 4))
    assert {"in_the_name_of_freedom", "stand_together"} <= acorn.rules
    assert "steel_skin" in legion.rules and "hatred_echidnas" in dingo.rules
    rifle = acorn.ranged()[0]
    acorn.movement = "stationary"
    assert engine._hit_mod(b, acorn, legion, rifle, overwatch=False) == 1
    acorn.movement = "standard"
    assert engine._hit_mod(b, acorn, legion, rifle, overwatch=False) == 0
    gun = dingo.ranged()[0]
    assert engine._hit_mod(b, dingo, echidna, gun, overwatch=False) == 1
    assert engine._hit_mod(b, dingo, legion, gun, overwatch=True) == -1


def test_a_blast_weapon_multiplies_its_attacks_by_the_members_in_its_radius():
    """Blast (X): "the AK of each Attack being multiplied by the number of members within
    the radius" (R-MOB-30: min(models left, 2X + 1) on one axis)."""
    mortar = {"key": "mortar", "name": "Mortar", "rng": 48, "st": 5, "ak": 1, "dam": 1,
              "type": "heavy", "blast": 2}
    gunner = {"key": "mortar_team", "name": "Mortar team", "rank": "support",
              "type": "infantry", "points": 40, "models": 1, "move": 6, "cqc": 3, "rc": 4,
              "pan": 7, "hp": 2, "def": 3, "weapons": [mortar]}
    options = {"mobius_army_lists": [{"faction": "gun", "name": "Mortars",
                                      "units": [gunner]}]}
    entry = next(e for e in RULESET.catalogue(options=options) if e.key == "mortar_team")
    field = Battlefield(territory=1, defender=1, seed=2, sides={
        1: [FieldUnit(id=1, player=1, key="mortar_team", name="Mortar team",
                      profile=dict(entry.profile))],
        2: [_unit(2, 2, "egg_pawns")]})
    battle = RULESET.forces(field)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    shots = [s for s in outcome.log if s.get("unit") == 1 and s.get("action") == "fire"]
    assert shots and shots[0]["pool"] == 5  # 1 AK x (2 x 2 + 1) of the 10 pawns


def test_troops_ride_in_their_transport_untargeted_until_they_get_out():
    """Transport: "Units with Transport assigned to them must begin inside it"; "the Unit
    cannot be targeted until either the Vehicle is destroyed or they leave" (R-MOB-31)."""
    got_out = 0
    for seed in range(15):
        field = Battlefield(territory=1, defender=2, seed=seed,
                            options={"mobius_deploy_gap": 48},
                            sides={1: [_unit(1, 1, "gun_soldiers"), _unit(2, 1, "gun_apc")],
                                   2: [_unit(3, 2, "dingo_troopers"),
                                       _unit(4, 2, "dingo_tank")]})
        battle = RULESET.forces(field)
        log = RULESET.resolve(battle, seeded_dice(battle)).log
        assert log[0]["action"] == "embarked" and log[0]["unit"] == 1
        leave = next((i for i, s in enumerate(log) if s.get("unit") == 1
                      and s.get("action") in ("disembark", "bail_out")), len(log))
        got_out += leave < len(log)
        assert not [s for s in log[:leave] if s.get("target") == 1]
        assert not [s for s in log[1:leave] if s.get("unit") == 1]
    assert got_out


def test_ambushers_wait_in_reserve_and_spring_12_inches_from_the_enemy():
    """Ambush: "may deploy anywhere on the battlefield, providing it's at least 12" away
    from any enemy Units" (R-MOB-34); in Reserve they "cannot attack or be targeted"."""
    field = Battlefield(territory=1, defender=2, seed=1, sides={
        1: [_unit(1, 1, "wolf_chieftain"), _unit(3, 1, "wolf_hunters")],
        2: [_unit(20, 2, "gun_commander"), _unit(21, 2, "gun_soldiers")]})
    battle = RULESET.forces(field)
    log = RULESET.resolve(battle, seeded_dice(battle)).log
    assert log[0]["action"] == "reserve" and log[0]["unit"] == 3
    spring = next(i for i, s in enumerate(log) if s.get("action") == "ambush")
    assert log[spring]["round"] == 2
    assert not [s for s in log[1:spring] if 3 in (s.get("unit"), s.get("target"))]


def test_vanguard_deploys_18_inches_from_the_nearest_enemy():
    """Vanguard: "they may Deploy anywhere on the board, providing they are at least 18"
    away from the nearest enemy Unit"."""
    scouts = copy.deepcopy(GOOD_LIST)
    scouts["units"][0].update(key="wolf_scouts", rules=["vanguard"])
    options = {"mobius_army_lists": [scouts], "mobius_deploy_gap": 40}
    entry = next(e for e in RULESET.catalogue(options=options) if e.key == "wolf_scouts")
    field = Battlefield(territory=1, defender=2, seed=1, options=options, sides={
        1: [FieldUnit(id=1, player=1, key="wolf_scouts", name="Scouts",
                      profile=dict(entry.profile))],
        2: [_unit(2, 2, "gun_soldiers")]})
    battle = RULESET.forces(field)
    b = engine.build(battle, Dice(0))
    assert abs(b.unit(1).x - b.unit(2).x) == 18


def _arrivals(outcome, side_units):
    return [(s["round"], s["unit"]) for s in outcome.log
            if s.get("action") == "from_reserve" and s["unit"] in side_units]


def test_reinforcements_come_from_reserve_three_a_turn_with_the_commander():
    """Reserves: "the Active Player may declare one Unit from their Reserve"; "If the
    Army's Commander is present ... up to two additional Units from Reserve per Turn"
    (R-MOB-36: the campaign's reinforcements are the Reserve)."""
    def late(uid, key):
        return FieldUnit(**{**_unit(uid, 1, key).__dict__, "reinforcement": True})

    reserves = [late(i, "acorn_royal_army") for i in (2, 3, 4, 5)]
    led = Battlefield(territory=1, defender=2, seed=3, sides={
        1: [_unit(1, 1, "acorn_officer"), *reserves], 2: [_unit(9, 2, "egg_pawns")]})
    battle = RULESET.forces(led)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    came = _arrivals(outcome, {2, 3, 4, 5})
    assert [u for r, u in came if r == 1] == [2, 3, 4]
    assert came[3:] == [(2, 5)]
    alone = Battlefield(territory=1, defender=2, seed=3, sides={
        1: [late(2, "acorn_royal_army"), late(3, "acorn_royal_army"),
            _unit(6, 1, "acorn_royal_army")], 2: [_unit(9, 2, "egg_walker")]})
    battle = RULESET.forces(alone)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    came = _arrivals(outcome, {2, 3})
    assert came[0] == (1, 2)
    assert len({r for r, _ in came}) == len(came)  # one a turn without a Commander


class _Posted(dict):
    def getlist(self, key):
        value = self.get(key)
        return value if isinstance(value, list) else []


def test_the_tabletop_form_speaks_mobius_and_reads_back_into_an_outcome():
    """The battle page's tabletop form is drawn from `tabletop_schema`: models lost, HP
    lost, routed, destroyed per unit, Victory Points per player."""
    from battles.tabletop_form import fields, parse

    battle = RULESET.sample_battle(2)
    form = fields(RULESET.tabletop_schema(), battle, {1: "alice", 2: "bob"})
    names = {i.name for block in form.units for i in block.inputs}
    assert {"u2.models_lost", "u2.hp_lost", "u2.routed", "u2.destroyed"} <= names
    assert {i.name for i in form.top} == {"victory_points.1", "victory_points.2"}
    report = parse(form, _Posted({"winner": "1", "u6.destroyed": "on", "u2.models_lost": "4",
                                  "victory_points.1": "3"}))
    outcome = RULESET.outcome_from_report(battle, report)
    fates = {f.unit: f for f in outcome.units}
    assert fates[6].fate == "destroyed" and fates[2].state["models"] == 6
    assert outcome.winner == 1 and outcome.result["victory_points"] == {"1": 3}


def test_replays_do_not_depend_on_the_process_string_hashing():
    """A stored battle replays bit for bit in another process (sets of names never order
    the dice)."""
    import os
    import subprocess
    import sys

    script = ("import hashlib, json\n"
              "from battles.rulesets.mobius.ruleset import RULESET, seeded_dice\n"
              "docs = [RULESET.document(RULESET.resolve(b, seeded_dice(b)))\n"
              "        for b in (RULESET.sample_battle(s) for s in range(10))]\n"
              "print(hashlib.sha256(json.dumps(docs, sort_keys=True, default=str)"
              ".encode()).hexdigest())\n")
    root = Path(__file__).parents[3]
    digests = {subprocess.run([sys.executable, "-c", script], cwd=root, check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(digests) == 1 and len(next(iter(digests)).strip()) == 64


def test_a_joined_officer_is_never_targeted_while_his_squad_stands():
    """Independents: "an enemy trying to target an Independent must get past the whole
    Unit first!" (R-MOB-38)."""
    for seed in range(40):
        battle = RULESET.sample_battle(seed)
        log = RULESET.resolve(battle, seeded_dice(battle)).log
        assert log[0]["action"] == "joins" and (log[0]["unit"], log[0]["target"]) == (1, 2)
        alone = next((i for i, s in enumerate(log) if s.get("action") == "alone"
                      and s.get("unit") == 1), len(log))
        assert not [s for s in log[:alone] if s.get("target") == 1]
        assert not [s for s in log[:alone] if s.get("unit") == 1
                    and s.get("action") in ("standard_move", "rapid_move", "charge",
                                            "push_it", "flee")]
