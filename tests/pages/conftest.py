"""Page fixtures: session-logged-in Django test clients and a started two-player
campaign built through the real services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client


@pytest.fixture
def web_client() -> Callable[[Any], Client]:
    """A browser-like client logged in with the session (as the pages are used)."""

    def make(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def setup_campaign(make_campaign, uma, alice, bob):
    """A campaign in set-up with alice and bob seated."""
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma)
    campaign_join(campaign_id=campaign.pk, user=alice)
    campaign_join(campaign_id=campaign.pk, user=bob)
    return campaign


@pytest.fixture
def running_campaign(setup_campaign):
    """Started: turn 1, commercial phase; each player owns a territory."""
    from campaign.services.setup import campaign_start

    campaign_start(campaign_id=setup_campaign.pk)
    setup_campaign.refresh_from_db()
    return setup_campaign


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
