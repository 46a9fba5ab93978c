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
    campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code)
    return campaign


@pytest.fixture
def running_campaign(setup_campaign):
    """Started: turn 1, commercial phase; each player owns a territory."""
    from campaign.services.setup import campaign_start

    campaign_start(campaign_id=setup_campaign.pk)
    setup_campaign.refresh_from_db()
    return setup_campaign



DUEL_MAP = {"nodes": ["Alpha", "Beta"], "edges": [["Alpha", "Beta"]]}


@pytest.fixture
def played_campaign(make_campaign, uma, alice, bob, django_capture_on_commit_callbacks):
    """A two-player campaign played through turn 1 via the services: alice buys, crews
    and sends a Golem into bob's territory; the tactical phase resolves the battle."""
    from campaign.models import Campaign
    from campaign.services import clock
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start
    from economy.services.commerce import purchase
    from economy.services.units import unit_update
    from orders.services.sealing import order_submit
    from territories.models import Territory

    campaign = make_campaign(uma, name="Duel", map_spec=DUEL_MAP)
    a = campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    b = campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_start(campaign_id=campaign.pk)
    a.refresh_from_db()
    b.refresh_from_db()
    home = Territory.objects.get(campaign=campaign, owner=a)
    target = Territory.objects.get(campaign=campaign, owner__user=bob)
    unit = purchase(player=a, territory_id=home.pk, item={"kind": "vehicle", "model": "golem"})
    pilot = purchase(player=a, territory_id=home.pk,
                     item={"kind": "operative", "class": "soldier", "name": "Vex"})
    guard = purchase(player=b, territory_id=target.pk, item={"kind": "vehicle",
                                                             "model": "golem"})
    guard_pilot = purchase(player=b, territory_id=target.pk,
                           item={"kind": "operative", "class": "soldier", "name": "Rook"})

    def step() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            clock.advance(campaign_id=campaign.pk, by="umpire")
        a.campaign = b.campaign = Campaign.objects.get(pk=campaign.pk)

    step()  # activity
    unit_update(player=a, unit_id=unit["unit"], pilot=pilot["pilot"])
    unit_update(player=b, unit_id=guard["unit"], pilot=guard_pilot["pilot"])
    step()  # move
    order_submit(player=a, unit_id=unit["unit"], destination_id=target.pk)
    step()  # tactical: reveal, battles open and run (eager jobs)
    campaign.refresh_from_db()
    return campaign
