"""The options a battle of a campaign is fought with (its ruleset's engine options), read
by opening, the odds and recording alike."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign


def engine_options(campaign: Campaign) -> dict[str, Any]:
    """The engine options this campaign's settings choose (R-BAT-3, R-BAT-4, R-BAT-11,
    R-BAT-32)."""
    settings = campaign.settings
    return {"max_rounds": settings.battle_max_rounds,
            "stalemate_rounds": settings.battle_stalemate_rounds,
            "first_player": settings.battle_first_player,
            "force_field_projectile": settings.battle_force_field_projectile}


def ruleset_options(campaign: Campaign, ruleset: Any) -> dict[str, Any]:
    """The options a battle of this campaign's ruleset is fought with: Unlimit3d 8's
    engine options, or the campaign's `ruleset_options` for the others."""
    if ruleset.name == "unlimit3d8":
        return engine_options(campaign)
    return dict(campaign.settings.ruleset_options or {})
