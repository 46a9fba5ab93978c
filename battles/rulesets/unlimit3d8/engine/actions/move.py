"""Move (seed, "Move"): "A vehicle can move up to its max move x 2 inches in a turn, an exo
armor can move up to its max move inches. It takes as many CDT as its Move Increment for
every 2 inches traveled. It does mean the first 2 inches are "free"."
"""

from __future__ import annotations

import math

from battles.rulesets.unlimit3d8.engine.actions.base import Move
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.damage import release_unit
from battles.rulesets.unlimit3d8.engine.geometry import Point, clamp, distance
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState


def move_cdt(unit: UnitState, dist: float) -> int:
    """R-BAT-17: Move Increment x (started 2" stretches - 1): 0-2" cost nothing,
    2-4" one increment, 4-6" two, ..."""
    stretches = math.ceil(dist / 2 - 1e-3)
    return unit.card.move_increment * max(0, stretches - 1)


def check_move(unit: UnitState, to: Point) -> float:
    """Distance of a legal move; raises IllegalActionError otherwise."""
    if unit.immobilized_by is not None:
        raise IllegalActionError(f"unit {unit.id} is immobilized by {unit.immobilized_by}")
    if clamp(to) != to:
        raise IllegalActionError(f"{to} is off the battlefield")
    dist = distance(unit.pos, to)
    if dist > unit.max_move_inches + 1e-3:
        raise IllegalActionError(
            f"unit {unit.id} moves at most {unit.max_move_inches}\", not {dist:.2f}\"")
    return dist


def relocate(state: BattleState, unit: UnitState, to: Point) -> None:
    """Put the unit at `to`; a tackler that walks away frees its victim; a sheltered unit
    that moves gets out of its bunker ("They can get out of the building with a move
    action")."""
    if unit.pos != to:
        for other in state.unit_list:
            if other.immobilized_by == unit.id:
                other.immobilized_by = None
        if unit.in_bunker is not None:
            bunker = state.buildings[unit.in_bunker]
            if unit.id in bunker.sheltered:
                bunker.sheltered.remove(unit.id)
            unit.in_bunker = None
            state.record("leave_bunker", unit=unit.id, bunker=bunker.id)
    unit.pos = to


def perform_move(state: BattleState, unit: UnitState, action: Move) -> int:
    dist = check_move(unit, action.to)
    cdt = move_cdt(unit, dist)
    if state.keep_log:
        state.log.append({"turn": state.turn, "round": state.round, "event": "move",
                          "unit": unit.id, "to": list(action.to),
                          "distance": round(dist, 3), "cdt": cdt})
    relocate(state, unit, action.to)
    return cdt


__all__ = ["check_move", "move_cdt", "perform_move", "release_unit", "relocate"]
