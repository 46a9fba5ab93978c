"""Damage: armour deduction, shields, force fields, the X / slash split, destruction.

Seed: "Unless stated otherwise, the target's armor is deduced of the damages dealt";
card F: "tick half of them (rounded up) with a cross, the other half with a slash";
"Shield : ... extra health points with extra armor value ... Once the extra hit points
are depleted, all the bonuses are lost"; Force Field: "any unit and building the force
field is considered having an additional armor of 5".
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8 import rules as BF
from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.geometry import in_square
from battles.rulesets.unlimit3d8.engine.state import BattleState, BuildingState, UnitState

Target = UnitState | BuildingState


def force_field_at(state: BattleState, pos: tuple[float, float],
                   exclude: BuildingState | None = None) -> BuildingState | None:
    """The active force field whose 4" x 4" area covers `pos` (R-BAT-11), if any."""
    if not state.force_fields:
        return None
    half = BT.FORCE_FIELD_AREA_INCHES / 2
    for b in state.force_fields:
        if b.active and not b.destroyed and b is not exclude and in_square(pos, b.pos, half):
            return b
    return None


def own_field(state: BattleState, target: Target) -> BuildingState | None:
    """The field a target is not protected by: a force field itself, or the field a
    generator powers (R-BAT-11)."""
    if isinstance(target, UnitState):
        return None
    if target.parent is not None:
        return state.buildings.get(target.parent)
    return target


def effective_armor(state: BattleState, target: Target, ignore: str | None) -> int:
    """Armour left after the weapon's armour-piercing (R-BAT-13: "half" keeps armour // 2)."""
    armor = target.armor if isinstance(target, UnitState) else target.current_armor
    if force_field_at(state, target.pos, exclude=own_field(state, target)):
        armor += BT.FORCE_FIELD_ARMOR
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
    crosses, slashes = BF.damage_split(net)
    target.unrepairable += crosses
    target.repairable += slashes
    destroyed = target.hp_left == 0 and not target.destroyed
    if state.keep_log:
        state.log.append({"turn": state.turn, "round": state.round, "event": "damage",
                          "target": target.id, "source": source, "raw": raw, "armor": armor,
                          "shield_absorbed": absorbed, "lost": net, "crosses": crosses,
                          "slashes": slashes, "hp_left": target.hp_left,
                          "destroyed": destroyed})
    if destroyed:
        target.destroyed = True
        target.cdt = 0
        _release(state, target)
        _drop_cargo(state, target)
        if target.in_bunker is not None:
            state.buildings[target.in_bunker].sheltered.remove(target.id)
            target.in_bunker = None
        if attacker is not None and state.hostile(attacker.side, target.side):
            state.credit(attacker, "destroy_unit")
    return net


def _release(state: BattleState, gone: UnitState) -> None:
    for u in state.unit_list:
        if u.immobilized_by == gone.id:
            u.immobilized_by = None
    gone.immobilized_by = None


def _drop_cargo(state: BattleState, gone: UnitState) -> None:
    """A destroyed carrier drops its container where it stands; "If a lorry is destroyed,
    its cargo is lost" (R-BAT-28)."""
    if gone.carrying is None:
        return
    cargo = state.cargo[gone.carrying]
    gone.carrying = None
    cargo.carrier = None
    cargo.pos = gone.pos
    if gone.card.is_lorry:
        cargo.lost = True
        state.record("cargo_lost", cargo=cargo.id, lorry=gone.id)
    else:
        state.record("cargo_dropped", cargo=cargo.id, unit=gone.id, at=list(gone.pos))


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
    if state.keep_log:
        state.record("damage", building=target.id, source=source, raw=raw, armor=armor,
                     ablative_absorbed=absorbed, lost=net, hp_left=target.hp_left,
                     destroyed=destroyed)
    if destroyed:
        target.destroyed = True
        target.active = False
        fallen: BuildingState | None = target
        if target.parent is not None:
            # "To disable the force field, the opponent must destroy all 4 force field
            # generators."
            field = state.buildings[target.parent]
            fallen = None
            if all(state.buildings[g].destroyed for g in field.generators):
                field.destroyed = True
                field.active = False
                fallen = field
                state.record("force_field_down", building=field.id)
        for uid in target.sheltered:
            state.units[uid].in_bunker = None  # R-BAT-29: the bunker's occupants step out
            state.record("unsheltered", unit=uid, bunker=target.id)
        target.sheltered.clear()
        if (fallen is not None and attacker is not None
                and state.hostile(attacker.side, fallen.controller)):
            state.credit(attacker, "destroy_building")
    return net


def release_unit(state: BattleState, gone: UnitState) -> None:
    """A unit that leaves the battle frees the units it was immobilizing."""
    _release(state, gone)
