"""Action objects a policy chooses (plain, frozen, loggable)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Final

from battles.rulesets.unlimit3d8.engine.geometry import Point
from battles.rulesets.unlimit3d8.engine.model import Id


@dataclass(frozen=True)
class Action:
    unit: Id

    @property
    def name(self) -> str:
        return type(self).__name__

    def describe(self) -> dict[str, Any]:
        """JSON-native description for the log."""
        data = self.plain()
        data["action"] = self.name
        return data

    def plain(self) -> dict[str, Any]:
        """The fields, JSON-native (`_plain`); the actions a battle logs most often write
        theirs out (tests/engine/test_action_describe.py: the same dict, keys in order)."""
        data: dict[str, Any] = _plain(self)
        return data


#: What a frozen dataclass's own `__init__` sets its fields with (read once: compiled,
#: `object.__setattr__` is two attribute lookups at every construction).
_SET: Final = object.__setattr__

_FIELDS: dict[type, tuple[str, ...]] = {}
_SCALARS = frozenset({str, int, float, bool, type(None)})  # plain already: as they are


def _plain(value: Any) -> Any:
    """What `dataclasses.asdict` would give, with tuples as lists (without its deep copies:
    the log is written on every turn)."""
    if type(value) in _SCALARS:
        return value
    names = _FIELDS.get(type(value))
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[type(value)] = tuple(f.name for f in fields(value))
    if names is not None:
        return {k: _plain(getattr(value, k)) for k in names}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Pass(Action):
    """Do nothing this turn (no unit ready, or the policy holds)."""

    def __init__(self, unit: Id) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)


@dataclass(frozen=True)
class Move(Action):
    to: Point

    def __init__(self, unit: Id, to: Point) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "to", to)

    def plain(self) -> dict[str, Any]:
        return {"unit": self.unit, "to": list(self.to)}


@dataclass(frozen=True)
class RangedAttack(Action):
    weapon: str
    target: Id
    target_kind: str = "unit"  # "unit" or "building"

    def __init__(self, unit: Id, weapon: str, target: Id, target_kind: str = "unit") -> None:
        """The dataclass's own `__init__`, written out to run compiled (the generated one
        is interpreted: the policy builds one for every shot it weighs)."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "weapon", weapon)
        _set(self, "target", target)
        _set(self, "target_kind", target_kind)

    def plain(self) -> dict[str, Any]:
        return {"unit": self.unit, "weapon": self.weapon, "target": self.target,
                "target_kind": self.target_kind}


@dataclass(frozen=True)
class Assault(Action):
    """Move then fire (seed, "Assault")."""

    to: Point
    weapon: str
    target: Id
    target_kind: str = "unit"

    def __init__(self, unit: Id, to: Point, weapon: str, target: Id,
                 target_kind: str = "unit") -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "to", to)
        _set(self, "weapon", weapon)
        _set(self, "target", target)
        _set(self, "target_kind", target_kind)

    def plain(self) -> dict[str, Any]:
        return {"unit": self.unit, "to": list(self.to), "weapon": self.weapon,
                "target": self.target, "target_kind": self.target_kind}


@dataclass(frozen=True)
class CloseCombat(Action):
    weapon: str
    target: Id
    target_kind: str = "unit"

    def __init__(self, unit: Id, weapon: str, target: Id, target_kind: str = "unit") -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "weapon", weapon)
        _set(self, "target", target)
        _set(self, "target_kind", target_kind)


@dataclass(frozen=True)
class Tackle(Action):
    target: Id
    aggressive: bool = True

    def __init__(self, unit: Id, target: Id, aggressive: bool = True) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "target", target)
        _set(self, "aggressive", aggressive)


@dataclass(frozen=True)
class Ram(Action):
    target: Id

    def __init__(self, unit: Id, target: Id) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "target", target)


@dataclass(frozen=True)
class Order(Action):
    """Will test. kind "technical": take `tokens` CDT off `targets[0]`;
    kind "cohesion": every unit of `targets` performs its action of `orders`."""

    kind: str
    targets: tuple[Id, ...]
    tokens: int = 0
    orders: tuple[Action, ...] = field(default_factory=tuple)
    move_to: Point | None = None

    def __init__(self, unit: Id, kind: str, targets: tuple[Id, ...], tokens: int = 0,
                 orders: tuple[Action, ...] = (), move_to: Point | None = None) -> None:
        """The dataclass's own `__init__` (`orders` defaults to a new empty tuple: the
        same one), written out to run compiled (the generated one is interpreted)."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "kind", kind)
        _set(self, "targets", targets)
        _set(self, "tokens", tokens)
        _set(self, "orders", orders)
        _set(self, "move_to", move_to)

    def plain(self) -> dict[str, Any]:
        return {"unit": self.unit, "kind": self.kind, "targets": list(self.targets),
                "tokens": self.tokens, "orders": [order.plain() for order in self.orders],
                "move_to": list(self.move_to) if self.move_to is not None else None}


@dataclass(frozen=True)
class Repair(Action):
    target: Id
    hit_points: int

    def __init__(self, unit: Id, target: Id, hit_points: int) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "target", target)
        _set(self, "hit_points", hit_points)


@dataclass(frozen=True)
class Warp(Action):
    to: Point

    def __init__(self, unit: Id, to: Point) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "to", to)


@dataclass(frozen=True)
class Piracy(Action):
    target: Id
    target_kind: str = "unit"

    def __init__(self, unit: Id, target: Id, target_kind: str = "unit") -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "target", target)
        _set(self, "target_kind", target_kind)


@dataclass(frozen=True)
class Retreat(Action):
    """Leave the battle by the outer edge of the retreat corridor (R-BAT-1)."""

    def __init__(self, unit: Id) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)


@dataclass(frozen=True)
class Designate(Action):
    """Designate a target for a silo missile (seed, designation; R-BAT-27)."""

    target: Id
    target_kind: str = "unit"

    def __init__(self, unit: Id, target: Id, target_kind: str = "unit") -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "target", target)
        _set(self, "target_kind", target_kind)


@dataclass(frozen=True)
class Lift(Action):
    """Lift a container with medium or heavy grappling arms (R-BAT-28)."""

    cargo: Id

    def __init__(self, unit: Id, cargo: Id) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "cargo", cargo)


@dataclass(frozen=True)
class EnterBunker(Action):
    """A move that leads an exo armour into contact with its side's bunker (R-BAT-29)."""

    bunker: Id

    def __init__(self, unit: Id, bunker: Id) -> None:
        """The dataclass's own `__init__`, written out to run compiled."""
        _set = _SET
        _set(self, "unit", unit)
        _set(self, "bunker", bunker)
