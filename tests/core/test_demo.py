"""`manage.py demo` (used by `make run`) loads a league that has already played turns."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from battles.models import Battle
from campaign.models import Campaign, PhaseChange
from economy.services.ledger import balance_from_ledger

pytestmark = pytest.mark.django_db


# Battle jobs are enqueued on commit, as in production: the demo needs real commits.
@pytest.mark.django_db(transaction=True)
def test_the_demo_league_has_played_three_turns_with_battles():
    out = StringIO()
    call_command("demo", "--if-empty", stdout=out)
    campaign = Campaign.objects.get(name="Demo league")
    assert campaign.status == "running"
    assert (campaign.turn, campaign.phase) == (4, "commercial")
    assert PhaseChange.objects.filter(campaign=campaign).count() == 13
    assert Battle.objects.filter(campaign=campaign, status="finished").exists()
    assert not Battle.objects.filter(campaign=campaign).exclude(status="finished").exists()
    assert campaign.players.count() == 4
    for player in campaign.players.all():
        assert player.credits == balance_from_ledger(player)
    text = out.getvalue()
    assert "umpire 'umpire'" in text and "'alice'" in text


def test_it_loads_nothing_into_a_database_that_has_campaigns(uma, make_campaign):
    make_campaign(uma)
    out = StringIO()
    call_command("demo", "--if-empty", stdout=out)
    assert Campaign.objects.count() == 1
    assert "no demo loaded" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_played_demo_league_survives_export_import_export():
    """Issue 18: export -> import -> export is identical up to ids on a played league
    (three turns, battles, trades, research): the same test runs on PostgreSQL in CI."""
    from campaign.services.export import export_campaign
    from campaign.services.imports import import_campaign
    from tests.core.test_export import _normal

    call_command("demo", "--if-empty", stdout=StringIO())
    demo = Campaign.objects.get(name="Demo league")
    first = export_campaign(demo)
    copy = import_campaign(document=first, umpire=demo.umpire)  # the umpire exports it
    assert copy.pk != demo.pk
    second = export_campaign(copy)
    assert _normal(second) == _normal(first)
    assert second["battles"] and len(second["battles"]) == len(first["battles"])
