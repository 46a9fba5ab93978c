"""Recompute the exploration rolls of a finished phase from its revealed seed (issue 18;
registered with `campaign.services.commitments`)."""

from __future__ import annotations

from typing import Any

from campaign.dice import dice_for
from campaign.models import Campaign
from campaign.rules.tables import DISCOVERY_NEMESIS_MIN, discovery_for_face
from campaign.services.commitments import Check
from territories.models import Exploration
from territories.services.exploration import exploration_purpose


def verify_explorations(campaign: Campaign, turn: int, phase: str, secret: str) -> Check:
    check = Check()
    for e in (Exploration.objects.filter(campaign=campaign, turn=turn, phase=phase)
              .select_related("territory").order_by("pk")):
        dice = dice_for(secret, campaign.seed, exploration_purpose(e.territory))
        roll = dice.roll_3d8()
        expected: dict[str, Any] = {"active_die": roll.active, "passive_die": roll.passive,
                                    "nemesis_die": roll.nemesis}
        if roll.nemesis >= DISCOVERY_NEMESIS_MIN:
            face = dice.d8()
            expected["discovery_die"] = face
            if discovery_for_face(face).credits_die_multiplier:
                expected["value_die"] = dice.d8()
        check.rolls += dice.count
        recorded = {k: getattr(e, k) for k in expected}
        if recorded != expected:
            check.mismatches.append({"territory": e.territory.name, "recorded": recorded,
                                     "recomputed": expected})
    return check
