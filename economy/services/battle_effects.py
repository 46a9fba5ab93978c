"""What a battle does to the economy's rows: units' fates and damage, pilots, buildings
destroyed and damaged, turrets changing hands, silo missiles spent (R-BJ-11) and
containers carried off the battlefield (R-BJ-12). Called by the battles app's
recording (one function per effect), inside its transaction, with the battle's row
locked; each function takes the row locks it needs itself, in the global lock order
(docs/ARCHITECTURE.md, "Locks": territories before buildings before stock)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db.models import Case, IntegerField, Value, When

from campaign.bulk import bulk_set
from economy.models import Building, Operative, Unit, Weapon
from economy.services.storage import add_stock, load_holdings, stock_units, take_stock

ResourceKey = tuple[str, bool, bool]


def spend_missiles(silo_ids: list[int | None]) -> list[dict[str, Any]]:
    """One missile off each silo named (in order; a silo named twice fires twice), never
    below zero; a silo that no longer stands spends nothing. The silos are locked
    together, by id, in one statement: a battle lists its silos nearest first, so two
    recordings sharing two silos named them in opposite orders and, locking one at a
    time, could each hold the one the other wanted (issue 32)."""
    named = sorted({pk for pk in silo_ids if pk is not None})
    silos = ({b.pk: b for b in Building.objects.select_for_update(no_key=True)
              .filter(pk__in=named).order_by("pk")} if named else {})
    spent: list[dict[str, Any]] = []
    changed: set[int] = set()
    for silo_id in silo_ids:
        silo = silos.get(silo_id) if silo_id is not None else None
        if silo is None:
            spent.append({"silo": silo_id, "spent": False})
            continue
        if silo.missiles > 0:
            silo.missiles -= 1
            changed.add(silo.pk)
        spent.append({"silo": silo.pk, "spent": True, "left": silo.missiles})
    for pk in sorted(changed):
        silos[pk].save(update_fields=["missiles"])
    return spent


def missiles_spent(*, listed: Mapping[str, Sequence[Mapping[str, Any]]],
                   used: Mapping[str, Any]) -> list[dict[str, Any]]:
    """R-BJ-11, the effect `missiles_spent`: the engine spends a side's listed missiles in
    order (nearest silo first): the first `used[side]` entries of the side's list
    (`listed`, the battle's input) name the silos to empty."""
    spent: list[dict[str, Any]] = []
    for side, count in sorted(used.items()):
        silos = [m.get("silo") for m in (listed.get(side) or [])[:max(0, int(count))]]
        spent += [{"side": side, **entry} for entry in spend_missiles(silos)]
    return spent


def cargo_id(key: ResourceKey, n: int) -> str:
    """A container's id in a battle: the stock key it holds and its number."""
    resource, refined, pure = key
    return f"{resource}:{int(refined)}{int(pure)}:{n}"


def parse_cargo_id(value: Any) -> tuple[ResourceKey, int] | None:
    try:
        resource, flags, n = str(value).split(":")
        return (resource, flags[0] == "1", flags[1] == "1"), int(n)
    except (ValueError, IndexError):
        return None


def cargo_carried(*, battlefield_id: int, holder_id: int | None, sides: Mapping[str, int],
                  units: Mapping[int, Any], cargo: Iterable[Mapping[str, Any]]
                  ) -> list[dict[str, Any]]:
    """R-BJ-12, the effect `cargo`: a container `taken` by a side that now holds the
    battlefield (`holder_id`) stays there (the stock is the territory's); one carried off
    by a unit that retreated goes to the territory that unit retreated to, what does not
    fit in its warehouses is lost; a carrier off the map or destroyed, or a lorry
    destroyed (`lost`), loses it. `units` are the battle's units after their fates."""
    moved: list[dict[str, Any]] = []
    for c in cargo:
        fate = c.get("fate", "left")
        parsed = parse_cargo_id(c.get("id", ""))
        if fate == "left" or parsed is None:
            continue
        key, _n = parsed
        units_here = min(int(c.get("units", 0)), stock_units(battlefield_id, key))
        taker = sides.get(str(c.get("taken_by")))
        entry: dict[str, Any] = {"container": c.get("id"), "resource": key[0],
                                 "refined": key[1], "pure": key[2], "units": units_here,
                                 "fate": fate, "taken_by": taker}
        if fate == "taken" and taker is not None and taker == holder_id:
            entry["to"] = battlefield_id  # the taker holds the field: nothing moves
            moved.append(entry)
            continue
        carrier_id = c.get("carrier")
        carrier = (units.get(int(carrier_id)) if carrier_id is not None
                   and str(carrier_id).isdigit() else None)
        destination = (carrier.territory_id if fate == "taken" and carrier is not None
                       and carrier.status == "ready" and carrier.territory_id != battlefield_id
                       else None)
        stored, lost = carry_off(battlefield_id=battlefield_id, key=key, units=units_here,
                                 destination_id=destination)
        entry.update(to=destination, stored=stored, lost=lost)
        moved.append(entry)
    return moved


def stock_on(territory_id: int, key: ResourceKey) -> int:
    return stock_units(territory_id, key)


def carry_off(*, battlefield_id: int, key: ResourceKey, units: int,
              destination_id: int | None) -> tuple[int, int]:
    """Take `units` of `key` off the battlefield's stock; put what fits in the warehouses
    of `destination_id` (None: all is lost). Returns (stored, lost)."""
    take_stock(territory=battlefield_id, key=key, units=units)
    if destination_id is None:
        return 0, units
    kept = min(load_holdings(destination_id).room_for(key), units)
    add_stock(territory=destination_id, key=key, units=kept)
    return kept, units - kept


def turrets_change_hands(*, territory_id: int, player_id: int) -> None:
    """R-ECO-17: weapons fitted to a territory's turrets go with the buildings to its new
    owner."""
    Weapon.objects.filter(turret__territory_id=territory_id).update(player_id=player_id)


def destroy_buildings(*, territory_id: int, building_ids: list[int]) -> list[dict[str, Any]]:
    """Buildings destroyed in a battle are gone; R-ECO-17: a turret's weapon is destroyed
    with it. Returns `[{"pk", "kind", "weapon_id"}]` of what was destroyed."""
    if not building_ids:
        return []
    gone = [dict(b) for b in Building.objects.filter(territory_id=territory_id,
                                                     pk__in=building_ids)
            .values("pk", "kind", "weapon_id")]
    Building.objects.filter(territory_id=territory_id, pk__in=building_ids).delete()
    Weapon.objects.filter(pk__in=[b["weapon_id"] for b in gone if b["weapon_id"]]).delete()
    return gone


UNIT_BATTLE_FIELDS = ["damage_repairable", "damage_unrepairable", "state", "status",
                      "pilot", "territory", "locked_until_turn"]
#: Campaign state keys an Unlimit3d 8 unit keeps in its own columns.
UNIT_STATE_COLUMNS = ("damage_repairable", "damage_unrepairable")


def set_unit_state(unit: Unit, state: dict[str, Any]) -> None:
    """A ruleset's new campaign state for a unit (merged over the old one): Unlimit3d 8's
    damage goes to its columns, every other ruleset's keys to `state`. Saved by
    `save_units`."""
    rest = dict(unit.state or {})
    for key, value in state.items():
        if key in UNIT_STATE_COLUMNS:
            setattr(unit, key, max(0, int(value)))
        else:
            rest[key] = value
    unit.state = rest


def unit_destroyed(unit: Any) -> None:
    """The unit is destroyed; its pilot leaves it (where the pilot goes is
    `pilot_killed` or `pilot_moved`). Saved by `save_units`."""
    unit.status = Unit.Status.DESTROYED
    unit.pilot = None


def unit_off_map(unit: Any, *, until_turn: int) -> None:
    """The unit could not retreat: off the map, locked until `until_turn` (seed,
    "Tactical phase": it reappears at the next Movement phase and cannot change Equipment
    or Pilots until the subsequent Strategic Turn). Saved by `save_units`."""
    unit.status = Unit.Status.OFF_MAP
    unit.territory = None
    unit.locked_until_turn = until_turn


def unit_moved(unit: Any, *, territory_id: int) -> None:
    """The unit stands on `territory_id` after the battle (it retreated there, or stayed
    where it fought). Saved by `save_units`."""
    unit.territory_id = territory_id


def pilot_killed(operative: Any) -> None:
    """The pilot died with the unit (the campaign's `pilot_of_destroyed_unit`: dies).
    Saved by `save_pilots`."""
    operative.alive = False


def pilot_moved(operative: Any, *, territory_id: int | None) -> None:
    """The pilot stands on `territory_id` (with its unit, or where it ejected to). Saved
    by `save_pilots`."""
    operative.territory_id = territory_id


def save_units(units: list[Any]) -> None:
    """Units after a battle: their damage, status (destroyed, off the map), crew and
    where they stand, in one statement. The caller holds their row locks. `bulk_set`, not
    `bulk_update`: Django builds a CASE per field and row, which cost a third of a battle
    job's CPU (issue 32)."""
    if units:
        bulk_set(units, UNIT_BATTLE_FIELDS)


PILOT_BATTLE_FIELDS = ["alive", "territory", "xp", "level"]


def save_pilots(operatives: list[Any]) -> None:
    """Pilots after a battle (dead, where they went, their XP and level) in one
    statement (`bulk_set`). The caller holds their row locks."""
    if operatives:
        bulk_set(operatives, PILOT_BATTLE_FIELDS)


def set_buildings_hit_points(*, territory_id: int, hit_points: dict[int, int]) -> None:
    """Damage taken by buildings still standing (never below zero), in one statement."""
    if not hit_points:
        return
    Building.objects.filter(territory_id=territory_id, pk__in=list(hit_points)).update(
        hit_points=Case(*[When(pk=pk, then=Value(max(0, left)))
                          for pk, left in hit_points.items()],
                        output_field=IntegerField()))


def save_experience(operative: Operative) -> None:
    """An operative's XP and level after an award (the rules are the battles app's,
    battles.services.experience). The caller holds the operative's row lock."""
    operative.save(update_fields=["xp", "level"])
