"""Tackle: "A unit can be used to tackle and imobilize another ... The difficulty is the
same, plus 6. The player trying to immobilize may state if they're tackle agressively or
not. If so, the attack, if successful deals half the damages. If not, the attack will only
deal damages on a Nemesis score of 1."

R-BAT-18: the damage is that of the unit's best contact weapon (0 + active die without
one); a tackled unit cannot move, ram, warp or retreat until the tackler is gone, moves
away, or tackles again. A tackle costs TACKLE_CDT tokens.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.attack import defense_of, in_contact, skill_test
from battles.rulesets.unlimit3d8.engine.actions.base import Tackle
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.ranged import live_target
from battles.rulesets.unlimit3d8.engine.damage import deal_damage
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState

TACKLE_CDT = 3


def perform_tackle(state: BattleState, unit: UnitState, action: Tackle) -> int:
    target = live_target(state, action.target, "unit")
    assert isinstance(target, UnitState)
    if target is unit or not in_contact(state, unit.pos, target.pos):
        raise IllegalActionError(f"unit {unit.id} is not in contact with {target.id}")
    for other in state.unit_list:
        if other.immobilized_by == unit.id:
            other.immobilized_by = None
    weapons = [w for w in unit.card.contact_weapons
               if not (w.key == "grappling_arms" and unit.carrying is not None)]
    base = max((w.base_damage or 0 for w in weapons), default=0)
    difficulty = defense_of(target, close=True) + BT.IMMOBILIZE_EXTRA_DIFFICULTY
    state.record("tackle", unit=unit.id, target=target.id, aggressive=action.aggressive,
                 cdt=TACKLE_CDT)
    roll, _, success, entry = skill_test(state, unit, "fight", unit.card.skills["fight"],
                                         difficulty, "tackle", {"target": target.id})
    if not success:
        entry["effects"].append("miss")
        return TACKLE_CDT
    target.immobilized_by = unit.id
    entry["effects"].append("immobilized")
    raw = base + roll.active
    if action.aggressive:
        raw //= 2
    elif roll.nemesis != 1:
        raw = 0
    if raw:
        deal_damage(state, target, raw, ignore=None, attacker=unit, source="tackle")
    return TACKLE_CDT
