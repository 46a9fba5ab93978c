"""Units on the move at the reveal (seed, "Move Phase"; R-ORD-4 for units coming back
onto the map). The reveal itself is the core's (`campaign.services.reveal`): it decides
which sealed orders stand; these providers, registered in EconomyConfig.ready(), read and
move the units, which are the economy's rows. Call inside the advancing transaction."""

from __future__ import annotations

from campaign.bulk import bulk_set
from campaign.models import Campaign, Player
from campaign.services.orders import OrderedUnit
from economy.models import Operative, Unit


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
    units = list(Unit.objects.filter(player__campaign=campaign, pk__in=destinations))
    for unit in units:
        unit.territory_id = destinations[unit.pk]
        unit.status = Unit.Status.READY
    bulk_set(units, ["territory", "status"])
    seats = {u.pilot_id: u.territory_id for u in units if u.pilot_id}
    pilots = list(Operative.objects.filter(pk__in=seats))
    for pilot in pilots:
        pilot.territory_id = seats[pilot.pk]
    bulk_set(pilots, ["territory"])


def off_map_units(campaign: Campaign) -> list[tuple[int, int]]:
    """[(unit id, player id)] of the units off the map, oldest first, rows locked."""
    return list(Unit.objects.select_for_update()
                .filter(player__campaign=campaign, status=Unit.Status.OFF_MAP)
                .order_by("pk").values_list("pk", "player_id"))


def unit_to_order(player: Player, unit_id: int) -> OrderedUnit | None:
    """One of the player's units as a sealed order needs it, its row locked (None when it
    is not theirs: answered like a unit that does not exist, R-ORD-1)."""
    unit = Unit.objects.select_for_update().filter(pk=unit_id, player=player).first()
    if unit is None:
        return None
    return OrderedUnit(id=unit.pk, status=unit.status, territory_id=unit.territory_id,
                       label=str(unit))
