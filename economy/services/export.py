"""The economy's sections of a campaign's export (campaign.services.export): holdings,
the ledger, trades, shipments, kits and artifacts."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.services.export import rows
from economy.models import (
    Artifact,
    Building,
    BuildingKit,
    LedgerEntry,
    Operative,
    Shipment,
    Stock,
    Trade,
    Unit,
    Weapon,
)


def stored_line(value: Any) -> list[str]:
    """A factory's product line as `Building.product` stores it: its items' codes. Text
    joined by ";" (export documents and phase starts written before the line became a
    list, the case book's givens) is read as those codes."""
    if isinstance(value, str):
        return [code for code in value.split(";") if code]
    return [str(code) for code in value or ()]


def imported_building(values: dict[str, Any], _players: Any) -> dict[str, Any]:
    """A building row of an export document as this site stores it (the import's
    `rewrite`): product lines as lists of item codes."""
    for key in ("product", "next_product"):
        if key in values:
            values[key] = stored_line(values[key])
    return values


def export_sections(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    of_players = {"player__campaign": campaign}
    return {
        "ledger": rows(LedgerEntry.objects.filter(**of_players)),
        "buildings": rows(Building.objects.filter(territory__campaign=campaign)),
        "stock": rows(Stock.objects.filter(territory__campaign=campaign)),
        "operatives": rows(Operative.objects.filter(**of_players)),
        "units": rows(Unit.objects.filter(**of_players)),
        "weapons": rows(Weapon.objects.filter(**of_players)),
        "shipments": rows(Shipment.objects.filter(**of_players)),
        "trades": rows(Trade.objects.filter(campaign=campaign)),
        "kits": rows(BuildingKit.objects.filter(**of_players)),
        "artifacts": rows(Artifact.objects.filter(campaign=campaign)),
    }
