"""The one-page ruleset as a pure engine: whole battles replay bit for bit from their
seed, end, account for every unit, and speak in the seed's terms (seed 001)."""

from __future__ import annotations

import random

import pytest

from battles.rulesets.base import Battlefield, FieldUnit, RulesetError, XpAward
from battles.rulesets.onepage import tables as T
from battles.rulesets.onepage.ruleset import RULESET, SECTIONS, seeded_dice
from campaign.rules.dice import Dice, ForcedDice


def test_a_hundred_seeded_battles_replay_bit_for_bit_and_account_for_every_unit():
    for seed in range(100):
        battle = RULESET.sample_battle(seed)
        first = RULESET.resolve(battle, seeded_dice(battle))
        again = RULESET.resolve(battle, seeded_dice(battle))
        assert first == again
        ids = sorted(u["id"] for units in battle["sides"].values() for u in units)
        assert sorted(f.unit for f in first.units) == ids
        assert 1 <= first.rounds <= T.OPTIONS["onepage_max_turns"]
        assert first.winner in (1, 2, None)
        for fate in first.units:
            if fate.fate == "destroyed":
                assert fate.state["figures"] == 0 or fate.state.get("damage") is not None


def test_every_die_goes_through_the_seam():
    battle = RULESET.sample_battle(4)
    counting = Dice(random.Random(4))
    RULESET.resolve(battle, counting)
    assert counting.count > 10
    with pytest.raises(Exception, match="exhausted"):
        RULESET.resolve(battle, ForcedDice([3, 3, 3]))


def test_forces_deploy_the_defender_on_its_line_with_cover_from_its_buildings():
    entry = next(e for e in RULESET.catalogue() if e.key == "rifle_squad")
    unit = FieldUnit(id=7, player=1, key="rifle_squad", name="Reds", profile=entry.profile,
                     state={"training": "veteran", "figures": 4, "battles": 3})
    other = FieldUnit(id=8, player=2, key="rifle_squad", name="Blues",
                      profile=entry.profile, state=RULESET.initial_state("rifle_squad"))
    data = RULESET.forces(Battlefield(territory=3, defender=1, sides={2: [other], 1: [unit]},
                                      buildings=[{"kind": "bunker"}], seed=9))
    assert list(data["sides"]) == ["1", "2"]  # the defender first
    red = data["sides"]["1"][0]
    assert (red["x"], red["figures"], red["training"], red["figures_max"]) == (0, 4,
                                                                              "veteran", 6)
    assert data["sides"]["2"][0]["x"] == data["gap_cm"] == 36
    assert data["terrain"][0] == "hard"  # R-OP-5: a bunker on the territory
    assert data == RULESET.forces(Battlefield(territory=3, defender=1,
                                              sides={2: [other], 1: [unit]},
                                              buildings=[{"kind": "bunker"}], seed=9))


def test_a_unit_without_figures_cannot_be_fielded():
    entry = next(e for e in RULESET.catalogue() if e.key == "rifle_squad")
    dead = FieldUnit(id=1, player=1, key="rifle_squad", name="Gone", profile=entry.profile,
                     state={"figures": 0})
    with pytest.raises(RulesetError, match="no figures"):
        RULESET.forces(Battlefield(territory=1, defender=1, sides={1: [dead]}))


def test_the_catalogue_is_cheapest_first_with_positive_prices():
    prices = [e.price for e in RULESET.catalogue()]
    assert prices == sorted(prices) and all(p > 0 for p in prices)
    assert {e.kind for e in RULESET.catalogue()} == {"infantry", "vehicle"}


def test_veterancy_climbs_and_never_falls():
    state = {"training": "green", "battles": 0}
    levels = []
    for _ in range(7):
        state = RULESET.veterancy(state, [XpAward(unit=1, kind="battle_survived")])
        levels.append(state["training"])
    assert levels == ["seasoned", "seasoned", "veteran", "veteran", "veteran", "elite",
                      "elite"]
    assert RULESET.veterancy({"training": "elite", "battles": 0}, [])["training"] == "elite"
    custom = RULESET.veterancy({"training": "green", "battles": 0},
                               [XpAward(unit=1, kind="battle_survived")],
                               {"onepage_seasoned_after": 2})
    assert custom["training"] == "green"


def test_repair_prices_lost_figures_and_vehicle_damage():
    tank = next(e for e in RULESET.catalogue() if e.key == "light_tank")
    cost, state = RULESET.repair(tank.profile, {"figures": 1, "damage": ["immobilised"]})
    assert (cost, state["damage"]) == (34, [])  # a quarter of 133, rounded up
    assert RULESET.repair(tank.profile, {"figures": 1, "damage": []})[0] == 0


def test_odds_are_reproducible_and_sum_to_one():
    battle = RULESET.sample_battle(1)
    odds = RULESET.odds(battle, simulations=40, seed=5)
    assert odds == RULESET.odds(battle, simulations=40, seed=5)
    assert abs(sum(odds["win_probability"].values()) - 1) < 1e-9
    assert set(odds["expected_units_lost"]) == {"1", "2"}


def test_a_tabletop_report_speaks_of_figures_and_vehicle_damage():
    battle = RULESET.sample_battle(0)
    outcome = RULESET.outcome_from_report(battle, {
        "winner": 1, "units": [{"id": 3, "figures_lost": 2},
                               {"id": 2, "vehicle_damage": ["immobilised"]},
                               {"id": 4, "figures_lost": 3}]})
    fates = {f.unit: f for f in outcome.units}
    assert (fates[3].fate, fates[3].state["figures"]) == ("damaged", 4)
    assert (fates[2].fate, fates[2].state["damage"]) == ("damaged", ["immobilised"])
    assert fates[4].fate == "destroyed"
    assert fates[1].fate == "intact"
    with pytest.raises(RulesetError, match="cannot lose"):
        RULESET.outcome_from_report(battle, {"winner": 1,
                                             "units": [{"id": 3, "figures_lost": 7}]})
    with pytest.raises(RulesetError, match="vehicle"):
        RULESET.outcome_from_report(battle, {"winner": 1,
                                             "units": [{"id": 2, "figures_lost": 1}]})
    with pytest.raises(RulesetError, match="did not fight"):
        RULESET.outcome_from_report(battle, {"winner": 1, "units": [{"id": 99}]})


def test_the_replay_names_units_and_keeps_the_dice():
    battle = RULESET.sample_battle(2)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    steps = RULESET.replay(battle, outcome.result, outcome.log)
    assert steps and all(step["text"] for step in steps)
    assert any("Rifle squad" in s["text"] and s["rolls"] for s in steps)
    assert RULESET.outcome(RULESET.document(outcome)).units == outcome.units


def test_every_section_of_the_page_has_a_case():
    from pathlib import Path

    import yaml

    book = Path(__file__).parents[2] / "casebook" / "onepage"
    covered = {yaml.safe_load(p.read_text())["rule"]["section"] for p in book.glob("*.yaml")}
    assert set(SECTIONS) - covered == set()
    assert len(list(book.glob("*.yaml"))) >= 40
