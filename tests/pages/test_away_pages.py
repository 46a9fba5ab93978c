"""Absence on the pages (issue 27): the dashboard's card, "I'm back", and the stand-in's
published rules with every seat's record of deadlines."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from campaign.models import Phase, Player
from campaign.services.absence import STAND_IN_RULES

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_campaign, uma, alice, bob):
    from tests.orders.conftest import set_phase

    campaign = make_campaign(uma)
    Player.objects.create(campaign=campaign, user=alice, color="#d62728")
    Player.objects.create(campaign=campaign, user=bob, color="#1f77b4", deadlines_met=4,
                          deadlines_missed=1)
    return set_phase(campaign, Phase.COMMERCIAL)


def test_a_player_sends_the_stand_in_from_the_dashboard_and_comes_back(running, client,
                                                                       alice):
    client.force_login(alice)
    page = client.get(f"/campaigns/{running.pk}/").content.decode()
    assert "Going away?" in page and "You have 14 of 14 days left" in page
    r = client.post(f"/campaigns/{running.pk}/away/", {"days": "3"}, follow=True)
    page = r.content.decode()
    assert "The stand-in plays your seat for 3 days" in page
    assert "I&#x27;m back" in page or "I'm back" in page
    seat = Player.objects.get(campaign=running, user=alice)
    assert seat.away_until is not None and seat.ready
    r = client.post(f"/campaigns/{running.pk}/back/", follow=True)
    assert "Welcome back" in r.content.decode()
    seat.refresh_from_db()
    assert seat.away_until is None and seat.away_days_used == 1


def test_too_many_days_is_a_form_error_that_changes_nothing(running, client, alice):
    client.force_login(alice)
    r = client.post(f"/campaigns/{running.pk}/away/", {"days": "30"}, follow=True)
    assert "14 days of absence left" in r.content.decode()
    assert Player.objects.get(campaign=running, user=alice).away_until is None
    r = client.post(f"/campaigns/{running.pk}/away/", {"days": "x"}, follow=True)
    assert "how many days" in r.content.decode()


def test_the_stand_ins_rules_and_the_records_are_published(running, client, charlie):
    client.force_login(charlie)  # not a member: a private league stays private
    assert client.get(f"/campaigns/{running.pk}/stand-in/").status_code == 404
    running.options = {**running.options, "public": True}
    running.save()
    client.logout()
    page = client.get(f"/campaigns/{running.pk}/stand-in/").content.decode()
    for rule in STAND_IN_RULES:
        assert escape(rule) in page
    assert "bob" in page and ">4<" in page and ">1<" in page
