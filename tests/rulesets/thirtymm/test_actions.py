"""30 Minute Missions as refereed choices (issue 28): the default policy only ever takes
an action the referee lists as legal, a refused action changes nothing, `resolve` is the
battle played through the layer, and every verb is documented."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest

from battles.rulesets.base import ActionLayer, ActionRefused
from battles.rulesets.thirtymm import actions as A
from battles.rulesets.thirtymm.ruleset import RULESET, seeded_dice
from campaign.rules.dice import Dice

RULINGS = Path(__file__).resolve().parents[3] / "docs" / "rulings" / "thirtymm.md"


def _without_path(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "path"}


def test_the_layer_is_the_seams_action_layer():
    assert isinstance(RULESET.actions(), ActionLayer)


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_the_default_policy_chooses_only_legal_actions(seed):
    layer = RULESET.actions()
    battle = RULESET.sample_battle(seed)
    state = layer.start(battle, seeded_dice(battle))
    steps = 0
    while layer.actor(state) is not None:
        chosen = layer.choose(state)
        legal = [_without_path(a) for a in layer.legal(state)]
        assert _without_path(chosen) in legal, (steps, chosen)
        layer.apply(state, chosen)
        steps += 1
    assert steps > 20
    assert layer.view(state)["over"] is True


def test_resolve_is_the_battle_played_through_the_layer():
    battle = RULESET.sample_battle(7)
    layer = RULESET.actions()
    state = layer.start(battle, seeded_dice(battle))
    while layer.actor(state) is not None:
        layer.apply(state, layer.choose(state))
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    assert list(outcome.log) == state.b.log
    assert outcome.rounds == state.b.round


def _mid_battle(seed: int, steps: int) -> tuple[ActionLayer, A.Play]:
    layer = RULESET.actions()
    battle = RULESET.sample_battle(seed)
    state = layer.start(battle, seeded_dice(battle))
    for _ in range(steps):
        layer.apply(state, layer.choose(state))
    return layer, state


@pytest.mark.parametrize("steps", [0, 3, 9, 25])
def test_a_refused_action_changes_nothing(steps):
    layer, state = _mid_battle(3, steps)
    side = layer.actor(state)
    other = next(int(s) for s in state.b.sides if int(s) != side)
    unit = state.turn.unit.id if state.turn else state.b.units[0].id
    illegal = [
        {"side": other, "do": "end_turn", "unit": unit},
        {"side": side, "do": "fly", "unit": unit},
        {"side": side, "do": "move", "unit": unit, "to": [99, 99]},
        {"side": side, "do": "rotate", "unit": unit, "facing": 9},
        {"side": side, "do": "attack", "unit": unit, "target": unit, "weapon": "basic"},
        {"side": side, "do": "throw", "unit": unit, "to": [3, 3]},
        {"side": side, "do": "get_up", "unit": unit},
    ]
    for action in illegal:
        before = copy.deepcopy(layer.view(state))
        dice_state = state.b.dice
        with pytest.raises(ActionRefused) as refused:
            layer.apply(state, action)
        assert re.fullmatch(r"[a-z_]+", refused.value.code)
        assert layer.view(state) == before
        assert state.b.dice is dice_state


def test_a_refusal_rolls_no_die():
    layer, state = _mid_battle(4, 1)  # a unit is active, in its movement phase
    counting = Dice(random.Random(1))
    state.b.dice = counting
    unit = state.turn.unit
    with pytest.raises(ActionRefused):
        layer.apply(state, {"side": int(unit.side), "do": "grapple", "unit": unit.id,
                            "target": next(e.id for e in state.b.enemies(unit))})
    assert counting.count == 0


def test_every_verb_is_documented_in_the_rulings():
    text = RULINGS.read_text(encoding="utf-8")
    section = text[text.index("## The action layer"):]
    for verb in A.VERBS:
        assert f"`{verb}`" in section, verb


def test_every_refusal_quotes_the_seed_word_for_word():
    found = [p / "shared" / "seeds" / RULESET.seed_file for p in Path(__file__).parents]
    seed_file = next((f for f in found if f.exists()), None)
    if seed_file is None:
        pytest.skip("the seeds are not beside the project (../shared/seeds)")
    seed = " ".join(seed_file.read_text(encoding="utf-8").split())
    quotes = {k: v for k, v in vars(A).items() if k.startswith("Q_")}
    assert len(quotes) > 20
    for name, quote in quotes.items():
        for part in (p.strip(" .") for p in quote.split("...")):
            assert not part or part in seed, (name, part)

