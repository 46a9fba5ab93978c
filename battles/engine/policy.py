"""Who does what: the `Policy` protocol and the deterministic `DefaultPolicy`.

A policy reads the battle through a `BattleView` (it must not change it) and returns one
action per turn; turrets ask it for a target. Other policies (scripted for tests, smarter
AIs, a human's standing orders) plug in through `resolve_battle(policy_factory=...)`.
"""

from __future__ import annotations

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
    misfire_threshold,
    projectile_blocked,
    range_difficulty,
)
from battles.engine.actions.move import move_cdt
from battles.engine.actions.ramming import RAM_CDT, ram_path
from battles.engine.actions.retreat import can_retreat
from battles.engine.card import WeaponCard
from battles.engine.damage import Target, effective_armor
from battles.engine.geometry import distance, increments, nearest_exit, stop_short, toward
from battles.engine.probability import p_success
from battles.engine.state import BattleState, BuildingState, UnitState

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
        for unit in ready:
            value, action = self._best_attack(state, unit, targets)
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
        mine = view.units(side)
        hurt = any(u.lost for u in mine) or len(mine) < sum(
            1 for u in view.state.units.values() if u.side == side)
        if hurt and view.hp_share(side) < threshold:
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
                    weapon: WeaponCard, target: Target, skill: int) -> float:
        if projectile_blocked(state, shooter.pos, weapon, target):
            return 0.0
        difficulty, info = range_difficulty(state, shooter, weapon, target)
        if weapon.blast_radius and any(
                u.side == shooter_side(shooter) and distance(u.pos, target.pos)
                <= weapon.blast_radius for u in state.units.values() if u.active):
            return 0.0  # friendly fire
        p = p_success(skill, difficulty) * (1 - misfire_threshold(shooter, weapon) / 8)
        raw = (weapon.base_damage or 0) + MEAN_DIE
        if "spread" in weapon.special:
            raw -= increments(info["distance"], 4)
        return self._value(state, target, raw, weapon.ignore_armor, p)

    @staticmethod
    def _value(state: BattleState, target: Target, raw: float, ignore: str | None,
               p: float) -> float:
        dealt = max(0.0, raw - effective_armor(state, target, ignore))
        hp = target.hp_left + (target.shield_hp if isinstance(target, UnitState) else 0)
        value = p * min(dealt, hp)
        if dealt >= hp:
            value += p * 8  # a likely kill: focus fire
        if isinstance(target, BuildingState):
            value *= 0.5  # units decide the battle
        return value

    def _best_attack(self, state: BattleState, unit: UnitState,
                     targets: list[Target]) -> tuple[float, Action | None]:
        best: tuple[float, str] = (0.0, "")
        action: Action | None = None
        fight = unit.card.skills["fight"]
        for target in targets:
            kind = "building" if isinstance(target, BuildingState) else "unit"
            for weapon in unit.card.weapons:
                if weapon.is_ranged:
                    value = self._shot_value(state, unit, weapon, target, fight)
                    candidate: Action = RangedAttack(unit.id, weapon.key, target.id, kind)
                elif weapon.is_contact and in_contact(state, unit.pos, target.pos):
                    p = p_success(fight, defense_of(target, close=True))
                    p *= 1 - weapon.misfire / 8
                    value = self._value(state, target, (weapon.base_damage or 0) + MEAN_DIE,
                                        weapon.ignore_armor, p)
                    candidate = CloseCombat(unit.id, weapon.key, target.id, kind)
                else:
                    continue
                key = (round(value, 6), f"{target.id}/{weapon.key}")
                if key > best:
                    best, action = key, candidate
            if kind == "unit" and not unit.card.is_infantry and unit.immobilized_by is None:
                assert isinstance(target, UnitState)
                value = self._ram_value(state, unit, target)
                key = (round(value, 6), f"{target.id}/ram")
                if key > best:
                    best, action = key, Ram(unit.id, target.id)
        return best[0], action

    def _ram_value(self, state: BattleState, unit: UnitState, target: UnitState) -> float:
        _end, crossed = ram_path(state, unit, target)
        if crossed > unit.max_move_inches:
            return 0.0
        p = p_success(unit.card.skills["pilot"], target.card.base_defense)
        raw = unit.card.weight + increments(crossed, 2) + MEAN_DIE
        backlash = (raw - unit.armor) * (1 / 8 + 2 / 8 * 0.5)
        cost = (move_cdt(unit, crossed) + RAM_CDT) / 4
        return self._value(state, target, raw, None, p) - max(0.0, backlash) - cost

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


def shooter_side(shooter: UnitState | BuildingState) -> str:
    return shooter.side if isinstance(shooter, UnitState) else shooter.controller


def default_policy_factory(side: str, options: dict[str, Any]) -> Policy:
    return DefaultPolicy(side, options)


__all__ = ["BattleView", "DefaultPolicy", "Policy", "PolicyFactory", "cover_increments",
           "default_policy_factory"]
