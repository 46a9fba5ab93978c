"""Who does what: the `Policy` protocol and the deterministic `DefaultPolicy`.

A policy reads the battle through a `BattleView` (it must not change it) and returns one
action per turn; turrets ask it for a target. Other policies (scripted for tests, smarter
AIs, a human's standing orders) plug in through `resolve_battle(policy_factory=...)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from battles.engine.actions import (
    Action,
    CloseCombat,
    Move,
    Order,
    Pass,
    Ram,
    RangedAttack,
    Repair,
    Retreat,
)
from battles.engine.actions.attack import (
    cover_increments,
    defense_of,
    in_contact,
    projectile_blocked,
)
from battles.engine.actions.move import move_cdt
from battles.engine.actions.ramming import RAM_CDT, ram_path
from battles.engine.actions.retreat import can_retreat
from battles.engine.card import WeaponCard
from battles.engine.damage import Target, effective_armor
from battles.engine.geometry import distance, increments, nearest_exit, stop_short, toward
from battles.engine.probability import p_success
from battles.engine.state import BattleState, BuildingState, UnitState
from campaign.rules import tables as T

MEAN_DIE = 4.5


class BattleView:
    """Read-only access to the battle for policies (do not mutate what it returns)."""

    def __init__(self, state: BattleState) -> None:
        self._state = state

    @property
    def state(self) -> BattleState:
        return self._state

    @property
    def options(self) -> dict[str, Any]:
        return self._state.options

    def units(self, side: str | None = None) -> list[UnitState]:
        return self._state.active_units(side)

    def enemies_of(self, side: str) -> list[UnitState]:
        return self._state.enemies_of(side)

    def hostile_buildings(self, side: str) -> list[BuildingState]:
        return [b for b in self._state.live_buildings()
                if self._state.hostile(side, b.controller)]

    def hp_share(self, side: str) -> float:
        """This side's remaining hit points over its own plus its enemies'."""
        own = sum(u.hp_left + u.shield_hp for u in self.units(side))
        foes = sum(u.hp_left + u.shield_hp for u in self.enemies_of(side))
        return own / (own + foes) if own + foes else 0.0


class Policy(Protocol):
    def choose(self, view: BattleView, side: str) -> Action: ...

    def turret_target(self, view: BattleView, turret: BuildingState) -> Target | None: ...


PolicyFactory = Callable[[str, dict[str, Any]], Policy]


class DefaultPolicy:
    """Focus fire on the weakest target it can hurt, close in (preferring cover) when it
    cannot, retreat when beaten (hit point share below `retreat_threshold` after taking
    losses). Fully deterministic: ties break on unit ids."""

    MIN_VALUE = 1.5

    def __init__(self, side: str, options: dict[str, Any] | None = None) -> None:
        self.side = side
        self.options = options or {}
        self.retreating = False

    # --- turrets -----------------------------------------------------------------
    def turret_target(self, view: BattleView, turret: BuildingState) -> Target | None:
        weapon = turret.weapon
        if weapon is None:
            return None
        skill = int(view.options["turret_fight_skill"])
        best: tuple[float, str] | None = None
        choice: Target | None = None
        for enemy in view.enemies_of(turret.controller):
            value = self._shot_value(view.state, turret, weapon, enemy, skill)
            key = (value, str(enemy.id))
            if value > 0 and (best is None or key > best):
                best, choice = key, enemy
        return choice

    # --- units ---------------------------------------------------------------------
    def choose(self, view: BattleView, side: str) -> Action:
        state = view.state
        ready = sorted((u for u in view.units(side) if u.cdt == 0), key=lambda u: str(u.id))
        if not ready:
            return Pass(unit="")
        if self._beaten(view, side):
            return self._retreat(ready)
        best_value, best_action = 0.0, None
        targets: list[Target] = list(state.enemies_of(side))
        targets += [b for b in state.live_buildings()
                    if b.weapon is not None and state.hostile(side, b.controller)]
        infos = {id(t): _TargetInfo(state, t) for t in targets}
        for unit in ready:
            value, action = self._best_attack(state, unit, targets, infos)
            if action is not None and value > best_value:
                best_value, best_action = value, action
        if best_action is not None and best_value >= self.MIN_VALUE:
            return best_action
        for unit in ready:
            support = self._support(state, unit)
            if support is not None:
                return support
        for unit in ready:
            move = self._advance(state, unit)
            if move is not None:
                return move
        return best_action or Pass(unit="")

    def _beaten(self, view: BattleView, side: str) -> bool:
        if self.retreating:
            return True
        threshold = float(view.options["retreat_threshold"])
        state = view.state
        total = mine = own = foes = 0
        hurt = False
        for u in state.units.values():
            if u.side == side:
                total += 1
                if u.active:
                    mine += 1
                    own += u.hp_left + u.shield_hp
                    hurt = hurt or u.lost > 0
            elif u.active and state.hostile(side, u.side):
                foes += u.hp_left + u.shield_hp
        hurt = hurt or mine < total
        share = own / (own + foes) if own + foes else 0.0
        if hurt and share < threshold:
            self.retreating = True
        return self.retreating

    def _retreat(self, ready: list[UnitState]) -> Action:
        for unit in ready:
            if can_retreat(unit):
                return Retreat(unit=unit.id)
        for unit in ready:
            if unit.immobilized_by is None and unit.max_move_inches > 0:
                return Move(unit=unit.id, to=toward(unit.pos, nearest_exit(unit.pos),
                                                    unit.max_move_inches))
        return Pass(unit="")

    def _shot_value(self, state: BattleState, shooter: UnitState | BuildingState,
                    weapon: WeaponCard, target: Target, skill: int,
                    info: _TargetInfo | None = None) -> float:
        """Expected value of one shot (same arithmetic as `range_difficulty` and `fire`,
        with the target's cover and armour read from a per-decision cache)."""
        if info is None:
            info = _TargetInfo(state, target)
        if weapon.is_projectile and projectile_blocked(state, shooter.pos, weapon, target):
            return 0.0
        tpos = target.pos
        spos = shooter.pos
        dist = math.hypot(spos[0] - tpos[0], spos[1] - tpos[1])
        if isinstance(shooter, UnitState):
            step = (T.RANGE_INCREMENT_INCHES_INFANTRY if shooter.card.is_infantry
                    else T.RANGE_INCREMENT_INCHES)
            inc = (weapon.range_increment or 0) + shooter.corroded
            side = shooter.side
            haywire = shooter.haywire
        else:
            step = T.RANGE_INCREMENT_INCHES
            inc = weapon.range_increment or 0
            side = shooter.controller
            haywire = False
        steps = increments(dist, step)
        cover = 0 if weapon.no_line_of_sight else info.cover
        difficulty = info.defense + inc * (steps + cover)
        if weapon.blast_radius and any(
                u.side == side and distance(u.pos, tpos) <= weapon.blast_radius
                for u in state.units.values() if u.active):
            return 0.0  # friendly fire
        misfire = weapon.misfire + 2 if haywire else weapon.misfire
        p = p_success(skill, difficulty) * (1 - misfire / 8)
        raw = (weapon.base_damage or 0) + MEAN_DIE
        if "spread" in weapon.special:
            raw -= increments(round(dist, 3), 4)
        return info.value(raw, weapon.ignore_armor, p)

    @staticmethod
    def _value(state: BattleState, target: Target, raw: float, ignore: str | None,
               p: float) -> float:
        return _TargetInfo(state, target).value(raw, ignore, p)

    def _best_attack(self, state: BattleState, unit: UnitState,
                     targets: list[Target],
                     infos: dict[int, _TargetInfo] | None = None
                     ) -> tuple[float, Action | None]:
        """The most valuable attack of `unit` (value rounded to 6 places; ties go to the
        greatest "target/weapon" label). Candidates are compared before any action object
        is built: this runs for every ready unit on every turn."""
        best_value, best_label = 0.0, ""
        best: tuple[str, Target, WeaponCard | None] | None = None
        fight = unit.card.skills["fight"]
        reach = state.options["contact_distance"] + 1e-9
        ram = not unit.card.is_infantry and unit.immobilized_by is None
        upos = unit.pos
        for target in targets:
            info = infos[id(target)] if infos is not None else _TargetInfo(state, target)
            tpos = target.pos
            contact = math.hypot(upos[0] - tpos[0], upos[1] - tpos[1]) <= reach
            for weapon in unit.card.weapons:
                if weapon.is_ranged:
                    value = self._shot_value(state, unit, weapon, target, fight, info)
                    how = "ranged"
                elif weapon.is_contact and contact:
                    p = p_success(fight, info.close_defense)
                    p *= 1 - weapon.misfire / 8
                    value = info.value((weapon.base_damage or 0) + MEAN_DIE,
                                       weapon.ignore_armor, p)
                    how = "close"
                else:
                    continue
                value = round(value, 6)
                if value < best_value:
                    continue
                label = f"{target.id}/{weapon.key}"
                if value > best_value or label > best_label:
                    best_value, best_label, best = value, label, (how, target, weapon)
            if ram and not info.is_building:
                assert isinstance(target, UnitState)
                value = round(self._ram_value(state, unit, target, info), 6)
                if value < best_value:
                    continue
                label = f"{target.id}/ram"
                if value > best_value or label > best_label:
                    best_value, best_label, best = value, label, ("ram", target, None)
        if best is None:
            return best_value, None
        how, target, weapon = best
        action: Action
        if how == "ram":
            action = Ram(unit.id, target.id)
        elif how == "ranged":
            assert weapon is not None
            action = RangedAttack(unit.id, weapon.key, target.id, _kind(target))
        else:
            assert weapon is not None
            action = CloseCombat(unit.id, weapon.key, target.id, _kind(target))
        return best_value, action

    def _ram_value(self, state: BattleState, unit: UnitState, target: UnitState,
                   info: _TargetInfo | None = None) -> float:
        max_move = unit.max_move_inches
        reach = state.options["contact_distance"]
        if distance(unit.pos, target.pos) - reach > max_move + 0.01:
            return 0.0  # out of reach (ram_path would say the same, without the rounding)
        _end, crossed = ram_path(state, unit, target)
        if crossed > max_move:
            return 0.0
        p = p_success(unit.card.skills["pilot"], target.card.base_defense)
        raw = unit.card.weight + increments(crossed, 2) + MEAN_DIE
        backlash = (raw - unit.armor) * (1 / 8 + 2 / 8 * 0.5)
        cost = (move_cdt(unit, crossed) + RAM_CDT) / 4
        if info is None:
            info = _TargetInfo(state, target)
        return info.value(raw, None, p) - max(0.0, backlash) - cost

    def _support(self, state: BattleState, unit: UnitState) -> Action | None:
        """Repair a slashed ally in contact, or order a lower-level ally's CDT away."""
        if unit.card.has_repair_tools:
            for ally in sorted(state.active_units(unit.side), key=lambda u: str(u.id)):
                if ally is unit or ally.repairable < 3 or not in_contact(state, unit.pos,
                                                                         ally.pos):
                    continue
                hp = min(ally.repairable, 4)
                if p_success(unit.card.skills["tech"], 2 * hp) >= 0.7:
                    return Repair(unit.id, ally.id, hp)
        if unit.card.is_character:
            for ally in sorted(state.active_units(unit.side), key=lambda u: str(u.id)):
                if ally.card.level < unit.card.level and ally.cdt >= 3:
                    tokens = min(ally.cdt, 3)
                    difficulty = 3 * tokens + (5 if ally.haywire or unit.haywire else 0)
                    if p_success(unit.card.skills["will"], difficulty) >= 0.8:
                        return Order(unit.id, "technical", (ally.id,), tokens)
        return None

    def _advance(self, state: BattleState, unit: UnitState) -> Action | None:
        """Close in on the nearest enemy, stopping at point blank (contact for units with
        only contact weapons), ending beside a building (cover) when one is on the way."""
        if unit.immobilized_by is not None or unit.max_move_inches <= 0:
            return None
        enemies = state.enemies_of(unit.side)
        if not enemies:
            return None
        foe = min(enemies, key=lambda e: (distance(unit.pos, e.pos), str(e.id)))
        keep = 3.0 if unit.card.ranged_weapons else state.options["contact_distance"] * 0.9
        end = stop_short(unit.pos, foe.pos, unit.max_move_inches, keep)
        best_end, best_key = end, distance(end, foe.pos)
        for b in state.live_buildings():
            if state.hostile(unit.side, b.controller):
                continue
            spot = stop_short(b.pos, foe.pos, 0.9, 0.0)
            if distance(unit.pos, spot) <= unit.max_move_inches and distance(spot, foe.pos) >= keep:
                key = distance(spot, foe.pos) - 2.0  # cover is worth 2 inches
                if key < best_key and distance(spot, foe.pos) < distance(unit.pos, foe.pos):
                    best_end, best_key = spot, key
        if distance(best_end, unit.pos) < 0.01:
            return None
        return Move(unit.id, best_end)


def _kind(target: Target) -> str:
    return "building" if isinstance(target, BuildingState) else "unit"


class _TargetInfo:
    """What a decision reads of one target, computed once per decision (positions, cover,
    armour and hit points do not change while a policy thinks)."""

    __slots__ = ("_armor", "_state", "close_defense", "cover", "defense", "hp", "is_building",
                 "kind", "target")

    def __init__(self, state: BattleState, target: Target) -> None:
        self._state = state
        self.target = target
        self.is_building = isinstance(target, BuildingState)
        self.kind = "building" if self.is_building else "unit"
        self.cover = cover_increments(state, target)[0]
        self.defense = defense_of(target, close=False)
        self.close_defense = defense_of(target, close=True)
        self.hp = target.hp_left + (0 if self.is_building else target.shield_hp)
        self._armor: dict[str | None, int] = {}

    def armor(self, ignore: str | None) -> int:
        armor = self._armor.get(ignore)
        if armor is None:
            armor = self._armor[ignore] = effective_armor(self._state, self.target, ignore)
        return armor

    def value(self, raw: float, ignore: str | None, p: float) -> float:
        """Expected hit points taken off (with a bonus for a likely kill)."""
        dealt = max(0.0, raw - self.armor(ignore))
        hp = self.hp
        value = p * min(dealt, hp)
        if dealt >= hp:
            value += p * 8  # a likely kill: focus fire
        if self.is_building:
            value *= 0.5  # units decide the battle
        return value


def shooter_side(shooter: UnitState | BuildingState) -> str:
    return shooter.side if isinstance(shooter, UnitState) else shooter.controller


def default_policy_factory(side: str, options: dict[str, Any]) -> Policy:
    return DefaultPolicy(side, options)


__all__ = ["BattleView", "DefaultPolicy", "Policy", "PolicyFactory", "cover_increments",
           "default_policy_factory"]
