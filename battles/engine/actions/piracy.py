"""Piracy (thunder wire): "Used on an enemy unit, it will give it Active die + 5 CDT. Used on
an enemy turret, it will allow the pirate to use it as if it was their own, on a Tech skill
roll of 20".

R-BAT-23: the thunder wire is a contact device (no range increment); on a unit the Tech test
is against the target's base defense; a piracy costs the wire's cool-down. Stealing a
technology from a laboratory is a campaign matter and not resolved in battle.
"""

from __future__ import annotations

from battles.engine.actions.attack import defense_of, in_contact, skill_test
from battles.engine.actions.base import Piracy
from battles.engine.actions.errors import IllegalActionError
from battles.engine.actions.ranged import live_target
from battles.engine.state import BattleState, BuildingState, UnitState
from campaign.rules import tables as T


def perform_piracy(state: BattleState, unit: UnitState, action: Piracy) -> int:
    wire = unit.card.equipment("piracy")
    if wire is None:
        raise IllegalActionError(f"unit {unit.id} has no thunder wire")
    target = live_target(state, action.target, action.target_kind)
    if not in_contact(state, unit.pos, target.pos):
        raise IllegalActionError("the thunder wire needs contact")
    if isinstance(target, BuildingState):
        if target.weapon is None:
            raise IllegalActionError("only turrets can be pirated in battle")
        difficulty = T.TURRET_PIRACY_DIFFICULTY
    else:
        difficulty = defense_of(target, close=False)
    state.record("piracy", unit=unit.id, target=target.id, cdt=wire.cooldown)
    roll, _, success, entry = skill_test(state, unit, "tech", unit.card.skills["tech"],
                                         difficulty, "piracy", target=target.id)
    if not success:
        entry["effects"].append("no_effect")
        return wire.cooldown
    if isinstance(target, UnitState):
        tokens = roll.active + T.PIRACY_UNIT_CDT_FLAT
        target.cdt += tokens
        entry["effects"].append({"target_cdt": tokens})
    else:
        target.controller = unit.side
        target.cdt = 0
        entry["effects"].append({"turret_taken": unit.side})
    state.credit(unit, "piracy_success")
    return wire.cooldown
