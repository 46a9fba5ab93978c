"""Unlimit3d 8 as refereed choices: the seam's action layer over the engine's `Fight`."""

from __future__ import annotations

import copy

import pytest

from battles.rulesets.base import ActionLayer, ActionRefused
from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESET = find_ruleset("unlimit3d8")


def _play(seed: int = 3):  # type: ignore[no-untyped-def]
    layer = RULESET.actions()
    return layer, layer.start(RULESET.sample_battle(seed), Dice(seed))


def test_the_layer_is_the_seams_action_layer() -> None:
    assert isinstance(RULESET.actions(), ActionLayer)


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_the_default_policy_through_the_layer_fights_the_same_battle_as_resolve(seed: int
                                                                               ) -> None:
    layer, play = _play(seed)
    steps = 0
    while layer.actor(play) is not None:
        layer.apply(play, layer.choose(play))
        steps += 1
    resolved = RULESET.resolve(RULESET.sample_battle(seed), Dice(seed))
    assert steps > 0
    result = play.fight.result().to_dict()
    assert result["winner"] == resolved.result["winner"]
    assert result["log"] == list(resolved.log)


def test_a_side_out_of_turn_is_refused_and_nothing_changes() -> None:
    layer, play = _play()
    side = layer.actor(play)
    other = next(s for s in play.state.sides if s != side)
    before = copy.deepcopy(layer.view(play))
    with pytest.raises(ActionRefused) as refused:
        layer.apply(play, {"side": other, "do": "pass"})
    assert refused.value.code == "not_your_turn"
    assert "choose an unit on which card there is no CDT" in str(refused.value)
    assert layer.view(play) == before


def test_an_illegal_move_is_refused_and_leaves_the_battle_as_it_was() -> None:
    layer, play = _play()
    side = layer.actor(play)
    unit = next(u for u in play.state.units.values() if u.side == side and u.active)
    before = copy.deepcopy(layer.view(play))
    far = (unit.pos[0] + 30.0, unit.pos[1])
    with pytest.raises(ActionRefused) as refused:
        layer.apply(play, {"side": side, "do": "move", "unit": unit.id, "to": list(far)})
    assert refused.value.code == "illegal_action"
    assert layer.view(play) == before
    layer.apply(play, {"side": side, "do": "pass"})  # the side may still choose
    assert layer.actor(play) != side or layer.view(play)["turn"] > before["turn"]


def test_unknown_verbs_and_missing_fields_are_refused_precisely() -> None:
    layer, play = _play()
    side = layer.actor(play)
    with pytest.raises(ActionRefused) as unknown:
        layer.apply(play, {"side": side, "do": "teleport"})
    assert unknown.value.code == "unknown_action"
    with pytest.raises(ActionRefused) as missing:
        layer.apply(play, {"side": side, "do": "ranged", "unit": "1"})
    assert missing.value.code == "malformed_action"


def test_legal_lists_the_policys_choice_and_passing() -> None:
    layer, play = _play()
    choices = layer.legal(play)
    assert choices[0] == layer.choose(play)
    assert {"side": layer.actor(play), "do": "pass"} in choices or choices[0]["do"] == "pass"


def test_asking_for_the_legal_actions_or_the_choice_changes_nothing() -> None:
    """Issue 31's leftover: `legal`/`choose` used to write the `plan_withdraw` record (and
    latch the retreat) as a side effect of being asked; now the turn's start settles it,
    and asking any number of times leaves the battle and the policy as they were."""
    layer = RULESET.actions()
    battle = RULESET.sample_battle(1)
    battle["plans"] = {"1": {"stance": "withdraw"}}
    play = layer.start(battle, Dice(1))
    while play.fight.side != "1":
        layer.apply(play, layer.choose(play))
    policy = play.fight.policies["1"]
    before = copy.deepcopy(play.state.log)
    withdrawals = sum(1 for e in play.state.log if e.get("event") == "plan_withdraw")
    assert withdrawals == 1  # settled once, when the side's first turn began
    first = layer.legal(play)
    for _ in range(3):
        assert layer.legal(play) == first
        assert layer.choose(play) == first[0]
    assert first[0]["do"] == "retreat"
    assert play.state.log == before
    assert policy.retreating  # type: ignore[attr-defined]
