"""Crewing vehicles and fitting weapons, in the activity phase.

Seed, "Activity phase": "This is also the phase when you can swap equipment on
vehicles as long as both the vehicle and equipment are in the same territory. Empty
vehicles must be parked on the according territory but any weapon not attached to a
vehicle and any exo-armor must be stored in a container and placed in a warehouse."
"Weapon slots": "You can fit as many weapon system on a vehicle as it has weapon
slots. A "H" Weapon slot means you can fit either a Heavy weapon, a Medium weapon or a
Light Weapon on it, a "M" slot a Medium or a Light weapon, an a "L" slot a Light
weapon." "Exo Armor": "even when given a weapon, they can always take an additional
light shield." "Tactical phase": a unit that could not retreat "cannot change any
Equipment or Pilots until the beginning of the subsequent Strategic Turn."

Rulings: R-ECO-14 (a pilot moved onto another unit of the same territory leaves the
one they crewed; an operative follows their unit's territory), R-ECO-5 (an unworn exo
armour needs a container), R-ECO-13 (weapons taken off a unit must find a container).
"""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction

from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Player
from campaign.rules.formulas import validate_loadout, vehicle_slots
from campaign.rules.tables import SLOT_ACCEPTS, VEHICLES, RuleViolation, weapon_size
from campaign.services.journal import record_private
from economy.models import Building, Operative, Unit, Weapon
from economy.services.common import as_id, require_phase
from economy.services.ledger import lock_player
from economy.services.names import clean_name, unit_rename
from economy.services.storage import load_holdings, require_room
from territories.models import Territory

_UNSET = object()


def assign_slots(slots: tuple[str, ...], sizes: list[tuple[int, str]],
                 extra_light_shield: bool) -> dict[int, int]:
    """Weapon id -> slot index, biggest weapons into the smallest slot that takes them;
    the exo armour's additional light shield goes in slot len(slots)."""
    free = sorted(range(len(slots)), key=lambda i: "LMH".index(slots[i]))
    result: dict[int, int] = {}
    leftovers = []
    for wid, size in sorted(sizes, key=lambda p: "LMH".index(p[1]), reverse=True):
        for n, i in enumerate(free):
            if size in SLOT_ACCEPTS[slots[i]]:
                result[wid] = i
                del free[n]
                break
        else:
            leftovers.append(wid)
    if leftovers:
        if extra_light_shield and len(leftovers) == 1:
            result[leftovers[0]] = len(slots)
        else:
            raise RuleViolation("These weapons do not fit the vehicle's slots.")
    return result


def unit_update(*, player: Player, unit_id: object, pilot: object = _UNSET,
                weapons: list[int] | object = _UNSET, name: object = _UNSET) -> Unit:
    """Crew (`pilot`: operative id or None) and/or fit (`weapons`: the complete list of
    weapon ids) one of the player's units, in the activity phase; and/or `name` it (issue
    26: a rename alone is allowed in any phase). All of it or nothing."""
    if pilot is _UNSET and weapons is _UNSET and name is _UNSET:
        raise InvalidInput("Send 'name', 'pilot' and/or 'weapons'.")
    if pilot is _UNSET and weapons is _UNSET:
        return unit_rename(player=player, unit_id=unit_id, name=name)
    cleaned = clean_name(name) if name is not _UNSET else None
    require_phase(player.campaign, "activity")
    with transaction.atomic():
        lock_player(player.pk)  # one crew/fit change of a player at a time
        unit = Unit.objects.select_for_update().filter(
            pk=as_id(unit_id, "unit"), player=player).first()
        if unit is None:
            raise NotFound("No such unit among yours.")
        turn = player.campaign.turn
        if unit.status != Unit.Status.READY or unit.locked_until_turn > turn:
            raise Conflict("This unit cannot change equipment or pilot before the next "
                           "strategic turn.", code="unit_locked")
        if unit.territory_id is None:
            raise Conflict("This unit is not on a territory.", code="unit_locked")
        spec = VEHICLES[unit.model]
        changes: dict[str, Any] = {}
        if pilot is not _UNSET:
            changes["pilot"] = _crew(unit=unit, player=player, pilot=pilot)
        if weapons is not _UNSET:
            changes["weapons"] = _fit(unit=unit, player=player,
                                      weapons=cast(list[Any], weapons),  # checked above
                                      exo=spec.category == "exo_armor")
        require_room(load_holdings(unit.territory_id),
                     cast(Territory, unit.territory),  # on a territory: checked above
                     "what this change leaves in store")
        if cleaned is not None and cleaned != unit.name:
            unit.name = cleaned
            unit.save(update_fields=["name"])
        record_private(player=player, kind="unit_changed",
                       data={"unit": unit.pk, **changes})
    return unit


def _crew(*, unit: Unit, player: Player, pilot: object) -> int | None:
    if pilot is None:
        unit.pilot = None
        unit.save(update_fields=["pilot"])
        return None
    op = Operative.objects.select_for_update().filter(
        pk=as_id(pilot, "pilot"), player=player).first()
    if op is None:
        raise NotFound("No such operative among yours.")
    if not op.alive:
        raise InvalidInput("This operative is dead.", code="operative_dead")
    current = Unit.objects.select_for_update().filter(pilot=op).first()
    if current is not None and current.pk != unit.pk:
        if current.status != Unit.Status.READY or current.locked_until_turn > \
                player.campaign.turn:
            raise Conflict("This operative's unit cannot change pilot this turn.",
                           code="unit_locked")
        if current.territory_id != unit.territory_id:
            raise InvalidInput("The operative crews a unit on another territory.",
                               code="wrong_territory")
        current.pilot = None
        current.save(update_fields=["pilot"])
    elif current is None and op.territory_id != unit.territory_id:
        raise InvalidInput("The operative and the vehicle must be on the same territory.",
                           code="wrong_territory")
    unit.pilot = op
    unit.save(update_fields=["pilot"])
    if op.territory_id != unit.territory_id:
        op.territory_id = unit.territory_id
        op.save(update_fields=["territory"])
    return op.pk


def _fit(*, unit: Unit, player: Player, weapons: list[Any], exo: bool) -> list[int]:
    ids = [as_id(w, "weapons") for w in weapons]
    if len(set(ids)) != len(ids):
        raise InvalidInput("A weapon can be listed only once.")
    found = {w.pk: w for w in Weapon.objects.select_for_update().filter(pk__in=ids,
                                                                       player=player)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"No weapon {missing[0]} among yours.")
    for w in found.values():
        if w.territory_id != unit.territory_id:
            raise InvalidInput(f"Weapon {w.pk} is not on the unit's territory.",
                               code="wrong_territory")
        if w.unit_id is not None and w.unit_id != unit.pk:
            other = Unit.objects.select_for_update().get(pk=w.unit_id)
            if other.status != Unit.Status.READY or other.locked_until_turn > \
                    player.campaign.turn:
                raise Conflict(f"Weapon {w.pk} is on a unit that cannot change equipment "
                               "this turn.", code="unit_locked")
    sizes = [(w.pk, weapon_size(w.weapon, w.templates)) for w in found.values()]
    slots = vehicle_slots(unit.model, extension=unit.extension)
    light_shields = [wid for wid, size in sizes
                     if size == "L" and found[wid].weapon == "shield"]
    try:
        try:
            validate_loadout(unit.model, [s for _, s in sizes], extension=unit.extension)
            extra = False
        except RuleViolation:
            if not (exo and light_shields):
                raise
            rest = [s for wid, s in sizes if wid != light_shields[0]]
            validate_loadout(unit.model, rest, extension=unit.extension, light_shield=True)
            extra = True
        if extra:
            assignment = assign_slots(slots, [p for p in sizes if p[0] != light_shields[0]],
                                      False)
            assignment[light_shields[0]] = len(slots)
        else:
            assignment = assign_slots(slots, sizes, False)
    except RuleViolation as exc:
        raise InvalidInput(str(exc), code="slots") from exc
    # Take everything off first (slot uniqueness), then fit; a weapon taken from a
    # turret of the same territory leaves it (R-ECO-17).

    Building.objects.filter(weapon_id__in=ids).update(weapon=None)
    Weapon.objects.filter(unit=unit).update(unit=None, slot=None)
    Weapon.objects.filter(pk__in=ids).update(unit=None, slot=None)
    for wid, slot in assignment.items():
        Weapon.objects.filter(pk=wid).update(unit=unit, slot=slot,
                                             territory_id=unit.territory_id)
    return sorted(ids)
