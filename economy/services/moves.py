"""Units as sealed orders read them, and on the move at the reveal (seed, "Move Phase";
R-ORD-4 for units coming back onto the map). The reveal is the `orders` app's
(`orders.services.reveal`), which imports these: it decides which sealed orders stand;
these read and move the units, which are the economy's rows. Call inside the advancing
transaction (the reveal) or the order's (`unit_to_order`)."""

from __future__ import annotations

from dataclasses import dataclass

from campaign import sql
from campaign.bulk import update_rows
from campaign.models import Campaign, Player
from economy.models import Operative, Unit


@dataclass(frozen=True)
class OrderedUnit:
    """What a sealed order needs of one of the player's units."""

    id: int
    status: str  # "ready", "off_map" or "destroyed"
    territory_id: int | None
    label: str


def unit_states(campaign: Campaign, unit_ids: list[int]
                ) -> dict[int, tuple[int, str, int | None]]:
    """{unit id: (player id, status, territory id)}, the rows locked."""
    return {pk: (player, status, territory) for pk, player, status, territory in
            Unit.objects.select_for_update().filter(player__campaign=campaign,
                                                    pk__in=unit_ids)
            .values_list("pk", "player_id", "status", "territory_id")}


def move_units(campaign: Campaign, destinations: dict[int, int]) -> None:
    """Put each unit on its destination, on the map (ready), and its pilot with it (the
    pilot sits in the unit: MOV-PILOT-FOLLOWS)."""
    # As plain rows (hundreds a turn, no model instance each: issue 32).
    units = list(Unit.objects.filter(player__campaign=campaign, pk__in=destinations)
                 .values_list("pk", "pilot_id"))
    ready = Unit.Status.READY.value
    update_rows(Unit, ["territory", "status"],
                [(pk, destinations[pk], ready) for pk, _pilot in units])
    update_rows(Operative, ["territory"],
                [(pilot, destinations[pk]) for pk, pilot in units if pilot])


def off_map_units(campaign: Campaign) -> list[tuple[int, int]]:
    """[(unit id, player id)] of the units off the map, oldest first, rows locked."""
    return list(Unit.objects.select_for_update()
                .filter(player__campaign=campaign, status=Unit.Status.OFF_MAP)
                .order_by("pk").values_list("pk", "player_id"))


def unit_to_order(player: Player, unit_id: int) -> OrderedUnit | None:
    """One of the player's units as a sealed order needs it, its row locked (None when it
    is not theirs: answered like a unit that does not exist, R-ORD-1). Sent as text: a
    read of every order POST (`campaign.sql`)."""
    row = sql.fetch_one(
        f"SELECT status, territory_id, name, model FROM {sql.table(Unit)} "
        f"WHERE id = %s AND player_id = %s{sql.lock_clause(shared=False)}",
        [unit_id, player.pk])
    if row is None:
        return None
    status, territory_id, name, model = row
    # The label is the unit's own (`Unit.__str__`), made from the columns read.
    label = str(Unit(pk=unit_id, name=name, model=model))
    return OrderedUnit(id=unit_id, status=status, territory_id=territory_id, label=label)
