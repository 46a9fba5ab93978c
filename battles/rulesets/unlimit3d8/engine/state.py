"""Mutable battle state: units and buildings during the fight, the log and XP credits.

Damage is ticked as the card's F box says (seed, "The Unit Card"): "tick half of them
(rounded up) with a cross, the other half with a slash. The damages ticked with a cross
can't be repaired, and the damages with a slash can."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.rulesets.unlimit3d8.engine.card import UnitCard, WeaponCard
from battles.rulesets.unlimit3d8.engine.dice import DiceSource
from battles.rulesets.unlimit3d8.engine.geometry import Point
from battles.rulesets.unlimit3d8.engine.model import Id


@dataclass(slots=True)
class UnitState:
    """A unit on the table: its card plus what happened to it so far.

    `active` (still on the table: neither destroyed nor retreated) is a plain attribute
    kept in step by the `destroyed` and `retreated` setters: the turn loop reads it for
    every unit on every query.
    """

    card: UnitCard
    pos: Point
    repairable: int = 0  # hit points lost, ticked with a slash
    unrepairable: int = 0  # hit points lost, ticked with a cross
    cdt: int = 0
    shield_hp: int = 0
    immobilized_by: Id | None = None
    combustion: bool = False
    corroded: int = 0  # Corrosive: +1 range increment per hit, max move -2 per hit
    haywire: bool = False
    in_bunker: Id | None = None  # the bunker sheltering this exo armour (R-BAT-29)
    carrying: Id | None = None  # a container lifted (or, for a lorry, its content)
    id: Id = field(init=False)
    side: str = field(init=False)
    active: bool = field(init=False, default=True)
    _destroyed: bool = field(init=False, default=False, repr=False)
    _retreated: bool = field(init=False, default=False, repr=False)

    def __post_init__(self) -> None:
        self.id = self.card.id  # copied: read on every query of the turn loop
        self.side = self.card.side

    @property
    def destroyed(self) -> bool:
        return self._destroyed

    @destroyed.setter
    def destroyed(self, value: bool) -> None:
        self._destroyed = value
        self.active = not (value or self._retreated)

    @property
    def retreated(self) -> bool:
        return self._retreated

    @retreated.setter
    def retreated(self, value: bool) -> None:
        self._retreated = value
        self.active = not (self._destroyed or value)

    @property
    def lost(self) -> int:
        return self.repairable + self.unrepairable

    @property
    def hp_left(self) -> int:
        left = self.card.hit_points - self.repairable - self.unrepairable
        return left if left > 0 else 0

    @property
    def armor(self) -> int:
        """Vehicle armour, plus the shield's bonus while its extra hit points last."""
        bonus = self.card.shield.armor_bonus if self.card.shield and self.shield_hp > 0 else 0
        return self.card.armor + bonus

    @property
    def close_defense(self) -> int:
        """Base defense for close combat: a live shield adds to the difficulty to touch."""
        bonus = self.card.shield.defense_bonus if self.card.shield and self.shield_hp > 0 else 0
        return self.card.base_defense + bonus

    @property
    def max_move_inches(self) -> float:
        """Seed, "Move": vehicles move up to max move x 2", exo armour max move inches.
        Corrosive: "reduce their max movement by 2" (R-BAT-19: 2 inches per hit)."""
        return max(0.0, self.card.max_move_inches - 2.0 * self.corroded)

    def weapon(self, key: str) -> WeaponCard:
        for w in self.card.weapons:
            if w.key == key:
                return w
        raise KeyError(key)


@dataclass
class BuildingState:
    """A building: defense 0, armour and hit points from the table."""

    id: Id
    kind: str
    pos: Point
    armor: int
    hit_points: int
    lost: int = 0
    active: bool = True
    controller: str = ""
    destroyed: bool = False
    ablative_hp: int = 0  # barricade "Ablative armor" upgrade: 10 HP at armour 5
    technology_cost: int | None = None  # a laboratory: Tech a piracy needs (R-BAT-30)
    robbed_by: set[str] = field(default_factory=set)  # a laboratory: sides that stole
    weapon: WeaponCard | None = None
    cdt: int = 0
    upgrades: tuple[str, ...] = ()
    parent: Id | None = None  # a force field generator: the field it powers (R-BAT-11)
    generators: tuple[Id, ...] = ()  # a force field: its four generators
    sheltered: list[Id] = field(default_factory=list)  # a bunker: the units inside

    @property
    def targetable(self) -> bool:
        """A force field is brought down through its generators, not hit itself."""
        return not self.destroyed and not self.generators

    @property
    def hp_left(self) -> int:
        return max(0, self.hit_points - self.lost)

    @property
    def current_armor(self) -> int:
        return 5 if self.ablative_hp > 0 else self.armor


@dataclass
class CargoState:
    """A container on the battlefield (R-BAT-28)."""

    id: Id
    pos: Point
    owner: str
    resource: str
    units: int
    carrier: Id | None = None  # the unit (or lorry) holding it
    lifter: Id | None = None  # the unit that lifted it last
    lost: bool = False


@dataclass
class PendingMissile:
    """A designated target waiting for its missile (R-BAT-27)."""

    side: str
    designator: Id
    target: Id
    target_kind: str
    silo: Id | None
    silo_distance: int
    cdt_left: int
    designated_turn: int


@dataclass
class BattleState:
    """Everything the turn loop and the actions read and change."""

    units: dict[Id, UnitState]
    buildings: dict[Id, BuildingState]
    sides: list[str]
    defender: str
    dice: DiceSource
    options: dict[str, Any]
    keep_log: bool = True
    log: list[dict[str, Any]] = field(default_factory=list)
    credits: dict[Id, set[str]] = field(default_factory=dict)  # unit id -> XP kinds earned
    round: int = 0
    turn: int = 0
    current_side: str = ""
    cargo: dict[Id, CargoState] = field(default_factory=dict)
    missiles: dict[str, list[Any]] = field(default_factory=dict)  # side -> MissileInput left
    pending_missiles: list[PendingMissile] = field(default_factory=list)
    missile_strikes: list[dict[str, Any]] = field(default_factory=list)
    missiles_used: dict[str, int] = field(default_factory=dict)
    lab_piracies: list[dict[str, Any]] = field(default_factory=list)
    attack_rolls: int = 0  # skill tests trying to hurt an enemy (R-BAT-32)
    plans: dict[str, dict[str, Any]] = field(default_factory=dict)  # side -> sealed plan
    start_strength: dict[str, int] = field(default_factory=dict)  # side -> HP + shields
    # The force fields among the buildings (buildings are never added during a battle):
    # armour and projectile checks look only at these.
    force_fields: list[BuildingState] = field(init=False, default_factory=list)
    # Every unit and every building (units and buildings are never added during a
    # battle), in the dicts' order: the queries below walk these (compiled, walking a
    # list costs a fraction of walking a dict's values, and they run for every choice).
    unit_list: list[UnitState] = field(init=False, default_factory=list)
    building_list: list[BuildingState] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.force_fields = [b for b in self.buildings.values() if b.kind == "force_field"]
        self.unit_list = list(self.units.values())
        self.building_list = list(self.buildings.values())

    # --- queries -------------------------------------------------------------------
    def active_units(self, side: str | None = None) -> list[UnitState]:
        if side is None:
            return [u for u in self.unit_list if u.active]
        return [u for u in self.unit_list if u.active and u.side == side]

    def has_active(self, side: str) -> bool:
        """Whether `side` still has a unit on the field."""
        return any(u.active and u.side == side for u in self.unit_list)

    def enemies_of(self, side: str) -> list[UnitState]:
        defender = self.defender
        if side == defender:
            return [u for u in self.unit_list if u.active and u.side != side]
        return [u for u in self.unit_list if u.active and u.side == defender]

    def hostile(self, a: str, b: str) -> bool:
        """Seed: "Is considered enemy any unit that is on the territory and doesn't belong
        to the player that owns it, even though they might have come as allies." R-BAT-8:
        attackers of different players are allies of each other, enemies of the owner."""
        return a != b and (a == self.defender or b == self.defender)

    def targetable_enemies(self, side: str) -> list[UnitState]:
        """Enemies an attack can aim at (units sheltered in a bunker cannot be)."""
        return [u for u in self.unit_list
                if u.active and u.in_bunker is None and self.hostile(side, u.side)]

    def locked_cdt(self, unit: UnitState) -> int:
        """Designation tokens: "No command order can reduce this amount" (R-BAT-27)."""
        return sum(m.cdt_left for m in self.pending_missiles if m.designator == unit.id)

    def live_buildings(self) -> list[BuildingState]:
        return [b for b in self.building_list if not b.destroyed]

    # --- log and credits --------------------------------------------------------------
    def record(self, event: str, /, **data: Any) -> None:
        """Append a log entry (skipped when the log is off)."""
        if self.keep_log:
            entry: dict[str, Any] = {"turn": self.turn, "round": self.round, "event": event}
            entry.update(data)
            self.log.append(entry)

    def record_data(self, event: str, data: dict[str, Any]) -> None:
        """`record` with its data already in a dict (a hot path builds it only when the
        log is kept: check `keep_log` first)."""
        entry: dict[str, Any] = {"turn": self.turn, "round": self.round, "event": event}
        entry.update(data)
        self.log.append(entry)

    def credit(self, unit: UnitState | None, kind: str) -> None:
        if unit is not None:
            self.credits.setdefault(unit.id, set()).add(kind)
