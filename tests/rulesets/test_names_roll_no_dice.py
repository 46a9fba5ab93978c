"""Issue 26: a unit's name reaches every ruleset in its battle input (so reports and logs
say it), but names decide nothing: the same battle fought with renamed units rolls the
same dice and ends the same way, in all five rulesets. The name generator itself draws
from a hash, never from the dice (`tests/economy/test_names.py`)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESETS = ["unlimit3d8", "onepage", "battledice", "thirtymm", "mobius"]


def _renamed(value: Any) -> Any:
    """The input with every unit (a dict with an id and a name) renamed."""
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    if isinstance(value, dict):
        out = {k: _renamed(v) for k, v in value.items()}
        if "id" in out and isinstance(out.get("name"), str):
            out["name"] = f"Golem 'Zz {out['id']}' <b>&"
        return out
    return value


def _decided(outcome: Any) -> str:
    """Everything a battle decides, and every roll, without the words of its log."""
    rolls = [{k: v for k, v in step.items() if k not in ("text", "name", "actor_name",
                                                         "target_name")}
             for step in outcome.log if isinstance(step, dict)]
    return json.dumps({"winner": outcome.winner, "rounds": outcome.rounds,
                       "units": [(f.unit, f.fate, f.state, f.captured_by)
                                 for f in outcome.units],
                       "xp": [(x.unit, x.kind, x.amount, x.crew) for x in outcome.xp],
                       "rolls": rolls}, sort_keys=True, default=str)


@pytest.mark.parametrize("name", RULESETS)
def test_renamed_units_fight_the_same_battle(name):
    ruleset = find_ruleset(name)
    for seed in range(3):
        battle = ruleset.sample_battle(seed)
        renamed = _renamed(battle)
        assert renamed != battle  # the sample names its units
        dice_seed = int(battle.get("seed", seed))
        first = ruleset.resolve(battle, Dice(random.Random(dice_seed)))
        second = ruleset.resolve(renamed, Dice(random.Random(dice_seed)))
        assert _decided(first) == _decided(second)
