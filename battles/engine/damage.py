"""Damage: armour deduction, shields, force fields, the X / slash split, destruction.

Seed: "Unless stated otherwise, the target's armor is deduced of the damages dealt";
card F: "tick half of them (rounded up) with a cross, the other half with a slash";
"Shield : ... extra health points with extra armor value ... Once the extra hit points
are depleted, all the bonuses are lost"; Force Field: "any unit and building the force
field is considered having an additional armor of 5".
"""

from __future__ import annotations

from battles.engine.geometry import in_square
from battles.engine.state import BattleState, BuildingState, UnitState
from campaign.rules import formulas as F
from campaign.rules import tables as T

Target = UnitState | BuildingState


def force_field_at(state: BattleState, pos: tuple[float, float],
                   exclude: BuildingState | None = None) -> BuildingState | None:
    """The active force field whose 4" x 4" area covers `pos` (R-BAT-11), if any."""
    half = T.FORCE_FIELD_AREA_INCHES / 2
    for b in state.buildings.values():
        if (b.kind == "force_field" and b.active and not b.destroyed and b is not exclude
                and in_square(pos, b.pos, half)):
            return b
    return None


def effective_armor(state: BattleState, target: Target, ignore: str | None) -> int:
    """Armour left after the weapon's armour-piercing (R-BAT-13: "half" keeps armour // 2)."""
    armor = target.armor if isinstance(target, UnitState) else target.current_armor
    if force_field_at(state, target.pos, exclude=target if isinstance(target, BuildingState)
                      else None):
        armor += T.FORCE_FIELD_ARMOR
    if ignore == "all":
        return 0
    if ignore == "half":
        return armor // 2
    return armor


def deal_damage(state: BattleState, target: Target, raw: int, *, ignore: str | None,
                attacker: UnitState | None, source: str) -> int:
    """Apply `raw` damage (before armour) to a unit or building; returns hit points lost."""
    armor = effective_armor(state, target, ignore)
    net = max(0, raw - armor)
    if isinstance(target, UnitState):
        return _damage_unit(state, target, net, raw, armor, attacker, source)
    return _damage_building(state, target, net, raw, armor, attacker, source)


def _damage_unit(state: BattleState, target: UnitState, net: int, raw: int, armor: int,
                 attacker: UnitState | None, source: str) -> int:
    absorbed = 0
    if target.shield_hp > 0 and net > 0:
        absorbed = min(target.shield_hp, net)
        target.shield_hp -= absorbed
        net -= absorbed
    net = min(net, target.hp_left)
    crosses, slashes = F.damage_split(net)
    target.unrepairable += crosses
    target.repairable += slashes
    destroyed = target.hp_left == 0 and not target.destroyed
    state.record("damage", target=target.id, source=source, raw=raw, armor=armor,
                 shield_absorbed=absorbed, lost=net, crosses=crosses, slashes=slashes,
                 hp_left=target.hp_left, destroyed=destroyed)
    if destroyed:
        target.destroyed = True
        target.cdt = 0
        _release(state, target)
        if attacker is not None and state.hostile(attacker.side, target.side):
            state.credit(attacker, "destroy_unit")
    return net


def _release(state: BattleState, gone: UnitState) -> None:
    for u in state.units.values():
        if u.immobilized_by == gone.id:
            u.immobilized_by = None
    gone.immobilized_by = None


def _damage_building(state: BattleState, target: BuildingState, net: int, raw: int,
                     armor: int, attacker: UnitState | None, source: str) -> int:
    absorbed = 0
    if target.ablative_hp > 0 and net > 0:
        absorbed = min(target.ablative_hp, net)
        target.ablative_hp -= absorbed
        net -= absorbed
    net = min(net, target.hp_left)
    target.lost += net
    destroyed = target.hp_left == 0 and not target.destroyed
    state.record("damage", building=target.id, source=source, raw=raw, armor=armor,
                 ablative_absorbed=absorbed, lost=net, hp_left=target.hp_left,
                 destroyed=destroyed)
    if destroyed:
        target.destroyed = True
        target.active = False
        if attacker is not None and state.hostile(attacker.side, target.controller):
            state.credit(attacker, "destroy_building")
    return net


def release_unit(state: BattleState, gone: UnitState) -> None:
    """A unit that leaves the battle frees the units it was immobilizing."""
    _release(state, gone)
