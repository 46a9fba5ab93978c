"""Issue 26: a battle log a person reads. Every ruleset's log entry becomes a sentence
that says whose unit acts, with the raw dice apart (folded on the page), and never an id
or a `key: value` pair."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battles.rulesets.base import RulesetBase, RulesetError
from battles.rulesets.registry import all_rulesets, find_ruleset
from battles.rulesets.unlimit3d8.narrate import SENTENCES
from campaign.rules.dice import Dice
from tests.pages.test_readable_text import debug_text

ENGINE = Path(__file__).resolve().parents[2] / "battles/rulesets/unlimit3d8/engine"


def _engine_events() -> set[str]:
    events = set()
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        events |= set(re.findall(r'state\.record\("([a-z_]+)"', text))
        events |= set(re.findall(r'"event": "([a-z_]+)"', text))
    return events


def test_every_event_the_engine_logs_has_a_sentence() -> None:
    events = _engine_events()
    assert {"move", "ranged_attack", "damage", "roll", "end"} <= events  # the scan works
    assert events - set(SENTENCES) == set()


def _names(battle_input: dict) -> dict[str, dict[str, str]]:
    owners = {"1": "alice", "2": "bob"}
    units = {str(u["id"]): f"{owners[side]}'s {str(u['vehicle']).capitalize()} {u['id']}"
             for side, group in battle_input["sides"].items() for u in group}
    return {"unit": units, "side": owners, "building": {}}


def test_a_resolved_battle_reads_in_sentences_naming_whose_unit_acts() -> None:
    ruleset = find_ruleset("unlimit3d8")
    battle_input = ruleset.sample_battle(seed=3)
    outcome = ruleset.resolve(battle_input, Dice(3))
    names = _names(battle_input)
    said = [(entry, ruleset.narrate(entry, names)) for entry in outcome.log]
    assert len(said) > 10
    for entry, line in said:
        assert not debug_text(line["text"]) and not debug_text(line["dice"]), (entry, line)
        assert "{" not in line["text"] and "_" not in line["text"], line
        if entry.get("event") == "action":  # the action's own entry says it
            assert line["text"] == ""
            continue
        for key in ("unit", "actor", "target"):
            uid = entry.get(key)
            if uid is not None and str(uid) in names["unit"]:
                assert names["unit"][str(uid)] in line["text"], (entry, line)
    rolls = [(e, line) for e, line in said if e.get("event") == "roll"]
    assert rolls, "the sample battle rolls dice"
    for entry, line in rolls:
        assert "die" in line["dice"] and str(entry["dice"]["total"]) in line["dice"]
        assert "nemesis" not in line["text"]  # the dice fold away, apart from the sentence
    assert any("fires its" in line["text"] for _e, line in said)
    end = said[-1][1]["text"]
    assert end.startswith("The battle ends")


def test_an_unknown_id_reads_as_a_unit_never_as_its_number() -> None:
    line = find_ruleset("unlimit3d8").narrate(
        {"event": "ram", "unit": 4191604156651550, "target": 7, "turn": 3, "round": 2}, {})
    assert line["text"] == "a unit rams a unit."


def test_the_default_narration_reads_counts_as_prose() -> None:
    line = RulesetBase().narrate({"text": "Egg Pawns 6 attacks Sonic with bare hands: "
                                          "1 hit(s), 2 HP lost; 3 hex(es)"}, {})
    assert line["text"] == "Egg Pawns 6 attacks Sonic with bare hands, 1 hit, 2 HP lost; " \
                           "3 hexes"


def test_the_default_narration_names_the_sides_and_keeps_the_rolls_apart() -> None:
    line = RulesetBase().narrate(
        {"text": "Initiative: side 6 (10: 1, 6: 3)", "rolls": [1, 3]},
        {"side": {"6": "bob", "10": "alice"}})
    assert line == {"text": "Initiative: bob (alice 1, bob 3)", "dice": "Dice rolled 1, 3."}
    assert not debug_text(line["text"])


@pytest.mark.parametrize("ruleset", [r for r in all_rulesets() if hasattr(r, "replay")],
                         ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(4))
def test_every_other_ruleset_replays_with_named_sides_and_no_debug_pairs(ruleset, seed
                                                                         ) -> None:
    try:
        battle_input = ruleset.sample_battle(seed=seed)
    except RulesetError:
        pytest.skip("no sample battle")
    outcome = ruleset.resolve(battle_input, Dice(seed))
    steps = ruleset.replay(battle_input, ruleset.document(outcome), list(outcome.log))
    if steps is None:
        pytest.skip("this ruleset's page narrates the stored log with the campaign's names")
    sides = {str(s): f"player{s}" for s in battle_input.get("sides", {})} \
        if isinstance(battle_input.get("sides"), dict) else {}
    lines = [ruleset.narrate(step, {"side": sides}) for step in steps]
    assert lines
    for line in lines:
        assert not debug_text(line["text"]) and "(s)" not in line["text"], line
        assert not re.search(r"\b[Ss]ide \d+\b", line["text"]) or not sides, line
