"""Ranged Attack (fight) and Assault (fight).

Ranged: "Difficulty is Base defense + range increment x every complete 4 inches of
distance ... Damages are weapon Base Damage + active die result". Assault: "An assault is
taken when a unit makes both a Move action and Ranged Attack action. The range increment
penalty adds up every 2 inches instead of 4. The unit takes CDT for both actions".
The cool-down of a shot is the weapon's card cool-down (seed, card I).
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8.engine.actions.attack import fire, projectile_blocked, target_of
from battles.rulesets.unlimit3d8.engine.actions.base import Assault, RangedAttack
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.move import check_move, move_cdt, relocate
from battles.rulesets.unlimit3d8.engine.card import WeaponCard
from battles.rulesets.unlimit3d8.engine.damage import Target
from battles.rulesets.unlimit3d8.engine.geometry import Point
from battles.rulesets.unlimit3d8.engine.state import BattleState, BuildingState, UnitState


def ranged_weapon(unit: UnitState, key: str) -> WeaponCard:
    try:
        weapon = unit.weapon(key)
    except KeyError:
        raise IllegalActionError(f"unit {unit.id} has no weapon {key!r}") from None
    if not weapon.is_ranged:
        raise IllegalActionError(f"{key} is not a ranged weapon")
    return weapon


def live_target(state: BattleState, target_id: object, kind: str) -> Target:
    try:
        target = target_of(state, target_id, kind)
    except KeyError:
        raise IllegalActionError(f"no {kind} {target_id!r}") from None
    gone = target.destroyed or (isinstance(target, UnitState) and target.retreated)
    if gone:
        raise IllegalActionError(f"{kind} {target_id!r} is no longer in the battle")
    if isinstance(target, UnitState) and target.in_bunker is not None:
        raise IllegalActionError(f"unit {target_id!r} is sheltered in a bunker (R-BAT-29)")
    if isinstance(target, BuildingState) and not target.targetable:
        raise IllegalActionError(f"force field {target_id!r}: destroy its generators")
    return target


def refuse_blocked_projectile(state: BattleState, origin: Point, weapon: WeaponCard,
                              target: Target) -> None:
    """R-BAT-11: "No projectile (missile or grenade) can enter the force field"; the field
    is in plain sight, so aiming one into it is refused (option "refused", the default)
    before any die or token; with "wasted" the shot is fired and stopped at the field."""
    if state.options.get("force_field_projectile", "refused") == "refused" \
            and projectile_blocked(state, origin, weapon, target):
        raise IllegalActionError(f"a {weapon.key} cannot enter the force field around "
                                 f"{target.id!r}")


def perform_ranged(state: BattleState, unit: UnitState, action: RangedAttack) -> int:
    weapon = ranged_weapon(unit, action.weapon)
    target = live_target(state, action.target, action.target_kind)
    refuse_blocked_projectile(state, unit.pos, weapon, target)
    if state.keep_log:
        state.log.append({"turn": state.turn, "round": state.round, "event": "ranged_attack",
                          "unit": unit.id, "weapon": weapon.key, "target": target.id,
                          "cdt": weapon.cooldown})
    fire(state, unit, weapon, target, skill_value=unit.card.skills["fight"])
    return weapon.cooldown


def perform_assault(state: BattleState, unit: UnitState, action: Assault) -> int:
    weapon = ranged_weapon(unit, action.weapon)
    target = live_target(state, action.target, action.target_kind)
    dist = check_move(unit, action.to)
    refuse_blocked_projectile(state, action.to, weapon, target)
    cdt = move_cdt(unit, dist) + weapon.cooldown
    if state.keep_log:
        state.record("assault", unit=unit.id, to=list(action.to), distance=round(dist, 3),
                     weapon=weapon.key, target=target.id, cdt=cdt)
    relocate(state, unit, action.to)
    fire(state, unit, weapon, target, skill_value=unit.card.skills["fight"], assault=True)
    return cdt
