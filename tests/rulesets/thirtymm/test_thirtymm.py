"""30 Minute Missions as a pure engine (seed 002): seeded battles replay bit for bit, end
within the turn limit, account for every unit, and speak in sections, AP and victory
points; datasheets are checked with messages a person understands."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

from battles.rulesets.base import Battlefield, FieldUnit, RulesetError, XpAward
from battles.rulesets.thirtymm import datasheets as D
from battles.rulesets.thirtymm import tables as T
from battles.rulesets.thirtymm.ruleset import RULESET, SECTIONS, layout, seeded_dice
from campaign.rules.dice import Dice


def _unit(uid: int, player: int, key: str, **state: object) -> FieldUnit:
    sheet = next(dict(s) for s in D.STARTERS if s["key"] == key)
    return FieldUnit(id=uid, player=player, key=key, name=f"{sheet['name']} {uid}",
                     profile=sheet, state={**RULESET.initial_state(key), **state})


def test_a_hundred_seeded_battles_replay_bit_for_bit():
    for seed in range(100):
        battle = RULESET.sample_battle(seed)
        first = RULESET.resolve(battle, seeded_dice(battle))
        assert first == RULESET.resolve(battle, seeded_dice(battle))
        ids = sorted(u["id"] for units in battle["sides"].values() for u in units)
        assert sorted(f.unit for f in first.units) == ids
        assert first.rounds <= T.OPTIONS["thirtymm_max_rounds"]
        assert first.winner in (1, 2, None)
        assert first.end_reason in ("turn_limit", "one_side_left")


def test_every_die_goes_through_the_seam():
    """The log names every d8 rolled: the mission, each AP roll, attack and evasion."""
    battle = RULESET.sample_battle(8)
    counting = Dice(random.Random(8))
    outcome = RULESET.resolve(battle, counting)
    rolled = sum((step.get("action") == "mission")
                 + (step.get("ap_roll") is not None) + (step.get("attack") is not None)
                 + (step.get("evasion") is not None)
                 for step in outcome.log)
    assert rolled == counting.count > 0


def test_the_board_is_the_seeds_202_hexes_with_a_river_and_the_buildings():
    terrain, structures = layout(4, [{"id": 7, "kind": "factory"}])
    assert len(terrain) == 202
    assert {c for c, r, c_, _e in terrain if r == T.RIVER_ROW for c in [c_]} == {"light_blue"}
    assert layout(4, [{"id": 7, "kind": "factory"}]) == (terrain, structures)
    assert structures == [{"id": 7, "kind": "factory", "at": [T.DEPLOYMENT_DEPTH, 3],
                           "elevation": 1, "defense": 20}]
    # "different colors need to be placed at least 1 hex apart"
    from campaign.rules import hexgrid as H
    colour = {H.to_axial(c, r): k for c, r, k, _e in terrain if k not in ("grey",)}
    for h, k in colour.items():
        if k == "light_blue":
            continue
        assert all(colour.get(n, k) in (k, "light_blue") for n in H.neighbours(h)), h


def test_deployment_keeps_to_the_first_three_hexes_of_each_short_edge():
    battle = RULESET.sample_battle(0)
    defender, attacker = battle["sides"]["2"], battle["sides"]["1"]
    assert all(u["at"][0] < T.DEPLOYMENT_DEPTH for u in defender)
    assert all(u["at"][0] >= T.row_length(u["at"][1]) - T.DEPLOYMENT_DEPTH for u in attacker)
    boat = next(u for u in defender if u["type"] == "aquatic")
    assert boat["at"][1] == T.RIVER_ROW
    assert battle["engagement"] == "operation"  # 1700 < 1800 (R-30-11)


def test_a_squad_over_the_limit_leaves_units_in_reserve():
    units = [_unit(1, 1, "scout_drone"), _unit(2, 1, "scout_drone"), _unit(3, 1, "gunship")]
    battle = RULESET.forces(Battlefield(
        territory=1, defender=2, sides={1: units, 2: [_unit(9, 2, "scout_drone")]},
        options={"thirtymm_engagement": "scouting"}))
    # 200 + 200 < 600; the gunship's 450 more would not be (R-30-11)
    assert battle["limit"] == 600 and battle["reserve"]["1"] == [3]
    assert [u["id"] for u in battle["sides"]["1"]] == [1, 2]
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    fates = {f.unit: f for f in outcome.units}
    assert fates[3].fate == "intact" and fates[3].detail["reserve"]
    assert not any(x.unit == 3 for x in outcome.xp)


def test_a_side_that_can_field_nothing_loses_without_a_shot():
    """A 600-cost mech is not under Scouting's 600: it waits, and the drone holds."""
    battle = RULESET.forces(Battlefield(
        territory=1, defender=2, sides={1: [_unit(1, 1, "standard_mech")],
                                        2: [_unit(9, 2, "scout_drone")]},
        options={"thirtymm_engagement": "scouting"}))
    assert battle["sides"]["1"] == [] and battle["reserve"]["1"] == [1]
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    assert outcome.winner == 2 and {f.unit: f.fate for f in outcome.units} == {
        1: "intact", 9: "intact"}


def test_a_destroyed_unit_cannot_be_fielded():
    dead = _unit(1, 1, "standard_mech", sections={"torso": 0})
    with pytest.raises(RulesetError, match="destroyed and cannot fight"):
        RULESET.forces(Battlefield(territory=1, defender=1, sides={1: [dead]}))


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.pop("sections"), "'sections' is missing"),
    (lambda s: s.update(accuracy=1), "accuracy must be between 2 and 8"),
    (lambda s: s.update(type="tank"), "type must be one of mech"),
    (lambda s: s["sections"].append({"key": "x", "kind": "wing", "durability": 1,
                                     "defense": 1}), "sections[6].kind must be one of"),
    (lambda s: s["weapons"][0].update(section="tail"), "which the datasheet does not have"),
    (lambda s: s.update(deployment_cost=-5), "deployment_cost must be between 1 and 5000"),
    (lambda s: s.update(type="terrestrial"), "Cockpit Unit Section in place of a Torso"),
])
def test_a_bad_datasheet_is_refused_with_a_sentence(change, message):
    sheet = copy.deepcopy(D.STARTERS[0])
    change(sheet)
    with pytest.raises(RulesetError, match=message.replace("[", r"\[").replace("]", r"\]")):
        D.validate(sheet)


def test_every_starter_meets_its_type_and_lands_in_its_class():
    kinds = {s["type"] for s in D.STARTERS}
    assert kinds == set(T.UNIT_TYPES)
    assert any(s.get("drone") == "ai" for s in D.STARTERS)
    for sheet in D.STARTERS:
        assert D.validate(sheet)["key"] == sheet["key"]


def test_imported_datasheets_join_the_catalogue_and_bad_ones_are_refused():
    sheet = {**copy.deepcopy(D.STARTERS[0]), "key": "brawler", "name": "Brawler",
             "deployment_cost": 700}
    options = {"thirtymm_datasheets": [sheet], "thirtymm_cost_per_sc": 7}
    RULESET.check_options(options)
    entry = next(e for e in RULESET.catalogue(options=options) if e.key == "brawler")
    assert entry.price == 100 and entry.ruling.startswith("imported")
    with pytest.raises(RulesetError, match="already used by the starter set"):
        RULESET.check_options({"thirtymm_datasheets": [D.STARTERS[0]]})
    with pytest.raises(RulesetError, match="keys must be different"):
        RULESET.check_options({"thirtymm_datasheets": [sheet, sheet]})
    with pytest.raises(RulesetError, match="thirtymm_engagement"):
        RULESET.check_options({"thirtymm_engagement": "conflagration"})


def test_veterancy_climbs_the_rank_ladder_and_rank_lowers_the_stats():
    state = RULESET.initial_state("standard_mech")
    ranks = []
    for _ in range(9):
        state = RULESET.veterancy(state, [XpAward(unit=1, kind="battle_survived")])
        ranks.append(state["rank"])
    assert ranks == ["rookie", "regular", "regular", "regular", "veteran", "veteran",
                     "veteran", "veteran", "ace"]
    veteran = RULESET.forces(Battlefield(territory=1, defender=1, sides={
        1: [_unit(1, 1, "standard_mech", rank="veteran")]}))["sides"]["1"][0]
    assert veteran["stats"] == {"accuracy": 4, "assault": 4, "evasion": 6}


def test_repair_costs_the_share_of_durability_lost():
    profile = next(e.profile for e in RULESET.catalogue() if e.key == "standard_mech")
    cost, fixed = RULESET.repair(profile, {"sections": {"torso": 0, "left_arm": 5}})
    # 120 SC x (30 + 10) / 110 durability, rounded up
    assert (cost, fixed["sections"]) == (44, {})


def test_odds_are_reproducible_and_sum_to_one():
    battle = RULESET.sample_battle(3)
    odds = RULESET.odds(battle, simulations=20, seed=2)
    assert odds == RULESET.odds(battle, simulations=20, seed=2)
    assert abs(sum(odds["win_probability"].values()) - 1) < 1e-9
    with pytest.raises(RulesetError):
        RULESET.odds(battle, simulations=0, seed=1)


def test_a_tabletop_report_speaks_of_sections_and_ap():
    battle = RULESET.sample_battle(0)
    schema = RULESET.tabletop_schema()
    assert {"sections_destroyed", "damage", "ap_stored"} <= set(
        schema["properties"]["units"]["items"]["properties"])
    outcome = RULESET.outcome_from_report(battle, {"winner": 2, "units": [
        {"id": 1, "sections_destroyed": ["left_leg"], "damage": {"torso": 12}},
        {"id": 6, "sections_destroyed": ["cockpit"]}, {"id": 5, "ap_stored": 9}]})
    fates = {f.unit: f for f in outcome.units}
    assert fates[1].fate == "damaged"
    assert fates[1].state["sections"] == {"left_leg": 0, "torso": 18}
    assert fates[6].fate == "destroyed"
    assert fates[5].fate == "intact" and fates[5].detail["ap_stored"] == 9
    with pytest.raises(RulesetError, match="has no section 'wing'"):
        RULESET.outcome_from_report(battle, {"winner": 2, "units": [
            {"id": 1, "sections_destroyed": ["wing"]}]})
    with pytest.raises(RulesetError, match="did not fight"):
        RULESET.outcome_from_report(battle, {"winner": 2, "units": [{"id": 99}]})


def test_the_replay_names_units_and_shows_the_dice():
    battle = RULESET.sample_battle(5)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    steps = RULESET.replay(battle, outcome.result, outcome.log)
    assert any(s["rolls"] and "Standard mech" in s["text"] for s in steps)
    assert steps[0]["text"].startswith("Operation: the mission is")
    assert RULESET.outcome(RULESET.document(outcome)).units == outcome.units


def test_damage_comes_back_as_campaign_state_and_destroyed_units_are_lost():
    for seed in range(40):
        battle = RULESET.sample_battle(seed)
        outcome = RULESET.resolve(battle, seeded_dice(battle))
        for fate in outcome.units:
            if fate.fate == "damaged":
                assert fate.state["sections"] and all(
                    v >= 0 for v in fate.state["sections"].values())
            if fate.fate == "destroyed":
                assert fate.detail["condition"] == "destroyed"
                assert not any(x.unit == fate.unit for x in outcome.xp)


def test_every_section_has_a_case():
    book = Path(__file__).parents[2] / "casebook" / "thirtymm"
    files = list(book.glob("*.yaml"))
    covered = {yaml.safe_load(p.read_text())["rule"]["section"] for p in files}
    assert {s for s, reason in SECTIONS if reason is None} - covered == set()
    assert len(files) >= 50
