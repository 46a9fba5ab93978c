"""The battles' sections of a campaign's export (campaign.services.export): every battle
with its input, log and result, its participants and its record. Odds requests are each
player's private business and stay out."""

from __future__ import annotations

from typing import Any

from battles.models import Battle, BattleParticipant, BattleRecord
from campaign.models import Campaign
from campaign.services.export import rows


def export_sections(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    return {
        "battles": rows(Battle.objects.filter(campaign=campaign)),
        "battle_participants": rows(BattleParticipant.objects.filter(battle__campaign=campaign)),
        "battle_records": rows(BattleRecord.objects.filter(battle__campaign=campaign)),
    }
