"""Repair (Tech): "A unit equiped with repair tools can attempt a repair on another mech.
The roll difficulty is 2 x the target number of hitpoint to recover. Once the repair is made,
all the remaining hit points ticked / become X. If the repair is a failure, half of the hit
points ticked / become X (rounded up)".

R-BAT-14: grappling arms (an exo armour's own included) are the repair tools; the repairer
must be in contact; a repair costs the arms' cool-down.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8 import rules as BF
from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.attack import in_contact, skill_test
from battles.rulesets.unlimit3d8.engine.actions.base import Repair
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState


def perform_repair(state: BattleState, unit: UnitState, action: Repair) -> int:
    tools = next((w for w in unit.card.weapons if w.key == "grappling_arms"), None)
    if tools is None:
        raise IllegalActionError(f"unit {unit.id} has no repair tools")
    if unit.carrying is not None:
        raise IllegalActionError(f"unit {unit.id}'s arms hold a container (R-BAT-28)")
    target = state.units.get(action.target)
    if target is None or target is unit or not target.active or target.side != unit.side:
        raise IllegalActionError("repair another unit of your own side")
    if not in_contact(state, unit.pos, target.pos):
        raise IllegalActionError("the repairer must be in contact")
    if not 1 <= action.hit_points <= target.repairable:
        raise IllegalActionError("recover between 1 and the slashed hit points")
    difficulty = BT.REPAIR_DIFFICULTY_PER_HP * action.hit_points
    state.record("repair", unit=unit.id, target=target.id, hit_points=action.hit_points,
                 cdt=tools.cooldown)
    _, _, success, entry = skill_test(state, unit, "tech", unit.card.skills["tech"],
                                      difficulty, "repair", {"target": target.id})
    if success:
        target.repairable -= action.hit_points
        hardened = target.repairable
        target.unrepairable += hardened
        target.repairable = 0
        entry["effects"].append({"recovered": action.hit_points, "slashes_to_x": hardened})
        state.credit(unit, "repair_other_unit")
    else:
        hardened = BF.repair_failure_split(target.repairable)
        target.repairable -= hardened
        target.unrepairable += hardened
        entry["effects"].append({"failed": True, "slashes_to_x": hardened})
    return tools.cooldown
