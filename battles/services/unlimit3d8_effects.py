"""The campaign's handlers for Unlimit3d 8's battle effects (declared by the ruleset as
`missiles_spent`, `cargo`, `lab_piracy`): silo missiles spent (R-BJ-11), containers
carried off (R-BJ-12) and laboratories robbed (R-BJ-13). The economy and the core write
their own rows."""

from __future__ import annotations

from typing import Any

from battles.services.effects import Recording, effect_handler
from battles.services.inputs import parse_cargo_id
from campaign.services.research import transfer_research_points
from economy.services import battle_effects


@effect_handler("missiles_spent", summary="missiles_fired")
def spend_missiles(rec: Recording, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine spends a side's listed missiles in order (nearest silo first): the first
    `used` entries of the side's list name the silos to empty (the economy spends them)."""
    listed = (rec.battle.input or {}).get("missiles") or {}
    spent: list[dict[str, Any]] = []
    for side, count in sorted((data.get("used") or {}).items()):
        silos = [m.get("silo") for m in (listed.get(side) or [])[:max(0, int(count))]]
        spent += [{"side": side, **entry} for entry in battle_effects.spend_missiles(silos)]
    return spent


@effect_handler("cargo", summary="cargo")
def move_cargo(rec: Recording, data: dict[str, Any]) -> list[dict[str, Any]]:
    """R-BJ-12: a container `taken` by a side that now holds the battlefield stays there
    (the stock is the territory's); one carried off by a unit that retreated goes to the
    territory that unit retreated to, what does not fit in its warehouses is lost; a
    carrier off the map or destroyed, or a lorry destroyed (`lost`), loses it. The
    economy moves the stock."""
    territory = rec.battle.territory
    moved: list[dict[str, Any]] = []
    for c in data.get("cargo") or ():
        fate = c.get("fate", "left")
        parsed = parse_cargo_id(c.get("id", ""))
        if fate == "left" or parsed is None:
            continue
        key, _n = parsed
        units_here = min(int(c.get("units", 0)), battle_effects.stock_on(territory.pk, key))
        taker = rec.sides.get(str(c.get("taken_by")))
        entry: dict[str, Any] = {"container": c.get("id"), "resource": key[0],
                                 "refined": key[1], "pure": key[2], "units": units_here,
                                 "fate": fate, "taken_by": taker}
        if fate == "taken" and taker is not None and taker == territory.owner_id:
            entry["to"] = territory.pk  # the taker holds the field: nothing moves
            moved.append(entry)
            continue
        carrier_id = c.get("carrier")
        carrier = (rec.units.get(int(carrier_id)) if carrier_id is not None
                   and str(carrier_id).isdigit() else None)
        destination = (carrier.territory_id if fate == "taken" and carrier is not None
                       and carrier.status == "ready" and carrier.territory_id != territory.pk
                       else None)
        stored, lost = battle_effects.carry_off(battlefield_id=territory.pk, key=key,
                                                units=units_here, destination_id=destination)
        entry.update(to=destination, stored=stored, lost=lost)
        moved.append(entry)
    return moved


@effect_handler("lab_piracy", summary="lab_piracies")
def rob_laboratories(rec: Recording, data: dict[str, Any]) -> list[dict[str, Any]]:
    """R-BJ-13: a successful piracy on a laboratory steals research points from the
    laboratory's owner (the defender): as many as the difficulty beaten, at most what the
    owner has; they go to the pirate's player (the core moves them)."""
    robbed: list[dict[str, Any]] = []
    owner_id = rec.battle.defender_id
    for attempt in data.get("piracies") or ():
        if not isinstance(attempt, dict) or not attempt.get("success"):
            continue
        thief = rec.sides.get(str(attempt.get("side")))
        if thief is None or owner_id is None or thief == owner_id:
            continue
        points = transfer_research_points(from_player_id=owner_id, to_player_id=thief,
                                          points=int(attempt.get("difficulty") or 0))
        robbed.append({"laboratory": attempt.get("laboratory"), "unit": attempt.get("unit"),
                       "from": owner_id, "to": thief, "research_points": points})
    return robbed
