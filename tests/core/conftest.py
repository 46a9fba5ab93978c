"""Fixtures shared by the core's tests."""

from __future__ import annotations

import pytest

from campaign.services.campaigns import campaign_join
from campaign.services.setup import campaign_start


@pytest.fixture
def league(make_campaign, uma, alice, bob, settings):
    """A started two-player league (alice and bob) on a six-territory hex map, with real
    dice secrets (what a league gets)."""
    settings.DICE_SECRETS = "random"
    campaign = make_campaign(uma, map_spec={"generator": "hex", "territories": 6, "seed": 4},
                             seed=4)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return campaign
