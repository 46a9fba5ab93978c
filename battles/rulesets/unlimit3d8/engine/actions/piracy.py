"""Piracy (thunder wire): "this allows the unit to take control of an enemy Unit or building:
Used on an enemy unit, it will give it Active die + 5 CDT. Used on an enemy turret, it will
allow the pirate to use it as if it was their own, on a Tech skill roll of 20. Used on a
laboratory, it will allow the pirate to steal a technology on a tech skill roll equal to the
number of Research Points necessary to get the technology."

R-BAT-23: the thunder wire is a contact device (no range increment); the target must be an
enemy; on a unit the Tech test is against the target's base defense; a turret taken changes
controller; a piracy costs the wire's cool-down.
R-BAT-30: on a laboratory the Tech test is against the research points of the technology
(`BuildingInput.technology_cost`, given by the campaign; else option
`lab_piracy_difficulty`). The engine does not know technologies: it reports every attempt
(`BattleResult.lab_piracies`: score, difficulty, success) and the campaign transfers what
was stolen. A side robs a laboratory at most once per battle.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.attack import defense_of, in_contact, skill_test
from battles.rulesets.unlimit3d8.engine.actions.base import Piracy
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.ranged import live_target
from battles.rulesets.unlimit3d8.engine.state import BattleState, BuildingState, UnitState


def lab_difficulty(state: BattleState, lab: BuildingState) -> int:
    if lab.technology_cost is not None:
        return lab.technology_cost
    return int(state.options["lab_piracy_difficulty"])


def perform_piracy(state: BattleState, unit: UnitState, action: Piracy) -> int:
    wire = unit.card.equipment("piracy")
    if wire is None:
        raise IllegalActionError(f"unit {unit.id} has no thunder wire")
    target = live_target(state, action.target, action.target_kind)
    owner = target.controller if isinstance(target, BuildingState) else target.side
    if not state.hostile(unit.side, owner):
        raise IllegalActionError("piracy is used on an enemy unit or building")
    if not in_contact(state, unit.pos, target.pos):
        raise IllegalActionError("the thunder wire needs contact")
    lab = isinstance(target, BuildingState) and target.kind == "laboratory"
    if isinstance(target, BuildingState):
        if lab:
            if unit.side in target.robbed_by:
                raise IllegalActionError("this laboratory was already robbed by your side")
            difficulty = lab_difficulty(state, target)
        elif target.weapon is None:
            raise IllegalActionError("only turrets and laboratories can be pirated")
        else:
            difficulty = BT.TURRET_PIRACY_DIFFICULTY
    else:
        difficulty = defense_of(target, close=False)
    state.record("piracy", unit=unit.id, target=target.id, cdt=wire.cooldown)
    roll, score, success, entry = skill_test(state, unit, "tech", unit.card.skills["tech"],
                                             difficulty, "piracy", {"target": target.id})
    if lab:
        assert isinstance(target, BuildingState)
        state.lab_piracies.append({
            "unit": unit.id, "pilot_id": unit.card.pilot_id, "side": unit.side,
            "laboratory": target.id, "score": score, "difficulty": difficulty,
            "success": success, "turn": state.turn})
    if not success:
        entry["effects"].append("no_effect")
        return wire.cooldown
    if isinstance(target, UnitState):
        tokens = roll.active + BT.PIRACY_UNIT_CDT_FLAT
        target.cdt += tokens
        entry["effects"].append({"target_cdt": tokens})
    elif lab:
        target.robbed_by.add(unit.side)
        entry["effects"].append({"technology_stolen": target.id})
    else:
        target.controller = unit.side
        target.cdt = 0
        entry["effects"].append({"turret_taken": unit.side})
    state.credit(unit, "piracy_success")
    return wire.cooldown
