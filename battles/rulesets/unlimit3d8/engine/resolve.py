"""Resolve a whole battle: deploy, alternate turns, decide the winner, report.

Seed, "Tactical phase": units "engage into battle until all the units of one side are
either destroyed or retreat to an adjacent territory". Deployment: "All the defending units
are placed within the limits of the space represented by the territorial map. All the
attacking units are placed within the relevant section of the retreat corridor and at a
minimum distance of 4" of any enemy unit".
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from math import hypot
from typing import Any, final

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions import Action
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.card import build_card, turret_weapon_card
from battles.rulesets.unlimit3d8.engine.dice import DiceSource, SeededDice
from battles.rulesets.unlimit3d8.engine.geometry import (
    Point,
    attacker_slots,
    defender_slots,
    distance,
    edge_distance,
    square_centre,
)
from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BattleResult,
    BuildingOutcome,
    CargoOutcome,
    UnitInput,
    UnitOutcome,
    XpEvent,
)
from battles.rulesets.unlimit3d8.engine.options import merged
from battles.rulesets.unlimit3d8.engine.policy import (
    BattleView,
    DefaultPolicy,
    Policy,
    PolicyFactory,
    default_policy_factory,
)
from battles.rulesets.unlimit3d8.engine.state import (
    BattleState,
    BuildingState,
    CargoState,
    UnitState,
)
from battles.rulesets.unlimit3d8.engine.turn import begin_turn, take_action
from campaign.rules import tables as T

MIN_DEPLOY_DISTANCE = 4.0

# Bonus XP each class earns in battle (seed, the lists after each pilot-class table, read
# from the one table in campaign.rules.tables), at most once per battle per kind (R-BAT-24).
CLASS_BONUS: dict[str, tuple[str, ...]] = {
    key: T.battle_bonus_kinds(key) for key in T.PILOT_CLASSES}


def _tactic_control_bonus(battle: BattleInput) -> Any:
    """Command center upgrade Tactic Control: "Grants the highest level character a +1 to
    their Will skill" (R-BAT-25: the defender's; ties go to the first listed)."""
    has = any(b.kind == "command_center" and b.active and "tactic_control" in b.upgrades
              and (b.hit_points is None or b.hit_points > 0) for b in battle.buildings)
    if not has:
        return None
    chars = [u for u in battle.sides.get(battle.defender, ()) if u.is_character]
    if not chars:
        return None
    return max(chars, key=lambda u: u.pilot_level).id


def build_state(battle: BattleInput, dice: DiceSource, *, keep_log: bool = True) -> BattleState:
    """Deploy every unit and building (R-BAT-1) and return the starting state."""
    options = merged(battle.options)
    bonus_id = _tactic_control_bonus(battle)
    units: dict[Any, UnitState] = {}
    attacker_band = 0
    for side, roster in battle.sides.items():
        if side == battle.defender:
            slots = defender_slots(len(roster))
        else:
            slots = attacker_slots(len(roster), attacker_band)
            attacker_band += 1
        for unit, slot in zip(roster, slots, strict=True):
            if unit.id in units:
                raise ValueError(f"duplicate unit id {unit.id!r}")
            units[unit.id] = _unit_state(unit, side, slot, will_bonus=int(unit.id == bonus_id))
    placed = {u.id for roster in battle.sides.values() for u in roster if u.position is None}
    _check_deployment([u for u in units.values() if u.id in placed], battle.defender)
    buildings: dict[Any, BuildingState] = {}
    for b in battle.buildings:
        spec = T.BUILDINGS[b.kind]
        hp = spec.hit_points if b.hit_points is None else b.hit_points
        ablative = 0
        if "ablative_armor" in b.upgrades:
            ablative = spec.upgrades["ablative_armor"].extra_hit_points or 0
        weapon = None
        if b.weapon is not None and (b.kind == "turret" or "turret" in b.upgrades):
            weapon = turret_weapon_card(b.weapon)
        building = BuildingState(
            id=b.id, kind=b.kind, pos=square_centre(b.x, b.y), armor=spec.armor,
            hit_points=spec.hit_points, lost=max(0, spec.hit_points - hp), active=b.active,
            controller=battle.defender, destroyed=hp <= 0, ablative_hp=ablative,
            weapon=weapon, upgrades=tuple(b.upgrades), technology_cost=b.technology_cost)
        buildings[b.id] = building
        if b.kind == "force_field":
            _generators(building, hp, buildings)
    cargo = {}
    for c in battle.cargo:
        if c.id in cargo:
            raise ValueError(f"duplicate container id {c.id!r}")
        cargo[c.id] = CargoState(id=c.id, pos=square_centre(c.x, c.y), owner=battle.defender,
                                 resource=c.resource, units=c.units)
    missiles = {side: sorted(battle.missiles.get(side, ()), key=lambda m: m.silo_distance)
                for side in battle.sides}
    strength = {side: sum(u.hp_left + u.shield_hp for u in units.values() if u.side == side)
                for side in battle.sides}
    return BattleState(units=units, buildings=buildings, sides=list(battle.sides),
                       defender=battle.defender, dice=dice, options=options,
                       keep_log=keep_log, cargo=cargo, missiles=missiles,
                       missiles_used=dict.fromkeys(battle.sides, 0),
                       plans=dict(battle.plans), start_strength=strength)


GENERATOR_OFFSETS = ((-1, -1), (1, -1), (-1, 1), (1, 1))


def _generators(field: BuildingState, hp: int, buildings: dict[Any, BuildingState]) -> None:
    """R-BAT-11: "To disable the force field, the opponent must destroy all 4 force field
    generators ... each force field generator has 15 Hit points": four generators (the
    table's armour, 15 hit points each, all starting with the field's current hit points)
    at the corners of the protected 4" x 4" square; the field falls with the last one."""
    half = BT.FORCE_FIELD_AREA_INCHES / 2
    ids = []
    for i, (dx, dy) in enumerate(GENERATOR_OFFSETS, start=1):
        gid = f"{field.id}/g{i}"
        if gid in buildings:
            raise ValueError(f"duplicate building id {gid!r}")
        lost = max(0, BT.FORCE_FIELD_GENERATOR_HP - hp)
        gone = field.destroyed or lost >= BT.FORCE_FIELD_GENERATOR_HP
        buildings[gid] = BuildingState(
            id=gid, kind="force_field_generator",
            pos=(field.pos[0] + dx * half, field.pos[1] + dy * half), armor=field.armor,
            hit_points=BT.FORCE_FIELD_GENERATOR_HP, lost=lost, active=field.active,
            controller=field.controller, destroyed=gone,
            parent=field.id)
        ids.append(gid)
    field.generators = tuple(ids)


def _unit_state(unit: UnitInput, side: str, slot: tuple[float, float], *,
                will_bonus: int) -> UnitState:
    if unit.side != side:
        raise ValueError(f"unit {unit.id!r} is listed under side {side!r} but says {unit.side!r}")
    card = build_card(unit, will_bonus=will_bonus)
    state = UnitState(card=card, pos=unit.position or slot,
                      repairable=unit.hit_points_lost_repairable,
                      unrepairable=unit.hit_points_lost_unrepairable,
                      shield_hp=card.shield.extra_hp if card.shield else 0)
    if state.hp_left == 0:
        state.destroyed = True  # R-BAT-26: a wreck brought to battle counts as destroyed
    return state


def _check_deployment(units: list[UnitState], defender: str) -> None:
    """Default deployment keeps attackers 4" from enemies; explicit positions (a casebook
    situation in the middle of a fight) are taken as given."""
    attackers = [u for u in units if u.side != defender]
    defenders = [u for u in units if u.side == defender]
    for a in attackers:
        for d in defenders:
            if distance(a.pos, d.pos) < MIN_DEPLOY_DISTANCE:
                raise ValueError(f"attacker {a.id!r} deployed within 4\" of enemy {d.id!r}")


def turn_order(state: BattleState) -> list[str]:
    """R-BAT-4: the side with the best Init plays first (ties: the defender), then the
    others in the order listed; option `first_player` can force defender/attacker."""
    sides = list(state.sides)
    mode = state.options["first_player"]
    if mode == "defender":
        first = state.defender
    elif mode == "attacker":
        first = next((s for s in sides if s != state.defender), state.defender)
    else:
        def best_init(side: str) -> int:
            return max((u.card.skills["init"] for u in state.active_units(side)), default=-1)
        first = max(sides, key=lambda s: (best_init(s), s == state.defender, -sides.index(s)))
    i = sides.index(first)
    return sides[i:] + sides[:i]


def _over(state: BattleState) -> bool:
    """No defender or no attacker left on the field."""
    defender = state.defender
    defender_alive = attackers_alive = False
    for u in state.unit_list:
        if u.active:
            if u.side == defender:
                defender_alive = True
            else:
                attackers_alive = True
            if defender_alive and attackers_alive:
                return False
    return True


def resolve_battle(battle: BattleInput, *, policy_factory: PolicyFactory | None = None,
                   dice: DiceSource | None = None, keep_log: bool = True) -> BattleResult:
    """Fight the battle to its end and report. Same input and seed -> same result and log.

    `dice` replaces the seeded dice (tests, casebook); `keep_log=False` skips the log
    (Monte Carlo) without changing any roll.
    """
    fight = Fight(battle, dice=dice, policy_factory=policy_factory, keep_log=keep_log)
    fight.play()
    return fight.result()


def simulate(battle: BattleInput, seed: int, *, policy_factory: PolicyFactory | None = None
             ) -> tuple[str | None, list[UnitState]]:
    """What Monte Carlo odds read of one battle: the winner and the units as they end, the
    very `winner` and units of `resolve_battle(replace(battle, seed=seed), keep_log=False)`
    (same dice, same fight) without building its report (or a copy of the input)."""
    fight = Fight(battle, dice=SeededDice(random.Random(seed)), policy_factory=policy_factory,
                  keep_log=False)
    fight.play()
    return _winner(fight.state), fight.state.unit_list


class Fight:
    """A battle played choice by choice: `side` is whose choice it is now (None once the
    battle is over), `act` plays that side's chosen action (refereed: IllegalActionError
    refuses it) and runs the battle on to the next choice. `resolve_battle` is a loop
    over it with the sides' policies; the action layer (`battles.rulesets.unlimit3d8.
    layer`) lets a person (or a case) choose instead.

    Seed, "Tactical phase": units "engage into battle until all the units of one side are
    either destroyed or retreat"; rounds in `turn_order`, R-BAT-3 (round limit) and
    R-BAT-32 (stalemate) end it early.
    """

    def __init__(self, battle: BattleInput, *, dice: DiceSource | None = None,
                 policy_factory: PolicyFactory | None = None, keep_log: bool = True,
                 setup: Callable[[BattleState], None] | None = None) -> None:
        self.battle = battle
        dice = dice if dice is not None else SeededDice(random.Random(battle.seed))
        state = self.state = build_state(battle, dice, keep_log=keep_log)
        if setup is not None:
            setup(state)
        factory = policy_factory or default_policy_factory
        self.policies: dict[str, Policy] = {s: factory(s, state.options) for s in state.sides}
        self.view = BattleView(state)
        self.order = turn_order(state)
        if state.keep_log:
            state.record("deploy", order=self.order,
                         units={str(u.id): list(u.pos) for u in state.units.values()},
                         buildings={str(b.id): list(b.pos) for b in state.buildings.values()})
        self.end_reason = "side_eliminated"
        self._max_rounds = int(state.options["max_rounds"])
        self._stalemate_rounds = int(state.options["stalemate_rounds"])
        self._watch = _Stalemate(state)
        self._next = len(self.order)  # the next side's place in the round's order
        self._first = True
        self.side: str | None = None
        self._advance()

    def play(self) -> None:
        """Let the sides' policies choose every action to the end of the battle."""
        policies, view = self.policies, self.view
        while (side := self.side) is not None:
            policy = policies[side]
            if isinstance(policy, DefaultPolicy):
                # the same method, called natively (through the `Policy` protocol, a
                # compiled call is a generic Python method call)
                self.act(policy.choose(view, side))
            else:
                self.act(policy.choose(view, side))

    def act(self, action: Action) -> None:
        """The side to choose plays `action`; then the battle runs to the next choice."""
        side = self.side
        if side is None:
            raise IllegalActionError("the battle is over: nobody acts any more")
        take_action(self.state, side, action)
        self._advance()

    def result(self) -> BattleResult:
        return _result(self.state, self.battle, self.end_reason)

    def _advance(self) -> None:
        state = self.state
        self.side = None
        while True:
            if self._next < len(self.order):
                side = self.order[self._next]
                self._next += 1
                if _over(state):
                    self._next = len(self.order)
                    continue
                if (state.has_active(side)
                        and begin_turn(state, side, self.policies[side], self.view)):
                    self.side = side
                    return
                continue
            if not self._first and self._stalemate_rounds > 0 and not _over(state) \
                    and self._watch.quiet(state) >= self._stalemate_rounds:
                self.end_reason = "stalemate"
                state.record("stalemate", rounds=self._stalemate_rounds,
                             detail=f"no damage, no attack roll and no unit closer to an "
                                    f"enemy for {self._stalemate_rounds} rounds: the "
                                    f"attackers withdraw, the defender holds (R-BAT-32)")
                _defender_holds(state, self.end_reason)
                return
            self._first = False
            if _over(state):
                return
            if state.round >= self._max_rounds:
                self.end_reason = "max_rounds"
                _defender_holds(state, self.end_reason)
                return
            state.round += 1
            self._next = 0


@final
class _Stalemate:
    """R-BAT-32: counts the rounds in a row in which nothing happened that could decide
    the battle: no hit point or shield point changed, no unit destroyed or gone, no
    building changed hands, no container moved, no missile on its way, no attack roll
    (shot, close combat, ram), and no unit came closer to an enemy than it had ever been.

    Asked once a round: what it remembers is kept in lists in the order of the battle's
    own (units, buildings and containers are never added during a battle), compared and
    updated in place. It reads the units from the state each time (the action layer may
    put back a copy of the state after a refused action).
    """

    def __init__(self, state: BattleState) -> None:
        count = len(state.unit_list)
        # what the last round left: the "fingerprint" of anything that decides a battle
        self.lost = [0] * count
        self.shield = [0] * count
        self.active = [False] * count
        self.carrying: list[Any] = [None] * count
        buildings = len(state.building_list)
        self.building_lost = [0] * buildings
        self.ablative = [0] * buildings
        self.razed = [False] * buildings
        self.controller = [""] * buildings
        self.robbed = [0] * buildings
        self.cargo_marks: list[tuple[Any, bool, Point, Point | None]] = []
        self.missiles: list[int] = []
        self._changed(state)
        # where the active units stood when distances were last measured (None: inactive)
        self.positions: list[Point | None] = [u.pos if u.active else None
                                              for u in state.unit_list]
        # the closest each unit ever came to an enemy (inf: never had one) and to the edge
        self.closest = [math.inf] * count
        self.closest_edge = [math.inf] * count
        self._closer(state, [True] * count)
        self.rolls = state.attack_rolls
        self.rounds = 0
        self.cdt = [u.cdt for u in state.unit_list]
        self.chanced = [False] * count  # units that could act during the quiet rounds

    def quiet(self, state: BattleState) -> int:
        """Update after a round; the number of quiet rounds in a row in which every unit
        still on the field had its chance to act (a unit cooling down from a long action,
        e.g. a ram, may still strike: the count waits for it)."""
        progress = state.attack_rolls != self.rolls or bool(state.pending_missiles)
        self.rolls = state.attack_rolls
        if self._changed(state):
            progress = True
        units = state.unit_list
        moved = False
        positions = self.positions
        shifted = [False] * len(units)
        for i, u in enumerate(units):
            if u.active:
                before = positions[i]
                if before is None:
                    moved = shifted[i] = True
                    continue
                x, y = u.pos
                bx, by = before
                if x != bx or y != by:
                    moved = shifted[i] = True
        if moved:
            # Somebody moved since the distances were last measured (when nobody did, no
            # distance can have shrunk: units only ever leave the field).
            self.positions = [u.pos if u.active else None for u in units]
            if self._closer(state, shifted):
                progress = True
        chanced = self.chanced
        if progress:
            self.rounds = 0
            for i in range(len(chanced)):
                chanced[i] = False
        else:
            self.rounds += 1
        cdts = self.cdt
        waiting = False
        for i, u in enumerate(units):
            if u.active:
                cdt = u.cdt
                if not progress and (cdt == 0 or cdt > cdts[i]):
                    chanced[i] = True  # ready, or it acted in a quiet round
                cdts[i] = cdt
                if not chanced[i]:
                    waiting = True
        if waiting:
            return 0  # somebody is still cooling down: not yet a stalemate
        return self.rounds

    def _changed(self, state: BattleState) -> bool:
        """Whether a hit point, shield point, unit's presence or load, building, container
        or missile count changed since the last call (every value is remembered anew)."""
        changed = False
        lost, shield, active, carrying = self.lost, self.shield, self.active, self.carrying
        for i, u in enumerate(state.unit_list):
            value = u.repairable + u.unrepairable
            if value != lost[i]:
                lost[i] = value
                changed = True
            if u.shield_hp != shield[i]:
                shield[i] = u.shield_hp
                changed = True
            if u.active != active[i]:
                active[i] = u.active
                changed = True
            held = u.carrying
            if held != carrying[i]:
                carrying[i] = held
                changed = True
        building_lost, ablative, razed = self.building_lost, self.ablative, self.razed
        controller, robbed = self.controller, self.robbed
        for i, b in enumerate(state.building_list):
            if b.lost != building_lost[i]:
                building_lost[i] = b.lost
                changed = True
            if b.ablative_hp != ablative[i]:
                ablative[i] = b.ablative_hp
                changed = True
            if b.destroyed != razed[i]:
                razed[i] = b.destroyed
                changed = True
            if b.controller != controller[i]:
                controller[i] = b.controller
                changed = True
            count = len(b.robbed_by)
            if count != robbed[i]:
                robbed[i] = count
                changed = True
        if state.cargo:
            units = state.units
            loads: list[tuple[Any, bool, Point, Point | None]] = []
            for c in state.cargo.values():
                carrier = units.get(c.carrier) if c.carrier is not None else None
                loads.append((c.carrier, c.lost, c.pos,
                              carrier.pos if carrier is not None else None))
            if loads != self.cargo_marks:
                self.cargo_marks = loads
                changed = True
        missiles = self.missiles  # compared in place (a tuple of them cost more than all else)
        i = 0
        for used in state.missiles_used.values():
            if i == len(missiles):
                missiles.append(used)
                changed = True
            elif missiles[i] != used:
                missiles[i] = used
                changed = True
            i += 1
        if i != len(missiles):
            del missiles[i:]
            changed = True
        return changed

    def _closer(self, state: BattleState, shifted: list[bool]) -> bool:
        """Whether an active unit came closer than ever to an enemy unit (by more than
        0.01") or to the corridor's outer edge (a unit heading out to retreat is not idle
        either); remembers the new closest distances.

        Only distances from a unit that `shifted` (moved since they were last measured, or
        never measured) are measured: any other was measured as it is, and `closest` kept
        it or came within 0.01" of it then (it only ever shrinks since), so it can neither
        be closer now nor be the nearest of a unit that is closer: the answer and what is
        remembered are those of measuring every distance."""
        units = state.unit_list
        count = len(units)
        nearest = [math.inf] * count
        defender = state.defender
        for i in range(count):
            u = units[i]
            if not u.active:
                continue
            side = u.side
            ux, uy = u.pos
            moved = shifted[i]
            for j in range(i + 1, count):
                e = units[j]
                other = e.side
                if e.active and (moved or shifted[j]) and other != side \
                        and (side == defender or other == defender):
                    ex, ey = e.pos
                    d = hypot(ux - ex, uy - ey)  # hypot(-x, -y) == hypot(x, y): both ways
                    if d < nearest[i]:
                        nearest[i] = d
                    if d < nearest[j]:
                        nearest[j] = d
        closer = False
        closest, closest_edge = self.closest, self.closest_edge
        for i in range(count):
            u = units[i]
            if not u.active:
                continue
            d = nearest[i]
            if d < math.inf and d < closest[i] - 0.01:
                closest[i] = d
                closer = True
            if not shifted[i]:
                continue
            d = edge_distance(u.pos)
            if d < closest_edge[i] - 0.01:
                closest_edge[i] = d
                closer = True
        return closer


def _defender_holds(state: BattleState, reason: str) -> None:
    """R-BAT-3 (round limit) and R-BAT-32 (stalemate): the defender holds the ground; the
    attackers still on the field withdraw."""
    for u in state.unit_list:
        if u.active and u.side != state.defender:
            u.retreated = True
            state.record("withdraw", unit=u.id, reason=reason)


def _winner(state: BattleState) -> str | None:
    """The side still on the field (R-BAT-8: among several attackers, the one with most
    units, then most hit points, then first listed)."""
    if state.active_units(state.defender):
        return state.defender
    standing = [s for s in state.sides if s != state.defender and state.active_units(s)]
    if not standing:
        return None
    return max(standing, key=lambda s: (len(state.active_units(s)),
                                        sum(u.hp_left for u in state.active_units(s)),
                                        -state.sides.index(s)))


def _result(state: BattleState, battle: BattleInput, end_reason: str) -> BattleResult:
    winner = _winner(state)
    state.record("end", winner=winner, reason=end_reason)
    cargo = _cargo_outcomes(state)
    outcomes: list[UnitOutcome] = []
    all_events: list[XpEvent] = []
    for side in battle.sides:
        for unit_input in battle.sides[side]:
            u = state.units[unit_input.id]
            events = _xp(u, state)
            all_events.extend(events)
            if u.destroyed:
                fate = "destroyed"
            elif u.retreated:
                fate = "retreated"
            elif u.lost:
                fate = "damaged"
            else:
                fate = "intact"
            outcomes.append(UnitOutcome(id=u.id, side=u.side, fate=fate,
                                        hit_points_left=u.hp_left, repairable=u.repairable,
                                        unrepairable=u.unrepairable, xp_events=tuple(events)))
    buildings = tuple(_building_outcome(state, b) for b in state.buildings.values()
                      if b.parent is None)
    taken: dict[str, list[Any]] = {}
    for c in cargo:
        if c.fate == "taken" and c.taken_by is not None:
            taken.setdefault(c.taken_by, []).append(c.id)
    return BattleResult(
        winner=winner, units=tuple(outcomes),
        buildings_destroyed=tuple(b.id for b in state.buildings.values()
                                  if b.destroyed and b.parent is None),
        xp_events=tuple(all_events), log=tuple(state.log), buildings=buildings,
        rounds=state.round, end_reason=end_reason, seed=battle.seed,
        missiles_used=dict(state.missiles_used), missile_strikes=tuple(state.missile_strikes),
        cargo=cargo, cargo_taken={k: tuple(v) for k, v in taken.items()},
        lab_piracies=tuple(state.lab_piracies))


def _building_outcome(state: BattleState, b: BuildingState) -> BuildingOutcome:
    if not b.generators:
        return BuildingOutcome(id=b.id, kind=b.kind, hit_points_left=b.hp_left,
                               destroyed=b.destroyed, controller=b.controller)
    gens = tuple(state.buildings[g].hp_left for g in b.generators)
    return BuildingOutcome(id=b.id, kind=b.kind, hit_points_left=-(-sum(gens) // len(gens)),
                           destroyed=b.destroyed, controller=b.controller, generators=gens)


def _cargo_outcomes(state: BattleState) -> tuple[CargoOutcome, ...]:
    """R-BAT-28: a container is "taken" by the side of the unit (or lorry) holding it at
    the end when that unit left the battle with it or its side is hostile to the owner and
    still on the field; a lorry's destroyed cargo is "lost"; anything else is "left".
    A bandit that lifted a container taken from an enemy has stolen a cargo."""
    result = []
    for c in state.cargo.values():
        fate, taken_by = ("lost", None) if c.lost else ("left", None)
        carrier = state.units.get(c.carrier) if c.carrier is not None else None
        if carrier is not None and not c.lost:
            if carrier.retreated or (carrier.active and state.hostile(carrier.side, c.owner)):
                fate, taken_by = "taken", carrier.side
            c.pos = carrier.pos
        if fate == "taken" and taken_by is not None and state.hostile(taken_by, c.owner):
            lifter = state.units.get(c.lifter) if c.lifter is not None else None
            if lifter is not None and lifter.side == taken_by:
                state.credit(lifter, "steal_cargo")
        result.append(CargoOutcome(id=c.id, owner=c.owner, resource=c.resource, units=c.units,
                                   fate=fate, taken_by=taken_by, carrier=c.carrier,
                                   lifter=c.lifter, pos=c.pos))
    return tuple(result)


def _xp(u: UnitState, state: BattleState) -> list[XpEvent]:
    """Seed: "After surviving a battle, a character is awarded one Experience Point" plus
    the class bonuses. R-BAT-24: only characters earn XP; a bonus is reported even when the
    unit was later destroyed (the pilot's fate is the campaign's)."""
    if not u.card.is_character:
        return []
    events = []
    if not u.destroyed:
        events.append(XpEvent(u.id, u.card.pilot_id, "survived", T.SURVIVAL_XP))
    earned = state.credits.get(u.id, set())
    for kind in CLASS_BONUS.get(u.card.pilot_class, ()):
        if kind in earned:
            events.append(XpEvent(u.id, u.card.pilot_id, kind, T.BONUS_XP))
    return events
