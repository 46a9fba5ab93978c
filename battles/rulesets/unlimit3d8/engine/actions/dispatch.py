"""Dispatch an action object to its module; returns the CDT the unit takes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from battles.rulesets.unlimit3d8.engine.actions import base as A
from battles.rulesets.unlimit3d8.engine.actions.close_combat import perform_close_combat
from battles.rulesets.unlimit3d8.engine.actions.designation import perform_designate
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.logistics import perform_enter_bunker, perform_lift
from battles.rulesets.unlimit3d8.engine.actions.move import perform_move
from battles.rulesets.unlimit3d8.engine.actions.order import perform_order
from battles.rulesets.unlimit3d8.engine.actions.piracy import perform_piracy
from battles.rulesets.unlimit3d8.engine.actions.ramming import perform_ram
from battles.rulesets.unlimit3d8.engine.actions.ranged import perform_assault, perform_ranged
from battles.rulesets.unlimit3d8.engine.actions.repair import perform_repair
from battles.rulesets.unlimit3d8.engine.actions.retreat import perform_retreat
from battles.rulesets.unlimit3d8.engine.actions.tackle import perform_tackle
from battles.rulesets.unlimit3d8.engine.actions.warp import perform_warp
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState

# R-BAT-29: what a unit sheltered in a bunker may do (a move gets it out first).
SHELTERED_ACTIONS = (A.Move, A.RangedAttack, A.Assault, A.Order, A.Designate, A.Retreat,
                     A.Pass)


def _pass(state: BattleState, unit: UnitState, action: A.Action) -> int:
    return 0


def _order(state: BattleState, unit: UnitState, action: A.Action) -> int:
    assert isinstance(action, A.Order)
    return perform_order(state, unit, action, perform)


Performer = Callable[[BattleState, UnitState, Any], int]

#: Every action type and the function that resolves it (one table, no isinstance chain).
PERFORMERS: dict[type[A.Action], Performer] = {
    A.Move: perform_move, A.RangedAttack: perform_ranged, A.Assault: perform_assault,
    A.CloseCombat: perform_close_combat, A.Tackle: perform_tackle, A.Ram: perform_ram,
    A.Order: _order, A.Repair: perform_repair, A.Warp: perform_warp,
    A.Piracy: perform_piracy, A.Retreat: perform_retreat, A.Designate: perform_designate,
    A.Lift: perform_lift, A.EnterBunker: perform_enter_bunker, A.Pass: _pass,
}


def perform(state: BattleState, unit: UnitState, action: A.Action) -> int:
    """Resolve `action` for `unit` and return the CDT it costs."""
    if unit.in_bunker is not None and not isinstance(action, SHELTERED_ACTIONS):
        raise IllegalActionError(f"unit {unit.id} is inside a bunker: {action.name} refused")
    kind = type(action)
    # The two commonest, called directly (compiled, a call through the table is a Python
    # call); the table has every action, these too.
    if kind is A.RangedAttack:
        assert isinstance(action, A.RangedAttack)
        return perform_ranged(state, unit, action)
    if kind is A.Move:
        assert isinstance(action, A.Move)
        return perform_move(state, unit, action)
    performer = PERFORMERS.get(kind)
    if performer is None:
        raise IllegalActionError(f"unknown action {action!r}")
    return performer(state, unit, action)
