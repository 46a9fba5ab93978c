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
