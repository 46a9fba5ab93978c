"""Close Combat (fight): "Difficulty is Base defense. Damages are weapon Base Damage +
active die result. Passive effect depends on the weapon caracteristics. Nemesis effect
depends on the weapon characteristics. Unless stated otherwise, the target's armor is
deduced of the damages dealt." Shields "add to difficulty to touch in close combat".
R-BAT-2: close combat needs contact and a contact weapon (grappling arms, road header).
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8.engine.actions.attack import (
    defense_of,
    in_contact,
    misfire_threshold,
    skill_test,
    strike,
)
from battles.rulesets.unlimit3d8.engine.actions.base import CloseCombat
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.ranged import live_target
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState


def perform_close_combat(state: BattleState, unit: UnitState, action: CloseCombat) -> int:
    try:
        weapon = unit.weapon(action.weapon)
    except KeyError:
        raise IllegalActionError(f"unit {unit.id} has no weapon {action.weapon!r}") from None
    if not weapon.is_contact:
        raise IllegalActionError(f"{weapon.key} is not a contact weapon")
    if weapon.key == "grappling_arms" and unit.carrying is not None:
        # "While the unit uses its arms to lift the container, it cannot use them to fight."
        raise IllegalActionError(f"unit {unit.id}'s arms hold a container")
    target = live_target(state, action.target, action.target_kind)
    if not in_contact(state, unit.pos, target.pos):
        raise IllegalActionError(f"unit {unit.id} is not in contact with {target.id}")
    state.record("close_combat", unit=unit.id, weapon=weapon.key, target=target.id,
                 cdt=weapon.cooldown)
    difficulty = defense_of(target, close=True)
    roll, _, success, entry = skill_test(state, unit, "fight", unit.card.skills["fight"],
                                         difficulty, "close_combat",
                                         {"weapon": weapon.key, "target": target.id})
    if roll.nemesis <= misfire_threshold(unit, weapon):
        entry["effects"].append("misfire")
    elif success:
        entry["effects"].append("hit")
        strike(state, unit, weapon, target, roll, 0.0, entry)
    else:
        entry["effects"].append("miss")
    return weapon.cooldown
