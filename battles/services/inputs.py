"""The campaign's side of a battle's input: its units, crews, buildings and goods read
from the database as the ruleset-neutral `Battlefield` (`battles.rulesets.base`), which
the campaign's ruleset turns into its own input (`Ruleset.forces`). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from battles.rulesets.base import Battlefield, FieldUnit, Json, Plan
from campaign.rules.tables import CONTAINER_UNITS
from economy.labels import unit_label
from economy.services.battle_effects import cargo_id

if TYPE_CHECKING:
    from economy.models import Building, Unit


def side_key(player_id: int) -> str:
    """Ruleset sides are strings; a campaign side is a player."""
    return str(player_id)


def field_unit(unit: Unit, *, reinforcement: bool = False) -> FieldUnit:
    """One campaign unit as every ruleset receives it. Unlimit3d 8 units carry their pilot
    (`crew`) and fitted weapons in slot order (`profile["weapons"]`): `unit` must have
    `pilot` and `weapons` loaded (select_related / prefetch_related)."""
    pilot = unit.pilot
    crew = ({"id": pilot.pk, "class": pilot.klass, "level": pilot.level, "xp": pilot.xp}
            if pilot is not None else None)
    weapons = sorted(unit.weapons.all(), key=lambda w: (w.slot is None, w.slot or 0, w.pk))
    profile = {**(unit.profile or {}),
               "weapons": [{"key": w.weapon, "templates": list(w.templates or ())}
                           for w in weapons]} if weapons else dict(unit.profile or {})
    state = {**(unit.state or {}), "damage_repairable": unit.damage_repairable,
             "damage_unrepairable": unit.damage_unrepairable}
    return FieldUnit(id=unit.pk, player=unit.player_id, key=unit.model,
                     name=unit_label(unit), profile=profile,
                     state=state, crew=crew, reinforcement=reinforcement)


def building_data(building: Building) -> Json:
    """A building as the battlefield holds it; a turret (or turret mount) carries its
    fitted weapon (R-ECO-17), loaded with select_related("weapon") when available."""
    fitted = building.weapon if getattr(building, "weapon_id", None) else None
    return {"id": building.pk, "kind": building.kind, "x": building.x, "y": building.y,
            "hit_points": building.hit_points, "active": building.active,
            "upgrades": list(building.upgrades or ()),
            "weapon": ({"key": fitted.weapon, "templates": list(fitted.templates or ())}
                       if fitted is not None else None)}


def battlefield(*, territory_id: int, defender: int | None,
                sides: Mapping[int, Sequence[Any]], reinforcements: Iterable[int] = (),
                buildings: Iterable[Any] = (), seed: int, options: Json | None = None,
                extras: Json | None = None,
                plans: Mapping[int, Any] | None = None) -> Battlefield:
    """Everything a ruleset needs to build one battle's input; `plans` are the sides'
    sealed battle plans (player id -> `orders.models.BattlePlan`, issue 29)."""
    arriving = set(reinforcements)
    return Battlefield(
        plans={pid: Plan(stance=p.stance, retreat_at=p.retreat_at, focus=p.focus)
               for pid, p in sorted((plans or {}).items())},
        territory=territory_id, defender=defender,
        sides={pid: tuple(field_unit(u, reinforcement=u.pk in arriving) for u in units)
               for pid, units in sides.items()},
        buildings=tuple(building_data(b) for b in buildings), seed=seed,
        options=dict(options or {}), extras=dict(extras or {}))




def cargo_inputs(stock: Iterable[Any], warehouses: Sequence[Any]) -> list[Json]:
    """R-BJ-12: the defender's stored resources on the battlefield, one container per ten
    units of one good (R-ECO-4), standing at the squares of its warehouses in turn."""
    result: list[Json] = []
    for row in sorted(stock, key=lambda r: (r.resource, r.refined, r.pure)):
        key = (row.resource, row.refined, row.pure)
        left, n = row.units, 0
        while left > 0:
            units = min(CONTAINER_UNITS, left)
            where = warehouses[len(result) % len(warehouses)] if warehouses else None
            result.append({"id": cargo_id(key, n), "x": where.x if where else 8,
                           "y": where.y if where else 8, "resource": row.resource,
                           "units": units})
            left -= units
            n += 1
    return result
