"""Retreat: "they engage into battle until all the units of one side are either destroyed or
retreat to an adjacent territory." R-BAT-1: a unit retreats by moving off the outer edge of
the retreat corridor, which it must be able to reach with one move (immobilized units
cannot). Where it goes is the campaign's business (seed: "You can only retreat to a
territory you control" / removed and reappears next Movement phase).
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8.engine.actions.base import Retreat
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.damage import release_unit
from battles.rulesets.unlimit3d8.engine.geometry import edge_distance
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState


def can_retreat(unit: UnitState) -> bool:
    return unit.immobilized_by is None and edge_distance(unit.pos) <= unit.max_move_inches


def perform_retreat(state: BattleState, unit: UnitState, action: Retreat) -> int:
    if not can_retreat(unit):
        raise IllegalActionError(f"unit {unit.id} cannot reach the corridor's edge")
    if unit.in_bunker is not None:
        state.buildings[unit.in_bunker].sheltered.remove(unit.id)
        unit.in_bunker = None
    unit.retreated = True
    unit.cdt = 0
    release_unit(state, unit)
    state.record("retreat", unit=unit.id)
    return 0
