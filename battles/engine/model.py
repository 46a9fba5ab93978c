"""Plain data in and out of the engine, JSON-serialisable (`to_dict` / `from_dict`).

The Celery task passes dicts; the engine never sees a Django model. Keys of vehicles,
weapons, templates, pilot classes and buildings are those of `campaign.rules.tables`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

Id = int | str
Json = dict[str, Any]


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
        data = asdict(self)
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

    `hit_points` are its current hit points (None: the table's full value). A turret's
    `weapon` is the one weapon it is fitted with; `upgrades` are upgrade keys
    (e.g. "ablative_armor", "tactic_control").
    """

    id: Id
    kind: str
    x: int
    y: int
    hit_points: int | None = None
    active: bool = True
    upgrades: tuple[str, ...] = ()
    weapon: WeaponInput | None = None

    def to_dict(self) -> Json:
        data = asdict(self)
        data["upgrades"] = list(self.upgrades)
        data["weapon"] = self.weapon.to_dict() if self.weapon else None
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
        )


@dataclass(frozen=True)
class BattleInput:
    """Everything a battle needs: who fights where, with what, and the seed.

    `defender` is the side key owning the territory (its buildings fight for it).
    `options` are engine options (see `battles.engine.options.DEFAULTS`).
    """

    territory: Id
    defender: str
    sides: dict[str, tuple[UnitInput, ...]]
    buildings: tuple[BuildingInput, ...] = ()
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Json:
        return {
            "territory": self.territory,
            "defender": self.defender,
            "sides": {k: [u.to_dict() for u in v] for k, v in self.sides.items()},
            "buildings": [b.to_dict() for b in self.buildings],
            "seed": self.seed,
            "options": dict(self.options),
        }

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
        )


@dataclass(frozen=True)
class XpEvent:
    """Something that earns a pilot XP; the campaign records it, the engine only reports."""

    unit_id: Id
    pilot_id: Id | None
    kind: str
    xp: int = 1

    def to_dict(self) -> Json:
        return asdict(self)

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
        data = asdict(self)
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
    id: Id
    kind: str
    hit_points_left: int
    destroyed: bool
    controller: str

    def to_dict(self) -> Json:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Json) -> BuildingOutcome:
        return cls(**data)


@dataclass(frozen=True)
class BattleResult:
    """The outcome: winner (None when no side is left standing), every unit's fate, the
    buildings destroyed, XP events and the full roll/action log."""

    winner: str | None
    units: tuple[UnitOutcome, ...]
    buildings_destroyed: tuple[Id, ...]
    xp_events: tuple[XpEvent, ...]
    log: tuple[Json, ...] = ()
    buildings: tuple[BuildingOutcome, ...] = ()
    rounds: int = 0
    end_reason: str = ""
    seed: int = 0

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
        )

    def unit(self, unit_id: Id) -> UnitOutcome:
        for outcome in self.units:
            if outcome.id == unit_id:
                return outcome
        raise KeyError(unit_id)
