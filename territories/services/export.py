"""The territories app's sections of a campaign's export (campaign.services.export)."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.services.export import rows
from territories.models import Adjacency, Exploration, Passage, Territory


def export_sections(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    return {
        "territories": rows(Territory.objects.filter(campaign=campaign)),
        "adjacency": rows(Adjacency.objects.filter(campaign=campaign)),
        "explorations": rows(Exploration.objects.filter(campaign=campaign)),
        "passages": rows(Passage.objects.filter(campaign=campaign)),
    }
