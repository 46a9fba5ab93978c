"""The log's description of an action (`Action.describe`): the hot actions write theirs
out (a battle logs one every turn); each must say exactly what the generic one says."""

from typing import Any

import pytest

from battles.rulesets.unlimit3d8.engine.actions import (
    Assault,
    Move,
    Order,
    Pass,
    RangedAttack,
    Tackle,
)
from battles.rulesets.unlimit3d8.engine.actions.base import _plain


def generic(action: Any) -> dict[str, Any]:
    return {**_plain(action), "action": type(action).__name__}


@pytest.mark.parametrize("action", [
    Move(3, (1.5, 2.25)),
    Move("u-7", (0.0, -2.0)),
    RangedAttack(1, "cannon", 5),
    RangedAttack("a", "beamer", "b/g1", target_kind="building"),
    Assault(2, (4.0, 6.5), "machine_gun", 8),
    Assault("x", (4.0, 6.5), "blaster", "t", target_kind="building"),
    Order(1, "technical", (2,), tokens=3),
    Order(1, "cohesion", (2, 3), orders=(RangedAttack(2, "cannon", 7), Move(3, (1.0, 2.0))),
          move_to=(5.5, 6.0)),
    Order("c", "cohesion", ("d",), orders=(Tackle("d", "e", aggressive=False),)),
    Pass(4),
])
def test_a_written_out_description_is_the_generic_one(action: Any) -> None:
    described = action.describe()
    assert described == generic(action)
    assert list(described) == list(generic(action))  # the log keeps the keys' order
    assert isinstance(described.get("to", []), list)
    assert all(isinstance(order, dict) for order in described.get("orders", []))


@pytest.mark.parametrize("action", [
    Move(3, (1.5, 2.25)),
    RangedAttack(1, "cannon", 5),
    RangedAttack("a", "beamer", "b/g1", target_kind="building"),
    Assault(2, (4.0, 6.5), "machine_gun", 8),
    Order(1, "technical", (2,), tokens=3),
    Pass(4),
])
def test_the_logged_action_entry_is_record_with_the_description(action: Any) -> None:
    """`turn.take_action` writes the commonest entries out in one dict: the very entry of
    `state.record("action", side=..., **action.describe())`, keys in order."""
    from battles.rulesets.unlimit3d8.engine.dice import SeededDice
    from battles.rulesets.unlimit3d8.engine.state import BattleState
    from battles.rulesets.unlimit3d8.engine.turn import _action_entry

    state = BattleState(units={}, buildings={}, sides=["red", "blue"], defender="red",
                        dice=SeededDice(1), options={}, round=3, turn=7)
    entry = _action_entry(state, "blue", action)
    expected = {"turn": 7, "round": 3, "event": "action", "side": "blue",
                **generic(action)}
    assert entry == expected
    assert list(entry) == list(expected)
