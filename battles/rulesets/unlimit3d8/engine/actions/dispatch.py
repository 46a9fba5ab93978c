"""Dispatch an action object to its module; returns the CDT the unit takes."""

from __future__ import annotations

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


def perform(state: BattleState, unit: UnitState, action: A.Action) -> int:
    """Resolve `action` for `unit` and return the CDT it costs."""
    if unit.in_bunker is not None and not isinstance(action, SHELTERED_ACTIONS):
        raise IllegalActionError(f"unit {unit.id} is inside a bunker: {action.name} refused")
    if isinstance(action, A.Move):
        return perform_move(state, unit, action)
    if isinstance(action, A.RangedAttack):
        return perform_ranged(state, unit, action)
    if isinstance(action, A.Assault):
        return perform_assault(state, unit, action)
    if isinstance(action, A.CloseCombat):
        return perform_close_combat(state, unit, action)
    if isinstance(action, A.Tackle):
        return perform_tackle(state, unit, action)
    if isinstance(action, A.Ram):
        return perform_ram(state, unit, action)
    if isinstance(action, A.Order):
        return perform_order(state, unit, action, perform)
    if isinstance(action, A.Repair):
        return perform_repair(state, unit, action)
    if isinstance(action, A.Warp):
        return perform_warp(state, unit, action)
    if isinstance(action, A.Piracy):
        return perform_piracy(state, unit, action)
    if isinstance(action, A.Retreat):
        return perform_retreat(state, unit, action)
    if isinstance(action, A.Designate):
        return perform_designate(state, unit, action)
    if isinstance(action, A.Lift):
        return perform_lift(state, unit, action)
    if isinstance(action, A.EnterBunker):
        return perform_enter_bunker(state, unit, action)
    if isinstance(action, A.Pass):
        return 0
    raise IllegalActionError(f"unknown action {action!r}")
