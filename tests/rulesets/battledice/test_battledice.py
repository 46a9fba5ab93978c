"""The battle-dice ruleset as a pure engine (seed 004): seeded battles replay bit for bit,
end, account for every unit, and speak in symbols, hits, retreats and void shields."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from battles.rulesets.base import Battlefield, FieldUnit, RulesetError, XpAward
from battles.rulesets.battledice import tables as T
from battles.rulesets.battledice.ruleset import RULESET, SECTIONS, seeded_dice
from campaign.rules.dice import Dice


def test_a_hundred_seeded_battles_replay_bit_for_bit():
    for seed in range(100):
        battle = RULESET.sample_battle(seed)
        first = RULESET.resolve(battle, seeded_dice(battle))
        assert first == RULESET.resolve(battle, seeded_dice(battle))
        ids = sorted(u["id"] for units in battle["sides"].values() for u in units)
        assert sorted(f.unit for f in first.units) == ids
        assert first.rounds <= T.OPTIONS["battledice_max_turns"]
        assert first.winner in (1, 2, None)


def test_every_symbol_is_a_die_through_the_seam():
    battle = RULESET.sample_battle(8)
    counting = Dice(random.Random(8))
    outcome = RULESET.resolve(battle, counting)
    rolled = sum(len(step.get("symbols", [])) + len(step.get("shields", []))
                 for step in outcome.log)
    assert rolled == counting.count > 0


def test_deployment_puts_sides_on_their_home_rows_and_attaches_the_leader():
    battle = RULESET.sample_battle(0)
    defender = battle["sides"]["2"]
    attacker = battle["sides"]["1"]
    assert {u["at"][1] for u in defender} <= {0, 1}
    assert {u["at"][1] for u in attacker} <= {T.ROWS - 1, T.ROWS - 2}
    leader = next(u for u in attacker if u["key"] == "light_leader")
    host = next(u for u in attacker if u["id"] == leader["leader_of"])
    assert leader["at"] == host["at"]
    assert battle["deck"] == RULESET.sample_battle(0)["deck"]


def test_units_with_no_models_cannot_be_fielded():
    gone = FieldUnit(id=1, player=1, key="light_infantry", name="Gone",
                     state={"models": 0})
    with pytest.raises(RulesetError, match="no models"):
        RULESET.forces(Battlefield(territory=1, defender=1, sides={1: [gone]}))


def test_bad_faces_setting_is_refused():
    unit = FieldUnit(id=1, player=1, key="light_infantry", name="A",
                     state=RULESET.initial_state("light_infantry"))
    with pytest.raises(RulesetError, match="six symbols"):
        RULESET.forces(Battlefield(territory=1, defender=1, sides={1: [unit]},
                                   options={"battledice_faces": ["target"] * 5}))


def test_veterancy_ranks_and_repairs():
    state = RULESET.initial_state("medium_infantry")
    for _ in range(6):
        state = RULESET.veterancy(state, [XpAward(unit=1, kind="battle_survived")])
    assert (state["battles"], state["rank"]) == (6, 2)
    profile = next(e.profile for e in RULESET.catalogue() if e.key == "heavy_vehicle")
    cost, fixed = RULESET.repair(profile, {"models": 1, "damage": 2})
    assert (cost, fixed["damage"]) == (46, 0)  # 68 x 2 / 3, rounded up


def test_odds_reproducible():
    battle = RULESET.sample_battle(3)
    odds = RULESET.odds(battle, simulations=30, seed=2)
    assert odds == RULESET.odds(battle, simulations=30, seed=2)
    assert abs(sum(odds["win_probability"].values()) - 1) < 1e-9


def test_a_tabletop_report_speaks_of_hits_and_void_shields():
    battle = RULESET.sample_battle(0)
    outcome = RULESET.outcome_from_report(battle, {"winner": 2, "units": [
        {"id": 1, "hits": 2}, {"id": 6, "void_shields_lost": 2},
        {"id": 2, "hits": 3}, {"id": 4, "retreated_off": True}]})
    fates = {f.unit: f for f in outcome.units}
    assert (fates[1].fate, fates[1].state["models"]) == ("damaged", 2)
    assert (fates[6].fate, fates[6].state["damage"]) == ("damaged", 2)
    assert fates[2].fate == "destroyed"
    assert fates[4].fate == "retreated"
    with pytest.raises(RulesetError, match="no God Machine"):
        RULESET.outcome_from_report(battle, {"winner": 2,
                                             "units": [{"id": 1, "void_shields_lost": 1}]})


def test_the_replay_names_units_and_shows_the_symbols():
    battle = RULESET.sample_battle(5)
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    steps = RULESET.replay(battle, outcome.result, outcome.log)
    assert any(s["rolls"] and "Medium infantry" in s["text"] for s in steps)
    assert RULESET.outcome(RULESET.document(outcome)).units == outcome.units


def test_every_section_has_a_case():
    book = Path(__file__).parents[2] / "casebook" / "battledice"
    files = list(book.glob("*.yaml"))
    covered = {yaml.safe_load(p.read_text())["rule"]["section"] for p in files}
    assert {s for s, _ in SECTIONS} - covered == set()
    assert len(files) >= 25
