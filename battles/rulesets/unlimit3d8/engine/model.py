"""Plain data in and out of the engine, JSON-serialisable (`to_dict` / `from_dict`).

The Celery task passes dicts; the engine never sees a Django model. Keys of vehicles,
weapons, templates, pilot classes and buildings are those of `campaign.rules.tables`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

Id = int | str
Json = dict[str, Any]


def _shallow(data: Any) -> Json:
    """A dataclass's fields as a dict, one level deep: each `to_dict` below converts its
    nested values itself (`dataclasses.asdict` deep-copies them first, only to have them
    replaced; a quarter of opening a turn's battles went there)."""
    return {f.name: getattr(data, f.name) for f in fields(data)}


@dataclass(frozen=True)
class WeaponInput:
    """A weapon (or equipment such as a warp drive or thunder wire) and its templates."""

    key: str
    templates: tuple[str, ...] = ()

    def to_dict(self) -> Json:
        return {"key": self.key, "templates": list(self.templates)}

    @classmethod
    def from_dict(cls, data: Json) -> WeaponInput:
        return cls(key=data["key"], templates=tuple(data.get("templates", ())))


@dataclass(frozen=True)
class UnitInput:
    """One piloted vehicle or exo armour as it enters the battle.

    `position` (inches, optional) overrides the default deployment; tests and the
    casebook use it to set up a situation.
    """

    id: Id
    side: str
    name: str
    vehicle: str
    pilot_class: str
    pilot_level: int
    weapons: tuple[WeaponInput, ...] = ()
    shield: str | None = None
    hit_points_lost_repairable: int = 0
    hit_points_lost_unrepairable: int = 0
    is_character: bool = True
    pilot_id: Id | None = None
    position: tuple[float, float] | None = None

    def to_dict(self) -> Json:
        data = _shallow(self)
        data["weapons"] = [w.to_dict() for w in self.weapons]
        data["position"] = list(self.position) if self.position is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Json) -> UnitInput:
        pos = data.get("position")
        return cls(
            id=data["id"], side=data["side"], name=data.get("name", str(data["id"])),
            vehicle=data["vehicle"], pilot_class=data["pilot_class"],
            pilot_level=int(data["pilot_level"]),
            weapons=tuple(WeaponInput.from_dict(w) for w in data.get("weapons", ())),
            shield=data.get("shield"),
            hit_points_lost_repairable=int(data.get("hit_points_lost_repairable", 0)),
            hit_points_lost_unrepairable=int(data.get("hit_points_lost_unrepairable", 0)),
            is_character=bool(data.get("is_character", True)),
            pilot_id=data.get("pilot_id"),
            position=(float(pos[0]), float(pos[1])) if pos is not None else None,
        )


@dataclass(frozen=True)
class BuildingInput:
    """A building of the contested territory: square (x, y) of the 16x16 territorial map.

    `hit_points` are its current hit points (None: the table's full value; for a force
    field, each of its four generators starts with them, R-BAT-11). A turret's
    `weapon` is the one weapon it is fitted with; `upgrades` are upgrade keys
    (e.g. "ablative_armor", "tactic_control"). `technology_cost` (laboratories only,
    optional): the research points of the technology a pirate would steal, the Tech
    score a piracy needs (R-BAT-30; None: engine option `lab_piracy_difficulty`).
    """

    id: Id
    kind: str
    x: int
    y: int
    hit_points: int | None = None
    active: bool = True
    upgrades: tuple[str, ...] = ()
    weapon: WeaponInput | None = None
    technology_cost: int | None = None

    def to_dict(self) -> Json:
        data = _shallow(self)
        data["upgrades"] = list(self.upgrades)
        data["weapon"] = self.weapon.to_dict() if self.weapon else None
        if self.technology_cost is None:
            del data["technology_cost"]
        return data

    @classmethod
    def from_dict(cls, data: Json) -> BuildingInput:
        weapon = data.get("weapon")
        hp = data.get("hit_points")
        return cls(
            id=data["id"], kind=data["kind"], x=int(data["x"]), y=int(data["y"]),
            hit_points=int(hp) if hp is not None else None,
            active=bool(data.get("active", True)),
            upgrades=tuple(data.get("upgrades", ())),
            weapon=WeaponInput.from_dict(weapon) if weapon else None,
            technology_cost=(int(data["technology_cost"])
                             if data.get("technology_cost") is not None else None),
        )


@dataclass(frozen=True)
class MissileInput:
    """A tactical missile a side can call in from a silo (seed, missile silo and
    designation). `silo_distance`: how many territories separate the silo from the battle
    (0: a silo on the battle territory); `silo` names it for the campaign (optional)."""

    silo_distance: int = 0
    silo: Id | None = None

    def to_dict(self) -> Json:
        return {"silo_distance": self.silo_distance, "silo": self.silo}

    @classmethod
    def from_dict(cls, data: Json) -> MissileInput:
        return cls(silo_distance=int(data.get("silo_distance", 0)), silo=data.get("silo"))


@dataclass(frozen=True)
class CargoInput:
    """A container on the battlefield, at square (x, y) of the territorial map, belonging
    to the defender (seed: "Any Unit equiped with Medium or Heavy Grappling Arms can lift a
    container and take it away")."""

    id: Id
    x: int
    y: int
    resource: str = ""
    units: int = 0

    def to_dict(self) -> Json:
        return _shallow(self)

    @classmethod
    def from_dict(cls, data: Json) -> CargoInput:
        return cls(id=data["id"], x=int(data["x"]), y=int(data["y"]),
                   resource=str(data.get("resource", "")), units=int(data.get("units", 0)))


@dataclass(frozen=True)
class BattleInput:
    """Everything a battle needs: who fights where, with what, and the seed.

    `defender` is the side key owning the territory (its buildings fight for it).
    `options` are engine options (see `battles.rulesets.unlimit3d8.engine.options.DEFAULTS`).
    Optional: `missiles` (per side, the silo missiles it can call in) and `cargo` (the
    defender's containers on the battlefield); both are left out of `to_dict` when empty.
    """

    territory: Id
    defender: str
    sides: dict[str, tuple[UnitInput, ...]]
    buildings: tuple[BuildingInput, ...] = ()
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    missiles: dict[str, tuple[MissileInput, ...]] = field(default_factory=dict)
    cargo: tuple[CargoInput, ...] = ()
    #: The sides' sealed battle plans (side -> {"stance", "retreat_at", "focus"}), issue 29;
    #: left out of `to_dict` when no side has one.
    plans: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> Json:
        data: Json = {
            "territory": self.territory,
            "defender": self.defender,
            "sides": {k: [u.to_dict() for u in v] for k, v in self.sides.items()},
            "buildings": [b.to_dict() for b in self.buildings],
            "seed": self.seed,
            "options": dict(self.options),
        }
        if any(self.missiles.values()):
            data["missiles"] = {k: [m.to_dict() for m in v] for k, v in self.missiles.items()}
        if self.cargo:
            data["cargo"] = [c.to_dict() for c in self.cargo]
        if self.plans:
            data["plans"] = {k: dict(v) for k, v in self.plans.items()}
        return data

    @classmethod
    def from_dict(cls, data: Json) -> BattleInput:
        return cls(
            territory=data["territory"],
            defender=data["defender"],
            sides={k: tuple(UnitInput.from_dict(u) for u in v)
                   for k, v in data["sides"].items()},
            buildings=tuple(BuildingInput.from_dict(b) for b in data.get("buildings", ())),
            seed=int(data.get("seed", 0)),
            options=dict(data.get("options", {})),
            missiles={k: tuple(MissileInput.from_dict(m) for m in v)
                      for k, v in (data.get("missiles") or {}).items()},
            cargo=tuple(CargoInput.from_dict(c) for c in data.get("cargo") or ()),
            plans={str(k): dict(v) for k, v in (data.get("plans") or {}).items()},
        )


@dataclass(frozen=True)
class XpEvent:
    """Something that earns a pilot XP; the campaign records it, the engine only reports."""

    unit_id: Id
    pilot_id: Id | None
    kind: str
    xp: int = 1

    def to_dict(self) -> Json:
        return _shallow(self)

    @classmethod
    def from_dict(cls, data: Json) -> XpEvent:
        return cls(unit_id=data["unit_id"], pilot_id=data.get("pilot_id"),
                   kind=data["kind"], xp=int(data.get("xp", 1)))


FATES = ("destroyed", "damaged", "intact", "retreated")


@dataclass(frozen=True)
class UnitOutcome:
    """A unit after the battle. `repairable`/`unrepairable` are the hit points lost, ticked
    with a slash or a cross (the card's F box)."""

    id: Id
    side: str
    fate: str
    hit_points_left: int
    repairable: int
    unrepairable: int
    xp_events: tuple[XpEvent, ...] = ()

    def to_dict(self) -> Json:
        data = _shallow(self)
        data["xp_events"] = [e.to_dict() for e in self.xp_events]
        return data

    @classmethod
    def from_dict(cls, data: Json) -> UnitOutcome:
        return cls(
            id=data["id"], side=data["side"], fate=data["fate"],
            hit_points_left=int(data["hit_points_left"]),
            repairable=int(data["repairable"]), unrepairable=int(data["unrepairable"]),
            xp_events=tuple(XpEvent.from_dict(e) for e in data.get("xp_events", ())),
        )


@dataclass(frozen=True)
class BuildingOutcome:
    """A building after the battle. For a force field, `generators` lists the hit points
    left on each of its four generators and `hit_points_left` is their mean, rounded up
    (R-BAT-11); for other buildings `generators` is absent."""

    id: Id
    kind: str
    hit_points_left: int
    destroyed: bool
    controller: str
    generators: tuple[int, ...] | None = None

    def to_dict(self) -> Json:
        data = _shallow(self)
        if self.generators is None:
            del data["generators"]
        else:
            data["generators"] = list(self.generators)
        return data

    @classmethod
    def from_dict(cls, data: Json) -> BuildingOutcome:
        gens = data.get("generators")
        return cls(id=data["id"], kind=data["kind"],
                   hit_points_left=int(data["hit_points_left"]),
                   destroyed=bool(data["destroyed"]), controller=data["controller"],
                   generators=tuple(int(g) for g in gens) if gens is not None else None)


@dataclass(frozen=True)
class CargoOutcome:
    """A container after the battle. `fate`: "left" (on the battlefield, at `pos`, still
    its owner's unless the campaign decides otherwise), "taken" (carried off by a unit or
    lorry of `taken_by`: it left the battle with it, or its side holds the field), "lost"
    (its lorry was destroyed: "If a lorry is destroyed, its cargo is lost")."""

    id: Id
    owner: str
    resource: str
    units: int
    fate: str
    taken_by: str | None = None
    carrier: Id | None = None
    lifter: Id | None = None
    pos: tuple[float, float] | None = None

    def to_dict(self) -> Json:
        data = _shallow(self)
        data["pos"] = list(self.pos) if self.pos is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Json) -> CargoOutcome:
        pos = data.get("pos")
        return cls(id=data["id"], owner=data["owner"], resource=data.get("resource", ""),
                   units=int(data.get("units", 0)), fate=data["fate"],
                   taken_by=data.get("taken_by"), carrier=data.get("carrier"),
                   lifter=data.get("lifter"),
                   pos=(float(pos[0]), float(pos[1])) if pos is not None else None)


@dataclass(frozen=True)
class BattleResult:
    """The outcome: winner (None when no side is left standing), every unit's fate, the
    buildings destroyed, XP events and the full roll/action log.

    Campaign-facing extras (always in `to_dict`, empty when nothing happened):
    `missiles_used` {side: missiles fired}, `missile_strikes` (one dict per missile:
    side, silo, silo_distance, designator, target, target_kind, designated_turn,
    strike_turn, impact, blocked), `cargo` (a `CargoOutcome` per container),
    `cargo_taken` {side: [container ids]}, `lab_piracies` (one dict per attempt on a
    laboratory: unit, pilot_id, side, laboratory, score, difficulty, success).
    """

    winner: str | None
    units: tuple[UnitOutcome, ...]
    buildings_destroyed: tuple[Id, ...]
    xp_events: tuple[XpEvent, ...]
    log: tuple[Json, ...] = ()
    buildings: tuple[BuildingOutcome, ...] = ()
    rounds: int = 0
    end_reason: str = ""
    seed: int = 0
    missiles_used: dict[str, int] = field(default_factory=dict)
    missile_strikes: tuple[Json, ...] = ()
    cargo: tuple[CargoOutcome, ...] = ()
    cargo_taken: dict[str, tuple[Id, ...]] = field(default_factory=dict)
    lab_piracies: tuple[Json, ...] = ()

    def to_dict(self) -> Json:
        return {
            "winner": self.winner,
            "units": [u.to_dict() for u in self.units],
            "buildings_destroyed": list(self.buildings_destroyed),
            "buildings": [b.to_dict() for b in self.buildings],
            "xp_events": [e.to_dict() for e in self.xp_events],
            "log": list(self.log),
            "rounds": self.rounds,
            "end_reason": self.end_reason,
            "seed": self.seed,
            "missiles_used": dict(self.missiles_used),
            "missile_strikes": list(self.missile_strikes),
            "cargo": [c.to_dict() for c in self.cargo],
            "cargo_taken": {k: list(v) for k, v in self.cargo_taken.items()},
            "lab_piracies": list(self.lab_piracies),
        }

    @classmethod
    def from_dict(cls, data: Json) -> BattleResult:
        return cls(
            winner=data.get("winner"),
            units=tuple(UnitOutcome.from_dict(u) for u in data["units"]),
            buildings_destroyed=tuple(data.get("buildings_destroyed", ())),
            xp_events=tuple(XpEvent.from_dict(e) for e in data.get("xp_events", ())),
            log=tuple(data.get("log", ())),
            buildings=tuple(BuildingOutcome.from_dict(b) for b in data.get("buildings", ())),
            rounds=int(data.get("rounds", 0)),
            end_reason=data.get("end_reason", ""),
            seed=int(data.get("seed", 0)),
            missiles_used={k: int(v) for k, v in (data.get("missiles_used") or {}).items()},
            missile_strikes=tuple(data.get("missile_strikes") or ()),
            cargo=tuple(CargoOutcome.from_dict(c) for c in data.get("cargo") or ()),
            cargo_taken={k: tuple(v) for k, v in (data.get("cargo_taken") or {}).items()},
            lab_piracies=tuple(data.get("lab_piracies") or ()),
        )

    def unit(self, unit_id: Id) -> UnitOutcome:
        for outcome in self.units:
            if outcome.id == unit_id:
                return outcome
        raise KeyError(unit_id)
