"""The options a battle of a campaign is fought with (its ruleset's engine options), read
by opening, the odds and recording alike."""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Ruleset
from campaign.models import Campaign


def ruleset_options(campaign: Campaign, ruleset: Ruleset) -> dict[str, Any]:
    """The options a battle of this campaign's ruleset is fought with: the campaign's own
    battle settings the ruleset's engine reads (`Ruleset.battle_settings`: Unlimit3d 8's
    R-BAT-3, R-BAT-4, R-BAT-11, R-BAT-32), or else the campaign's `ruleset_options`."""
    settings = campaign.settings
    if ruleset.battle_settings:
        return {option: getattr(settings, setting)
                for option, setting in ruleset.battle_settings.items()}
    return dict(settings.ruleset_options or {})
