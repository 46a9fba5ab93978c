"""Fixtures of the meta-map tests: started campaigns on hand-drawn maps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.services.campaigns import campaign_join


@pytest.fixture
def started(make_campaign, uma, alice, bob) -> Callable[..., Any]:
    """A started campaign with alice and bob (plus any extra users)."""
    from campaign.services.setup import campaign_start

    def make(*, map_spec: dict | None = None, options: dict | None = None, seed: int = 7,
             users: tuple = ()):
        campaign = make_campaign(uma, map_spec=map_spec, options=options, seed=seed)
        for user in (alice, bob, *users):
            campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
        campaign_start(campaign_id=campaign.pk)
        campaign.refresh_from_db()
        return campaign

    return make
