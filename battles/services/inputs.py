"""Building the engine's plain-data input from the database (units, pilots, weapons and
templates, damage taken, the territory's buildings). Nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BuildingInput,
    CargoInput,
    MissileInput,
    UnitInput,
    WeaponInput,
)
from campaign.rules import tables as T


def side_key(player_id: int) -> str:
    """Engine sides are strings; a campaign side is a player."""
    return str(player_id)


def weapon_input(weapon: Any) -> WeaponInput:
    return WeaponInput(key=T.weapon(weapon.weapon).key,
                       templates=tuple(str(t).lower() for t in (weapon.templates or ())))


def unit_input(unit: Any, *, side: str) -> UnitInput:
    """One piloted unit as the engine wants it. `unit` must have `pilot` and `weapons`
    loaded (select_related / prefetch_related)."""
    pilot = unit.pilot
    if pilot is None:
        raise ValueError(f"unit {unit.pk} has no pilot and cannot fight")
    weapons = sorted(unit.weapons.all(), key=lambda w: (w.slot is None, w.slot or 0, w.pk))
    return UnitInput(
        id=unit.pk, side=side, name=unit.name or f"{unit.model} #{unit.pk}",
        vehicle=T.vehicle(unit.model).key, pilot_class=pilot.klass.lower(),
        pilot_level=pilot.level, weapons=tuple(weapon_input(w) for w in weapons),
        hit_points_lost_repairable=unit.damage_repairable,
        hit_points_lost_unrepairable=unit.damage_unrepairable,
        is_character=True, pilot_id=pilot.pk,
    )


def building_input(building: Any) -> BuildingInput:
    """A building as the engine wants it; a turret (or turret mount) carries its fitted
    weapon (R-ECO-17), loaded with select_related("weapon") when available."""
    fitted = building.weapon if getattr(building, "weapon_id", None) else None
    return BuildingInput(id=building.pk, kind=building.kind, x=building.x, y=building.y,
                         hit_points=building.hit_points, active=building.active,
                         upgrades=tuple(building.upgrades or ()),
                         weapon=weapon_input(fitted) if fitted is not None else None)


def battle_input(*, territory_id: int, defender: str, sides: dict[str, Sequence[Any]],
                 buildings: Iterable[Any] = (), seed: int,
                 options: dict[str, Any] | None = None,
                 missiles: dict[str, Sequence[MissileInput]] | None = None,
                 cargo: Sequence[CargoInput] = ()) -> BattleInput:
    """The whole battle: the defender's side first, attackers after in player order."""
    ordered = {defender: tuple(unit_input(u, side=defender) for u in sides[defender])}
    for key in sorted((k for k in sides if k != defender), key=int):
        ordered[key] = tuple(unit_input(u, side=key) for u in sides[key])
    return BattleInput(territory=territory_id, defender=defender, sides=ordered,
                       buildings=tuple(building_input(b) for b in buildings), seed=seed,
                       options=dict(options or {}),
                       missiles={k: tuple(v) for k, v in (missiles or {}).items() if v},
                       cargo=tuple(cargo))


def cargo_id(key: tuple[str, bool, bool], n: int) -> str:
    """A container's id in the engine: the stock key it holds and its number."""
    resource, refined, pure = key
    return f"{resource}:{int(refined)}{int(pure)}:{n}"


def parse_cargo_id(value: Any) -> tuple[tuple[str, bool, bool], int] | None:
    try:
        resource, flags, n = str(value).split(":")
        return (resource, flags[0] == "1", flags[1] == "1"), int(n)
    except (ValueError, IndexError):
        return None


def cargo_inputs(stock: Iterable[Any], warehouses: Sequence[Any]) -> list[CargoInput]:
    """R-BJ-12: the defender's stored resources on the battlefield, one container per ten
    units of one good (R-ECO-4), standing at the squares of its warehouses in turn."""
    from campaign.rules.tables import CONTAINER_UNITS

    result: list[CargoInput] = []
    for row in sorted(stock, key=lambda r: (r.resource, r.refined, r.pure)):
        key = (row.resource, row.refined, row.pure)
        left, n = row.units, 0
        while left > 0:
            units = min(CONTAINER_UNITS, left)
            where = warehouses[len(result) % len(warehouses)] if warehouses else None
            result.append(CargoInput(id=cargo_id(key, n), x=where.x if where else 8,
                                     y=where.y if where else 8, resource=row.resource,
                                     units=units))
            left -= units
            n += 1
    return result
