"""Who does what: the `Policy` protocol and the deterministic `DefaultPolicy`.

A policy reads the battle through a `BattleView` (it must not change it) and returns one
action per turn; turrets ask it for a target. Other policies (scripted for tests, smarter
AIs, a human's standing orders) plug in through `resolve_battle(policy_factory=...)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, Protocol, final

from battles.rulesets.unlimit3d8 import rules as BF
from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions import (
    Action,
    Assault,
    CloseCombat,
    Designate,
    EnterBunker,
    Lift,
    Move,
    Order,
    Pass,
    Piracy,
    Ram,
    RangedAttack,
    Repair,
    Retreat,
    Tackle,
    Warp,
)
from battles.rulesets.unlimit3d8.engine.actions.attack import (
    cover_increments,
    defense_of,
    in_contact,
    misfire_threshold,
    projectile_blocked,
)
from battles.rulesets.unlimit3d8.engine.actions.move import move_cdt
from battles.rulesets.unlimit3d8.engine.actions.piracy import lab_difficulty
from battles.rulesets.unlimit3d8.engine.actions.ramming import RAM_CDT, ram_path
from battles.rulesets.unlimit3d8.engine.actions.retreat import can_retreat
from battles.rulesets.unlimit3d8.engine.card import UnitCard, WeaponCard
from battles.rulesets.unlimit3d8.engine.damage import Target, effective_armor, force_field_at
from battles.rulesets.unlimit3d8.engine.geometry import (
    Point,
    distance,
    hypot,
    increments,
    nearest_exit,
    round_places,
    stop_short,
    toward,
)
from battles.rulesets.unlimit3d8.engine.probability import p_success
from battles.rulesets.unlimit3d8.engine.state import BattleState, BuildingState, UnitState

MEAN_DIE: Final = 4.5
#: Distances (a final name: a compiled module calls it without a dictionary look-up).
_HYPOT: Final = math.hypot
#: The tables' range steps, read for every candidate shot (a compiled module reads its
#: own final names directly, another module's through its attribute dictionary).
_RANGE_STEP: Final = BT.RANGE_INCREMENT_INCHES
_RANGE_STEP_INFANTRY: Final = BT.RANGE_INCREMENT_INCHES_INFANTRY
_ASSAULT_STEP: Final = BT.ASSAULT_RANGE_INCREMENT_INCHES


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
    def begin_choice(self, view: BattleView, side: str) -> None:
        """The side's turn has begun and it is about to choose (`begin_turn`): what the
        policy settles once a turn (and may record) it settles here, so `choose` can stay
        pure (the action layer's `legal` asks it without playing)."""
        ...

    def choose(self, view: BattleView, side: str) -> Action:
        """The action for `side` now; reads the battle and changes nothing."""
        ...

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
        self._settled = -1  # the state's turn `begin_choice` settled `retreating` for
        # This decision's shot values, by unit id: the targets `_best_pick` valued and the
        # value of each (target, ranged weapon), target by target (`_kept_shot` reads them).
        self._shots: dict[Any, tuple[list[Target], list[float], list[int]]] = {}
        # This decision's `infos` in the order of its targets (`_infos_in_order`).
        self._table: list[_TargetInfo] = []
        self._table_of: tuple[list[Target], dict[int, _TargetInfo]] | None = None
        # What each unit's card says of its weapons, read for every candidate attack.
        self._kits: dict[Any, _Kit] = {}
        # What does not change during a battle, worked out on its first decision: the
        # units in the order ties break on (str(id)), read for every decision.
        self._units_of: dict[Any, UnitState] | None = None  # the `state.units` they are of
        self._order: list[UnitState] = []
        # Cover (R-BAT-6) of a unit at a position while the same buildings stand: enemies
        # that did not move are shot at turn after turn from the same spot.
        self._covers: dict[int, tuple[Point, int]] = {}  # id(unit) -> (its position, cover)
        self._covers_of: dict[Any, BuildingState] | None = None  # the `state.buildings`
        self._covers_live = -1  # how many of them stood when `_covers` was filled

    # --- turrets -----------------------------------------------------------------
    def turret_target(self, view: BattleView, turret: BuildingState) -> Target | None:
        weapon = turret.weapon
        if weapon is None:
            return None
        skill = int(view.options["turret_fight_skill"])
        best: tuple[float, str] | None = None
        choice: Target | None = None
        for enemy in view.state.targetable_enemies(turret.controller):
            value = self._shot_value(view.state, turret, weapon, enemy, skill)
            key = (value, str(enemy.id))
            if value > 0 and (best is None or key > best):
                best, choice = key, enemy
        return choice

    # --- units ---------------------------------------------------------------------
    def choose(self, view: BattleView, side: str) -> Action:
        state = view.state
        ready = [u for u in self._units_in_order(state)
                 if u.cdt == 0 and u.active and u.side == side]
        if not ready:
            return _PASS
        plan = state.plans.get(side)
        if self._retreats(view, side, plan):
            return self._retreat(ready)
        for unit in ready:
            if unit.carrying is not None:
                away = self._carry_off(state, unit)
                if away is not None:
                    return away
        best_value = 0.0
        best_action: Action | None = None
        targets: list[Target] = list(state.targetable_enemies(side))
        live = state.live_buildings()
        targets += [b for b in live
                    if state.hostile(side, b.controller) and self._building_target(state, b)]
        covers = self._covers_now(state, len(live))
        table: list[_TargetInfo] = []
        infos: dict[int, _TargetInfo] = {}
        for t in targets:  # (a zip costs a generic call and iterator here, compiled)
            info = _TargetInfo(state, t, covers)
            table.append(info)
            infos[id(t)] = info
        self._table, self._table_of = table, (targets, infos)
        self._shots = {}
        if plan:
            planned = self._planned_attack(state, ready, targets, infos, plan)
            if planned is not None:
                return planned
        best_pick: tuple[UnitState, _Pick] | None = None
        for unit in ready:
            value, pick = self._best_pick(state, unit, targets, infos)
            if pick is not None and value > best_value and (
                    pick[0] != "ram" or _keeps_stance_moving(plan)):
                best_value, best_pick = value, (unit, pick)
        for unit in ready:
            value, action = self._special(state, unit, ready, targets, infos, best_value)
            if action is not None and value > best_value and _keeps_stance(action, plan):
                best_value, best_action, best_pick = value, action, None
        if best_value >= self.MIN_VALUE:
            if best_pick is not None:  # built once, for the best unit, when it is played
                return _pick_action(best_pick[0], best_pick[1])
            if best_action is not None:
                return best_action
        other = self._no_attack(state, ready, targets, infos, plan)
        if other is not None:
            return other
        if best_pick is not None:
            return _pick_action(best_pick[0], best_pick[1])
        return best_action or _PASS

    def _no_attack(self, state: BattleState, ready: list[UnitState], targets: list[Target],
                   infos: dict[int, _TargetInfo], plan: dict[str, Any] | None
                   ) -> Action | None:
        """What `choose` does when no attack is worth `MIN_VALUE`: support an ally, else
        (unless holding) lift or shelter, ram, close in; None: the best attack, if any."""
        for unit in ready:
            support = self._support(state, unit)
            if support is not None and _keeps_stance(support, plan):
                return support
        if plan and plan.get("stance") == "hold":
            return None
        for unit in ready:
            close = self._close_moves(state, unit)
            if close is not None:
                return close
        for unit in ready:
            charge = self._ram_charge(state, unit, targets, infos)
            if charge is not None:
                return charge
        for unit in ready:
            move = self._advance(state, unit)
            if move is not None:
                return move
        return None

    def _infos_in_order(self, state: BattleState, targets: list[Target],
                        infos: dict[int, _TargetInfo] | None) -> list[_TargetInfo]:
        """`infos` of each target in turn: the list `choose` built with them when these
        are its targets and infos, else read from `infos` (made when None)."""
        made = self._table_of
        if made is not None and made[0] is targets and made[1] is infos:
            return self._table
        if infos is None:
            return [_TargetInfo(state, t) for t in targets]
        return [infos[id(t)] for t in targets]

    def _kit_of(self, unit: UnitState) -> _Kit:
        """The unit's `_Kit`, kept while its card is the same."""
        card = unit.card
        kit = self._kits.get(unit.id)
        if kit is None or kit.card is not card:
            kit = self._kits[unit.id] = _Kit(card)
        return kit

    def _units_in_order(self, state: BattleState) -> list[UnitState]:
        """Every unit of the battle, sorted on str(id) (`sorted` keeps the table's order
        among equal keys, so filtering this list orders as sorting the filtered units)."""
        units = state.units
        if units is not self._units_of or len(self._order) != len(units):
            self._units_of = units  # a refused action's restore puts a copy in its place
            self._order = sorted(units.values(), key=lambda u: str(u.id))
        return self._order

    def _covers_now(self, state: BattleState, live: int) -> dict[int, tuple[Point, int]]:
        """The cover cache, emptied when a building fell (or the buildings were replaced)."""
        if state.buildings is not self._covers_of or live != self._covers_live:
            self._covers_of = state.buildings
            self._covers_live = live
            self._covers = {}
        return self._covers

    def begin_choice(self, view: BattleView, side: str) -> None:
        """Once a turn, before the choice: a side that is beaten (or whose sealed plan
        says to withdraw now, R-PLAN-2, recorded as `plan_withdraw`) retreats from now on.
        Only a turn with a ready unit decides it (a side with none passes unasked)."""
        state = view.state
        self._settled = state.turn
        if self.retreating or not any(u.cdt == 0 and u.active and u.side == side
                                      for u in state.units.values()):
            return
        plan = state.plans.get(side)
        if not plan:
            self.retreating = self._beaten(view, side)
        elif self._withdrawing(view, side, plan):
            self.retreating = True
            start = state.start_strength.get(side, 0)
            left = _strength_left(state, side)
            state.record("plan_withdraw", side=side, retreat_at=int(plan.get("retreat_at", 100)),
                         lost=round(100 * (start - left) / start) if start > 0 else 0,
                         stance=plan.get("stance", "attack"))

    def _retreats(self, view: BattleView, side: str, plan: dict[str, Any] | None) -> bool:
        """Whether the side retreats this turn: settled by `begin_choice` when it ran for
        this turn, else worked out here without latching or recording anything."""
        if self.retreating or self._settled == view.state.turn:
            return self.retreating
        return self._withdrawing(view, side, plan) if plan else self._beaten(view, side)

    @staticmethod
    def _building_target(state: BattleState, b: BuildingState) -> bool:
        """Turrets; bunkers sheltering enemies; generators of a field covering an enemy."""
        if not b.targetable:
            return False
        if b.weapon is not None or b.sheltered:
            return True
        if b.parent is not None:
            field = state.buildings[b.parent]
            return any(u.active and u.side == field.controller
                       and force_field_at(state, u.pos) is field for u in state.units.values())
        return False

    # --- the less common actions (R-BAT-31) ---------------------------------------------
    def _special(self, state: BattleState, unit: UnitState, ready: list[UnitState],
                 targets: list[Target], infos: dict[int, _TargetInfo], best_value: float
                 ) -> tuple[float, Action | None]:
        """Assault, designation, piracy and cohesion orders, valued like attacks."""
        best: tuple[float, Action | None] = self._assault(state, unit, targets, infos,
                                                          best_value)
        card = unit.card
        candidates = []
        if card.has_designator:
            candidates.append(self._designate(state, unit))
        if card.has_piracy:
            candidates.append(self._piracy(state, unit))
        if unit.in_bunker is None:
            candidates.append(self._tackle(state, unit, targets, infos))
        if card.is_character and len(ready) > 2:
            candidates.append(self._cohesion(state, unit, ready, targets, infos, best_value))
        for value, action in candidates:
            if action is not None and value > best[0]:
                best = (value, action)
        return best

    def _assault(self, state: BattleState, unit: UnitState, targets: list[Target],
                 infos: dict[int, _TargetInfo], floor: float = -math.inf
                 ) -> tuple[float, Action | None]:
        """Move to point blank and fire (increments every 2", tokens for both) when that
        beats firing from here by a clear margin. A weapon whose assault cannot be worth
        more than `floor` even at best is not worked out (`choose` passes the value an
        action must beat: such an assault would be turned down there)."""
        kit = self._kit_of(unit)
        if (unit.immobilized_by is not None or unit.in_bunker is not None
                or not kit.ranged or unit.max_move_inches < 2):
            return 0.0, None
        near = 0.0  # the nearest enemy unit, ties to the least str(id)
        foe: UnitState | None = None
        at = -1  # its position in `targets`
        table = self._infos_in_order(state, targets, infos)
        for i, t in enumerate(targets):
            if isinstance(t, UnitState):
                d = table[i].distance_from(unit)
                if foe is None or d < near or (d == near and str(t.id) < str(foe.id)):
                    near, foe, at = d, t, i
        if foe is None or near < _RANGE_STEP:
            return 0.0, None  # no enemy unit, or already at point blank
        info = table[at]
        fight = kit.fight
        reach = float(state.options["contact_distance"])
        max_move = unit.max_move_inches
        # What `stop_short` below will give, give or take its rounding to 1e-4: the move
        # is `travel` inches long and ends at least `closest` inches from the foe.
        travel = max(0.0, min(max_move, near - (reach + 0.5)))
        closest = min(near, max(near - max_move, reach + 0.5)) - 1e-3  # near - travel
        steps_min = increments(closest, _ASSAULT_STEP) if closest > 0 else 0
        tokens_min = move_cdt(unit, travel - 1e-3) if travel > 1e-3 else 0
        bounded = unit.card.move_increment >= 0  # tokens grow with the distance moved
        worth: list[tuple[WeaponCard, float]] = []  # (weapon, its shot from here)
        for k, arm in enumerate(kit.ranged):
            if arm.blast:
                continue
            weapon = arm.weapon
            best_case = math.inf
            if bounded:
                best_case = self._assault_best_case(unit, weapon, info, fight, steps_min,
                                                    tokens_min)
                if not best_case > floor:
                    continue
            here = self._kept_shot(unit, k, targets, at)
            if here is None:
                here = self._shot_value(state, unit, weapon, foe, fight, info)
            if not best_case > here * 1.25 + 0.5:
                continue
            worth.append((weapon, here))
        if not worth:
            return 0.0, None  # where the move ends cannot matter: not worked out
        end = stop_short(unit.pos, foe.pos, max_move, reach + 0.5)
        moved = distance(unit.pos, end)
        if moved < 2.0:
            return 0.0, None
        steps = increments(distance(end, foe.pos), _ASSAULT_STEP)
        best: tuple[float, Action | None] = (0.0, None)
        for weapon, here in worth:
            if projectile_blocked(state, end, weapon, foe):
                continue
            cover = 0 if weapon.no_line_of_sight else info.cover
            difficulty = info.defense + ((weapon.range_increment or 0) + unit.corroded) * (
                steps + cover)  # as `range_difficulty(..., assault=True, pos=end)`
            p = p_success(fight, difficulty) * (1 - misfire_threshold(unit, weapon) / 8)
            there = info.value((weapon.base_damage or 0) + MEAN_DIE, weapon.ignore_armor, p)
            there -= move_cdt(unit, moved) / 4
            if there > here * 1.25 + 0.5 and there > best[0]:
                best = (there, Assault(unit.id, end, weapon.key, foe.id))
        return best

    @staticmethod
    def _assault_best_case(unit: UnitState, weapon: WeaponCard, info: _TargetInfo,
                           fight: int, steps_min: int, tokens_min: int) -> float:
        """The most an assault with `weapon` can be worth: from the fewest range steps
        the move can leave (the test only gets harder with more, and the value rises with
        its odds) and with the fewest tokens it can cost (inf: no bound). `_assault`
        turns the weapon down when this does not beat firing from here by its margin."""
        inc = (weapon.range_increment or 0) + unit.corroded
        if inc < 0:
            return math.inf  # more steps would make it easier: no bound from the fewest
        cover = 0 if weapon.no_line_of_sight else info.cover
        p = p_success(fight, info.defense + inc * (steps_min + cover)) * (
            1 - misfire_threshold(unit, weapon) / 8)
        best_case = info.value((weapon.base_damage or 0) + MEAN_DIE, weapon.ignore_armor, p)
        return best_case - tokens_min / 4

    def _designate(self, state: BattleState, unit: UnitState) -> tuple[float, Action | None]:
        """Call a missile on the enemy cluster worth most, no friend within 6" of it."""
        if not unit.card.has_designator or not state.missiles.get(unit.side):
            return 0.0, None
        best: tuple[float, str, Action | None] = (0.0, "", None)
        friends = [u for u in state.active_units(unit.side) if u.in_bunker is None]
        for foe in state.targetable_enemies(unit.side):
            if distance(unit.pos, foe.pos) > BT.DESIGNATOR_RANGE:
                continue
            if any(distance(f.pos, foe.pos) <= BT.MISSILE_RADIUS + 2 for f in friends):
                continue
            caught = [e for e in state.targetable_enemies(unit.side)
                      if distance(e.pos, foe.pos) <= BT.MISSILE_RADIUS]
            value = sum(min(max(0, BT.MISSILE_DAMAGE - e.armor), e.hp_left + e.shield_hp)
                        for e in caught) / 2
            key = (value, str(foe.id))
            if key > best[:2]:
                best = (value, str(foe.id), Designate(unit.id, foe.id))
        return best[0], best[2]

    def _piracy(self, state: BattleState, unit: UnitState) -> tuple[float, Action | None]:
        """Thunder wire on an enemy turret, laboratory or ready unit in contact."""
        if unit.card.equipment("piracy") is None or unit.in_bunker is not None:
            return 0.0, None
        tech = unit.card.skills["tech"]
        best: tuple[float, str, Action | None] = (0.0, "", None)
        for b in state.live_buildings():
            if (not state.hostile(unit.side, b.controller) or not b.targetable
                    or not in_contact(state, unit.pos, b.pos)):
                continue
            if b.weapon is not None:
                value = p_success(tech, BT.TURRET_PIRACY_DIFFICULTY) * 12
            elif b.kind == "laboratory" and unit.side not in b.robbed_by:
                value = p_success(tech, lab_difficulty(state, b)) * 10
            else:
                continue
            if (value, str(b.id)) > best[:2]:
                best = (value, str(b.id), Piracy(unit.id, b.id, "building"))
        for foe in state.targetable_enemies(unit.side):
            if foe.cdt <= 1 and in_contact(state, unit.pos, foe.pos):
                value = p_success(tech, foe.card.base_defense) * 4
                if (value, str(foe.id)) > best[:2]:
                    best = (value, str(foe.id), Piracy(unit.id, foe.id))
        return best[0], best[2]

    def _cohesion(self, state: BattleState, unit: UnitState, ready: list[UnitState],
                  targets: list[Target], infos: dict[int, _TargetInfo], best_value: float
                  ) -> tuple[float, Action | None]:
        """A character orders lower-level ready allies to shoot one target together."""
        level = unit.card.level
        allies = [a for a in ready
                  if a is not unit and a.card.level < level and a.card.ranged_weapons]
        arms = [a.card.ranged_weapons for a in allies]
        if len(allies) < 2:
            return 0.0, None
        best: tuple[float, str] = (0.0, "")
        best_orders: list[tuple[UnitState, str]] = []
        best_target: _TargetInfo | None = None
        table = self._infos_in_order(state, targets, infos)
        for at, target in enumerate(targets):
            info = table[at]
            orders: list[tuple[UnitState, str]] = []  # (ally, weapon): built for the best
            total = 0.0
            for n, ally in enumerate(allies):
                shot = (0.0, "")  # its best (value, weapon), ties to the greatest key
                first = True
                for k, w in enumerate(arms[n]):
                    candidate = (self._ally_shot(state, ally, k, w, targets, at, info), w.key)
                    if first or candidate > shot:
                        shot, first = candidate, False
                if shot[0] >= self.MIN_VALUE:
                    total += shot[0]
                    orders.append((ally, shot[1]))
            if len(orders) < 2:
                continue
            haywire = 5 if unit.haywire or any(a.haywire for a, _key in orders) else 0
            p = p_success(unit.card.skills["will"], 3 * len(orders) + haywire)
            value = p * total
            if p >= 0.6 and value > best_value * 1.5 and (value, str(target.id)) > best:
                best, best_orders, best_target = (value, str(target.id)), orders, info
        if best_target is None:
            return 0.0, None
        target_id, kind = best_target.target.id, best_target.kind
        shots = tuple(RangedAttack(a.id, key, target_id, kind) for a, key in best_orders)
        return best[0], Order(unit.id, "cohesion", tuple(o.unit for o in shots), orders=shots)

    def _tackle(self, state: BattleState, unit: UnitState, targets: list[Target],
                infos: dict[int, _TargetInfo]) -> tuple[float, Action | None]:
        """An aggressive tackle on an enemy vehicle in contact: half the contact damage and
        it cannot move, ram, warp or retreat (worth more on a container carrier)."""
        best: tuple[float, str, Action | None] = (0.0, "", None)
        fight = unit.card.skills["fight"]
        base = -1  # its best contact weapon's base damage, once a foe is in reach
        reach = float(state.options["contact_distance"]) + 1e-9
        table = self._infos_in_order(state, targets, infos)
        for i, foe in enumerate(targets):
            if (not isinstance(foe, UnitState) or foe.immobilized_by is not None
                    or foe.card.is_infantry or table[i].distance_from(unit) > reach):
                continue
            if base < 0:
                base = max((w.base_damage or 0 for w in unit.card.contact_weapons
                            if not (w.key == "grappling_arms" and unit.carrying is not None)),
                           default=0)
            p = p_success(fight, foe.close_defense + BT.IMMOBILIZE_EXTRA_DIFFICULTY)
            dealt = max(0.0, (base + MEAN_DIE) / 2 - foe.armor)
            value = p * (min(dealt, foe.hp_left + foe.shield_hp) + 3
                         + (16 if foe.carrying is not None else 0))
            if (value, str(foe.id)) > best[:2]:
                best = (value, str(foe.id), Tackle(unit.id, foe.id, aggressive=True))
        return best[0], best[2]

    def _ally_shot(self, state: BattleState, ally: UnitState, k: int, weapon: WeaponCard,
                   targets: list[Target], at: int, info: _TargetInfo) -> float:
        value = self._kept_shot(ally, k, targets, at)
        if value is None:
            value = self._shot_value(state, ally, weapon, targets[at], ally.card.skills["fight"],
                                     info)
        return value

    def _kept_shot(self, unit: UnitState, k: int, targets: list[Target], at: int
                   ) -> float | None:
        """The value `_best_pick` gave this decision to the shot of the unit's `k`th ranged
        weapon at `targets[at]` (None: it did not value that list of targets). As the store
        keyed on (unit, weapon key, target) it replaces did: of two ranged weapons with one
        key, the later one's value."""
        kept = self._shots.get(unit.id)
        if kept is None or kept[0] is not targets:
            return None
        slots = kept[2]
        return kept[1][at * len(slots) + slots[k]]

    def _carry_off(self, state: BattleState, unit: UnitState) -> Action | None:
        """A unit (or lorry) holding an enemy's container takes it away (R-BAT-28)."""
        cargo = state.cargo[unit.carrying] if unit.carrying is not None else None
        if cargo is None or not state.hostile(unit.side, cargo.owner):
            return None
        if can_retreat(unit):
            return Retreat(unit=unit.id)
        if unit.immobilized_by is None and unit.max_move_inches > 0:
            return Move(unit=unit.id, to=toward(unit.pos, nearest_exit(unit.pos),
                                                unit.max_move_inches))
        return None

    def _close_moves(self, state: BattleState, unit: UnitState) -> Action | None:
        """Lift a container, shelter in a bunker."""
        if unit.in_bunker is not None:
            return None
        if unit.card.lifting_arms is not None and unit.carrying is None:
            for cargo in sorted(state.cargo.values(), key=lambda c: str(c.id)):
                if (cargo.carrier is None and not cargo.lost
                        and state.hostile(unit.side, cargo.owner)
                        and in_contact(state, unit.pos, cargo.pos)):
                    return Lift(unit.id, cargo.id)
        if unit.card.is_infantry and unit.card.ranged_weapons:
            for b in sorted(state.live_buildings(), key=lambda b: str(b.id)):
                if (b.kind == "bunker" and b.controller == unit.side
                        and len(b.sheltered) < BT.BUNKER_CAPACITY
                        and distance(unit.pos, b.pos) - state.options["contact_distance"]
                        <= unit.max_move_inches and unit.immobilized_by is None):
                    return EnterBunker(unit.id, b.id)
        return None

    def _warp(self, state: BattleState, unit: UnitState, foe: UnitState) -> Action | None:
        """Warp next to a far enemy when the Tech test is likely and nobody of ours is
        within the blastwave."""
        drive = unit.card.equipment("warping")
        if drive is None or unit.immobilized_by is not None:
            return None
        dist = distance(unit.pos, foe.pos)
        step = BF.warp_increment_inches(drive.size)
        tech = unit.card.skills["tech"]
        k = 0  # the most increments a likely (p >= 0.5) test allows
        while k < 8 and p_success(tech, BT.WARP_DIFFICULTY_PER_INCREMENT * (k + 1)) >= 0.5:
            k += 1
        jump = min(dist - 3.0, k * step)
        if jump <= unit.max_move_inches + 1.0:
            return None  # walking does as well
        spot = toward(unit.pos, foe.pos, jump)
        steps = max(1, math.ceil(distance(unit.pos, spot) / step - 1e-9))
        reach = state.options["contact_distance"]
        crowd = [u.pos for u in state.units.values() if u.active and u is not unit] + [
            b.pos for b in state.buildings.values() if not b.destroyed]
        if any(distance(pos, spot) <= reach + 1e-9 for pos in crowd):
            return None
        if any(distance(u.pos, spot) <= steps for u in state.active_units(unit.side)
               if u is not unit):
            return None
        return Warp(unit.id, spot)

    @staticmethod
    def _beaten(view: BattleView, side: str) -> bool:
        """Hit point share below `retreat_threshold` after taking losses (pure)."""
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
        return hurt and share < threshold

    # --- a sealed plan (issue 29; docs/RULINGS.md R-PLAN-1..4) ------------------------
    @staticmethod
    def _withdrawing(view: BattleView, side: str, plan: dict[str, Any]) -> bool:
        """R-PLAN-2: `withdraw` leaves at once; otherwise the side withdraws once it has
        lost `retreat_at` percent of its starting strength (hit points and shield points,
        R-PLAN-1); 100 fights to the end. Pure: `begin_choice` latches and records it."""
        retreat_at = int(plan.get("retreat_at", 100))
        start = view.state.start_strength.get(side, 0)
        left = _strength_left(view.state, side)
        return plan.get("stance") == "withdraw" or (
            retreat_at < 100 and start > 0 and (start - left) * 100 >= retreat_at * start)

    def _planned_attack(self, state: BattleState, ready: list[UnitState],
                        targets: list[Target], infos: dict[int, _TargetInfo],
                        plan: dict[str, Any]) -> Action | None:
        """R-PLAN-4: the plan's focus picks the enemy unit to hurt first (the nearest to
        the side's ready units, the one with the fewest or the most hit points left); the
        best attack on it that keeps the stance, if one is worth making."""
        foes = [t for t in targets if isinstance(t, UnitState)]
        if not foes:
            return None
        focus = plan.get("focus", "nearest")
        if focus == "weakest":
            foes.sort(key=lambda u: (u.hp_left + u.shield_hp, str(u.id)))
        elif focus == "strongest":
            foes.sort(key=lambda u: (-(u.hp_left + u.shield_hp), str(u.id)))
        else:
            foes.sort(key=lambda u: (min(distance(u.pos, r.pos) for r in ready), str(u.id)))
        first: list[Target] = [foes[0]]
        best_value, best_action = 0.0, None
        for unit in ready:
            value, action = self._best_attack(state, unit, first, infos)
            if action is not None and value > best_value and _keeps_stance(action, plan):
                best_value, best_action = value, action
        return best_action if best_value > 0 else None

    def _retreat(self, ready: list[UnitState]) -> Action:
        for unit in ready:
            if can_retreat(unit):
                return Retreat(unit=unit.id)
        for unit in ready:
            if unit.immobilized_by is None and unit.max_move_inches > 0:
                return Move(unit=unit.id, to=toward(unit.pos, nearest_exit(unit.pos),
                                                    unit.max_move_inches))
        return _PASS

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
        if isinstance(shooter, UnitState):
            dist = info.distance_from(shooter)
            step = _RANGE_STEP_INFANTRY if shooter.card.is_infantry else _RANGE_STEP
            inc = (weapon.range_increment or 0) + shooter.corroded
            side = shooter.side
            haywire = shooter.haywire
        else:
            spos = shooter.pos
            dist = _HYPOT(spos[0] - tpos[0], spos[1] - tpos[1])
            step = _RANGE_STEP
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
        """The most valuable attack of `unit` and its value (`_best_pick`, as an action)."""
        value, pick = self._best_pick(state, unit, targets, infos)
        return value, (None if pick is None else _pick_action(unit, pick))

    def _best_pick(self, state: BattleState, unit: UnitState,
                   targets: list[Target],
                   infos: dict[int, _TargetInfo] | None = None
                   ) -> tuple[float, _Pick | None]:
        """The most valuable attack of `unit` (value rounded to 6 places; ties go to the
        greatest "target/weapon" label). Candidates are compared before any action object
        is built, and a candidate clearly below the best is dropped before it is rounded
        (rounding moves a value by 5e-7 at most) or labelled (labels are only compared on
        a tie; an attack worth 0 is never a pick, as no caller takes one): this runs for
        every ready unit on every turn."""
        ranking = _Ranking()
        kit = self._kit_of(unit)
        fight = kit.fight
        reach = float(state.options["contact_distance"]) + 1e-9
        ram = not kit.infantry and unit.immobilized_by is None
        ram_reach = float(state.options["contact_distance"])  # as `_ram_value` reads it
        max_move = unit.max_move_inches
        row: list[float] = []  # the ranged shots' values, target by target
        arms = kit.arms
        table = self._infos_in_order(state, targets, infos)
        for at, target in enumerate(targets):
            info = table[at]
            contact = info.distance_from(unit) <= reach
            for arm in arms:
                if arm.ranged:
                    value = _arm_value(state, unit, kit, arm, target, info)
                    row.append(value)
                    ranking.offer(value, "ranged", target, arm.weapon)
                elif arm.contact and contact:
                    p = p_success(fight, info.close_defense)
                    p *= 1 - arm.misfire / 8
                    value = info.value(arm.raw, arm.ignore, p)
                    ranking.offer(value, "close", target, arm.weapon)
            if ram and not info.is_building and (
                    info.distance_from(unit) - ram_reach <= max_move + 0.01):
                assert isinstance(target, UnitState)  # (out of reach: worth 0, not offered)
                value = self._ram_value(state, unit, target, info, ranking.floor())
                ranking.offer(value, "ram", target, None)
        self._shots[unit.id] = (targets, row, kit.slots)
        return ranking.value(), ranking.pick

    def _ram_value(self, state: BattleState, unit: UnitState, target: UnitState,
                   info: _TargetInfo | None = None, floor: float = -math.inf) -> float:
        """The ram's worth; 0.0 (which no pick takes) out of reach, or when even its best
        case (the longest run, no backlash, no move tokens) falls below `floor`."""
        max_move = unit.max_move_inches
        reach = float(state.options["contact_distance"])
        if info is None:
            info = _TargetInfo(state, target)
        if info.distance_from(unit) - reach > max_move + 0.01:
            return 0.0  # out of reach (ram_path would say the same, without the rounding)
        p = p_success(unit.card.skills["pilot"], target.card.base_defense)
        if unit.card.move_increment >= 0:  # move tokens are then never negative
            longest = unit.card.weight + increments(max_move, 2) + MEAN_DIE
            if info.value(longest, None, p) - RAM_CDT / 4 < floor:
                return 0.0
        _end, crossed = ram_path(state, unit, target)
        if crossed > max_move:
            return 0.0
        raw = unit.card.weight + increments(crossed, 2) + MEAN_DIE
        backlash = (raw - unit.armor) * (1 / 8 + 2 / 8 * 0.5)
        cost = (move_cdt(unit, crossed) + RAM_CDT) / 4
        return info.value(raw, None, p) - max(0.0, backlash) - cost

    def _ram_charge(self, state: BattleState, unit: UnitState, targets: list[Target],
                    infos: dict[int, _TargetInfo]) -> Action | None:
        """A vehicle with no weapon that can hurt an enemy unit rams (seed, "Ramming
        (pilot)": "damages are weight class of the attacker + every 2 inches crossed +
        active die result"): the nearest enemy its ram can hurt (R-BAT-33), at once when in
        reach, else it closes in by free 2" moves."""
        if (unit.card.is_infantry or unit.immobilized_by is not None
                or unit.in_bunker is not None or unit.carrying is not None
                or unit.max_move_inches <= 0):
            return None
        foes = [t for t in targets if isinstance(t, UnitState)]
        if not foes or self._weapons_can_hurt(unit, foes, infos):
            return None
        pilot = unit.card.skills["pilot"]
        potential = unit.card.weight + increments(unit.max_move_inches, 2) + 8
        reach = state.options["contact_distance"]
        best: tuple[float, str] | None = None
        foe: UnitState | None = None
        for t in foes:
            info = infos[id(t)]
            if potential <= info.armor(None) or p_success(pilot, info.defense) <= 0:
                continue
            key = (distance(unit.pos, t.pos), str(t.id))
            if best is None or key < best:
                best, foe = key, t
        if foe is None or best is None:
            return None
        if best[0] - reach <= unit.max_move_inches + 1e-6:
            _end, crossed = ram_path(state, unit, foe)
            if crossed <= unit.max_move_inches + 1e-3:
                return Ram(unit.id, foe.id)
        step = unit.max_move_inches if move_cdt(unit, unit.max_move_inches) == 0 else 2.0
        end = stop_short(unit.pos, foe.pos, min(step, unit.max_move_inches), reach)
        return Move(unit.id, end) if distance(end, unit.pos) >= 0.01 else None

    @staticmethod
    def _weapons_can_hurt(unit: UnitState, foes: list[UnitState],
                          infos: dict[int, _TargetInfo]) -> bool:
        """Whether a shot or blow of one of its weapons could go through some enemy's
        armour (the best die: base damage + 8)."""
        for w in unit.card.weapons:
            if w.base_damage is None or not (w.is_ranged or w.is_contact):
                continue
            if w.key == "grappling_arms" and unit.carrying is not None:
                continue
            if any(w.base_damage + 8 > infos[id(f)].armor(w.ignore_armor) for f in foes):
                return True
        return False

    def _support(self, state: BattleState, unit: UnitState) -> Action | None:
        """Repair a slashed ally in contact, or order a lower-level ally's CDT away."""
        allies = [u for u in self._units_in_order(state) if u.active and u.side == unit.side]
        if unit.card.has_repair_tools:
            for ally in allies:
                if ally is unit or ally.repairable < 3 or not in_contact(state, unit.pos,
                                                                         ally.pos):
                    continue
                hp = min(ally.repairable, 4)
                if p_success(unit.card.skills["tech"], 2 * hp) >= 0.7:
                    return Repair(unit.id, ally.id, hp)
        if unit.card.is_character:
            for ally in allies:
                # designation tokens cannot be ordered away (R-BAT-27): only the rest
                free = ally.cdt - state.locked_cdt(ally)
                if ally.card.level < unit.card.level and free >= 3:
                    tokens = min(free, 3)
                    difficulty = 3 * tokens + (5 if ally.haywire or unit.haywire else 0)
                    if p_success(unit.card.skills["will"], difficulty) >= 0.8:
                        return Order(unit.id, "technical", (ally.id,), tokens)
        return None

    @staticmethod
    def _errand(state: BattleState, unit: UnitState) -> Point | None:
        if not state.cargo and unit.card.equipment("piracy") is None:
            return None
        return _errand_goal(state, unit)

    def _advance(self, state: BattleState, unit: UnitState) -> Action | None:
        """Close in on the nearest enemy, stopping at point blank (contact for units with
        only contact weapons), ending beside a building (cover) when one is on the way."""
        if (unit.immobilized_by is not None or unit.max_move_inches <= 0
                or unit.in_bunker is not None or not unit.card.weapons):
            return None
        goal = self._errand(state, unit)
        if goal is not None:
            end = stop_short(unit.pos, goal, unit.max_move_inches,
                              state.options["contact_distance"] * 0.9)
            return Move(unit.id, end) if distance(end, unit.pos) >= 0.01 else None
        enemies = state.enemies_of(unit.side)
        if not enemies:
            return None
        foe = enemies[0]  # the nearest, ties to the least str(id) (the first of equals)
        near = distance(unit.pos, foe.pos)
        for e in enemies:
            d = distance(unit.pos, e.pos)
            if d < near or (d == near and str(e.id) < str(foe.id)):
                foe, near = e, d
        warp = self._warp(state, unit, foe)
        if warp is not None:
            return warp
        keep = 3.0 if unit.card.ranged_weapons else state.options["contact_distance"] * 0.9
        end = stop_short(unit.pos, foe.pos, unit.max_move_inches, keep)
        best_end, best_key = end, distance(end, foe.pos)
        max_move = unit.max_move_inches
        for b in state.live_buildings():
            if state.hostile(unit.side, b.controller):
                continue
            if distance(unit.pos, b.pos) - 0.901 > max_move:
                continue  # the spot (0.9" from it, give or take 1e-4) is out of reach
            spot = stop_short(b.pos, foe.pos, 0.9, 0.0)
            to_foe = distance(spot, foe.pos)
            if distance(unit.pos, spot) <= max_move and to_foe >= keep:
                key = to_foe - 2.0  # cover is worth 2 inches
                if key < best_key and to_foe < near:
                    best_end, best_key = spot, key
        if distance(best_end, unit.pos) < 0.01:
            return None
        return Move(unit.id, best_end)


def _strength_left(state: BattleState, side: str) -> int:
    """R-PLAN-1: the side's hit and shield points still on the table or retreated."""
    return sum(u.hp_left + u.shield_hp for u in state.units.values()
               if u.side == side and (u.active or u.retreated))


def _errand_goal(state: BattleState, unit: UnitState) -> Point | None:
    """Where a lifter (enemy containers) or a pirate (enemy turrets, laboratories) goes."""
    spots: list[tuple[float, str, Point]] = []
    if unit.card.lifting_arms is not None and unit.carrying is None:
        spots += [(distance(unit.pos, c.pos), str(c.id), c.pos) for c in state.cargo.values()
                  if c.carrier is None and not c.lost and state.hostile(unit.side, c.owner)]
    if unit.card.equipment("piracy") is not None:
        spots += [(distance(unit.pos, b.pos), str(b.id), b.pos)
                  for b in state.live_buildings()
                  if b.targetable and state.hostile(unit.side, b.controller)
                  and (b.weapon is not None or (b.kind == "laboratory"
                                                and unit.side not in b.robbed_by))]
    return min(spots)[2] if spots else None


#: The policies' "do nothing" (immutable: one for every pass).
_PASS: Final = Pass(unit="")

#: R-PLAN-3: what a side holding its ground does not do (anything that moves it).
_MOVING = (Move, Assault, Warp, Ram, Tackle, Retreat)


def _keeps_stance(action: Action, plan: dict[str, Any] | None) -> bool:
    if not plan or plan.get("stance") != "hold":
        return True
    if isinstance(action, Order):
        return action.move_to is None and all(_keeps_stance(o, plan) for o in action.orders)
    return not isinstance(action, _MOVING)


@final
class _Ranking:
    """The most valuable attack offered so far, as `_best_pick` ranks them: on the value
    rounded to 6 places, ties to the greatest "target/weapon" label, an attack worth 0
    never picked. A value more than 2e-6 from the best is ranked without rounding either
    (rounding moves a value by 5e-7 at most, so it cannot swap or tie them); `round` only
    settles near-ties, and the best value once, at the end."""

    def __init__(self) -> None:
        self.raw = 0.0  # the best value as offered
        self.rounded = 0.0  # ... rounded (valid while `rounded_known`)
        self.rounded_known = True
        self.label: str | None = ""  # the best's label (None: not worked out yet)
        self.pick: _Pick | None = None

    def floor(self) -> float:
        """Anything below cannot rank: an offer would be turned down."""
        return self.raw - 2e-6

    def value(self) -> float:
        if not self.rounded_known:
            self.rounded = _round6(self.raw)
            self.rounded_known = True
        return self.rounded

    def offer(self, value: float, how: str, target: Target, weapon: WeaponCard | None) -> None:
        raw = self.raw
        if value < raw - 2e-6:
            return
        if value > raw + 2e-6:
            self.raw, self.rounded_known = value, False
            self.label, self.pick = None, (how, target, weapon)
            return
        rounded = _round6(value)
        best = self.value()
        if rounded < best:
            return
        if rounded > best:
            self.raw, self.rounded = value, rounded
            self.label, self.pick = None, (how, target, weapon)
            return
        if rounded == 0.0:
            return  # a tie at nothing: no caller takes an attack worth 0
        label = f"{target.id}/{'ram' if weapon is None else weapon.key}"
        if self.label is None:
            self.label = _label(self.pick)
        if label > self.label:
            self.raw, self.rounded = value, rounded
            self.label, self.pick = label, (how, target, weapon)


def _label(best: tuple[str, Target, WeaponCard | None] | None) -> str:
    """The "target/weapon" (or "target/ram") label a best attack is tie-broken on."""
    if best is None:
        return ""
    _how, target, weapon = best
    return f"{target.id}/{'ram' if weapon is None else weapon.key}"


#: A best attack before its action is built: ("ranged" | "close" | "ram", target, weapon).
_Pick = tuple[str, Target, WeaponCard | None]


def _pick_action(unit: UnitState, pick: _Pick) -> Action:
    how, target, chosen = pick
    if how == "ram":
        return Ram(unit.id, target.id)
    assert chosen is not None
    if how == "ranged":
        return RangedAttack(unit.id, chosen.key, target.id, _kind(target))
    return CloseCombat(unit.id, chosen.key, target.id, _kind(target))


@final
class _Arm:
    """What the policy reads of one weapon line for every candidate attack."""

    __slots__ = ("blast", "contact", "ignore", "increment", "misfire", "projectile", "ranged",
                 "raw", "sight", "spread", "weapon")

    def __init__(self, weapon: WeaponCard) -> None:
        self.weapon = weapon
        self.ranged = weapon.is_ranged
        self.contact = weapon.is_contact
        self.projectile = weapon.is_projectile
        self.sight = not weapon.no_line_of_sight  # cover counts against it
        self.blast = weapon.blast_radius
        self.spread = "spread" in weapon.special
        self.raw = (weapon.base_damage or 0) + MEAN_DIE  # the mean damage before armour
        self.increment = weapon.range_increment or 0
        self.misfire = weapon.misfire
        self.ignore = weapon.ignore_armor


@final
class _Kit:
    """A unit card's weapons as `_Arm`s (in the card's order) and what the policy reads
    of the card with them, worked out once a battle per card."""

    __slots__ = ("arms", "card", "fight", "infantry", "ranged", "slots", "step")

    def __init__(self, card: UnitCard) -> None:
        self.card = card
        self.arms = [_Arm(w) for w in card.weapons]
        self.ranged = [arm for arm in self.arms if arm.ranged]  # `ranged_weapons`' order
        self.fight = card.skills["fight"]
        self.infantry = card.is_infantry
        self.step = _RANGE_STEP_INFANTRY if card.is_infantry else _RANGE_STEP
        self.slots = _last_of_key(card.ranged_weapons)  # `_kept_shot`'s


def _arm_value(state: BattleState, unit: UnitState, kit: _Kit, arm: _Arm, target: Target,
               info: _TargetInfo) -> float:
    """`DefaultPolicy._shot_value` of a unit's ranged weapon, the same arithmetic read
    from its kit."""
    if arm.projectile and projectile_blocked(state, unit.pos, arm.weapon, target):
        return 0.0
    dist = info.distance_from(unit)
    steps = increments(dist, kit.step)
    cover = info.cover if arm.sight else 0
    difficulty = info.defense + (arm.increment + unit.corroded) * (steps + cover)
    blast = arm.blast
    if blast:
        tpos = target.pos
        side = unit.side
        if any(u.side == side and distance(u.pos, tpos) <= blast
               for u in state.units.values() if u.active):
            return 0.0  # friendly fire
    misfire = arm.misfire + 2 if unit.haywire else arm.misfire
    p = p_success(kit.fight, difficulty) * (1 - misfire / 8)
    raw = arm.raw
    if arm.spread:
        raw -= _spread_steps(dist)
    return info.value(raw, arm.ignore, p)


def _spread_steps(dist: float) -> int:
    """`increments(round(dist, 3), 4)`: rounding to 3 places moves a distance by 5e-4 at
    most, which cannot cross a multiple of 4 that is further than 1e-3 away (`round`
    formats a string: it is only asked near one)."""
    whole = dist // 4
    left = dist - whole * 4
    if 1e-3 < left < 4 - 1e-3:
        return int(whole + 1e-9)
    return increments(round(dist, 3), 4)


def _last_of_key(ranged: tuple[WeaponCard, ...]) -> list[int]:
    """For each ranged weapon, the last one with its key (`_kept_shot` reads its value)."""
    n = len(ranged)
    slots = list(range(n))
    for k in range(n):
        key = ranged[k].key
        for j in range(n - 1, k, -1):
            if ranged[j].key == key:
                slots[k] = j
                break
    return slots


def _keeps_stance_moving(plan: dict[str, Any] | None) -> bool:
    """`_keeps_stance` of a moving action (a ram): only without a plan to hold."""
    return not plan or plan.get("stance") != "hold"


def _round6(value: float) -> float:
    """`round(value, 6)`, bit for bit (`geometry.round_places`)."""
    return round_places(value, 1e6, 6)


def _kind(target: Target) -> str:
    return "building" if isinstance(target, BuildingState) else "unit"


class _TargetInfo:
    """What a decision reads of one target, computed once per decision (positions, cover,
    armour and hit points do not change while a policy thinks)."""

    __slots__ = ("_armor", "_cover", "_covers", "_distance", "_from", "_full_armor", "_state",
                 "close_defense", "defense", "hp", "is_building", "kind", "target")

    def __init__(self, state: BattleState, target: Target,
                 covers: dict[int, tuple[Point, int]] | None = None) -> None:
        self._state = state
        self._covers = covers  # the policy's cover of each unit where it was, if it keeps one
        self.target = target
        self.is_building = isinstance(target, BuildingState)
        self.kind = "building" if self.is_building else "unit"
        self._cover: int | None = None
        self.defense = defense_of(target, close=False)
        self.close_defense = defense_of(target, close=True)
        self.hp = target.hp_left + (target.shield_hp if isinstance(target, UnitState) else 0)
        self._armor: dict[str | None, int] | None = None  # by piercing ("half", "all")
        self._full_armor = -1  # ... and without (-1: not worked out yet)
        self._from: UnitState | None = None  # the unit `_distance` is from
        self._distance = 0.0

    def distance_from(self, unit: UnitState) -> float:
        """Inches from `unit` (kept for the last unit asked: they ask one after another)."""
        if self._from is not unit:
            upos = unit.pos
            tpos = self.target.pos
            self._distance = hypot(upos[0] - tpos[0], upos[1] - tpos[1])
            self._from = unit
        return self._distance

    @property
    def cover(self) -> int:
        cover = self._cover
        if cover is None:
            target = self.target
            covers = self._covers
            if covers is None or not isinstance(target, UnitState):
                cover = cover_increments(self._state, target)[0]
            else:
                kept = covers.get(id(target))
                if kept is not None and kept[0] == target.pos:
                    cover = kept[1]
                else:
                    cover = cover_increments(self._state, target)[0]
                    covers[id(target)] = (target.pos, cover)
            self._cover = cover
        return cover

    def armor(self, ignore: str | None) -> int:
        if ignore is None:
            if self._full_armor < 0:
                self._full_armor = effective_armor(self._state, self.target, None)
            return self._full_armor
        pierced = self._armor
        if pierced is None:
            pierced = self._armor = {}
        armor = pierced.get(ignore)
        if armor is None:
            armor = pierced[ignore] = effective_armor(self._state, self.target, ignore)
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


class HoldPolicy:
    """Standing orders to hold: the side never acts and its turrets never fire (a player
    who keeps a garrison passive, or a test's inert opponent)."""

    def __init__(self, side: str, options: dict[str, Any] | None = None) -> None:
        self.side = side

    def begin_choice(self, view: BattleView, side: str) -> None:
        return None

    def choose(self, view: BattleView, side: str) -> Action:
        return _PASS

    def turret_target(self, view: BattleView, turret: BuildingState) -> Target | None:
        return None


POLICIES: dict[str, PolicyFactory] = {"default": default_policy_factory, "hold": HoldPolicy}


def policies_by_side(choice: dict[str, str]) -> PolicyFactory:
    """A factory giving each side the named policy (`POLICIES`), the default otherwise."""
    unknown = sorted(set(choice.values()) - set(POLICIES))
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; known: {', '.join(POLICIES)}")

    def factory(side: str, options: dict[str, Any]) -> Policy:
        return POLICIES[choice.get(side, "default")](side, options)

    return factory


__all__ = ["POLICIES", "BattleView", "DefaultPolicy", "HoldPolicy", "Policy", "PolicyFactory",
           "cover_increments", "default_policy_factory", "policies_by_side"]
