"""The trust pages (issue 18): the umpire rolls back from the console (with a
confirmation), a player clones a sandbox from the dice page and switches seats there;
every sandbox page carries its banner."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.models import Campaign, Event, Player
from campaign.services import clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league):
    campaign = league  # the core's started two-player league (tests/core/conftest.py)
    clock.advance(campaign_id=campaign.pk, by="umpire")  # -> activity
    campaign.refresh_from_db()
    return campaign


def _page(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_umpire_rolls_back_from_the_console_only_when_confirmed(league, uma):
    page = _page(uma)
    html = page.get(f"/campaigns/{league.pk}/umpire/correct/").content.decode()
    assert 'value="1:commercial"' in html and "Roll back" in html
    url = f"/campaigns/{league.pk}/umpire/rollback/"
    r = page.post(url, {"point": "1:commercial", "reason": "oops"}, follow=True)
    assert "Tick the box" in r.content.decode()
    assert Campaign.objects.get(pk=league.pk).phase == "activity"
    r = page.post(url, {"point": "1:commercial", "reason": "oops", "confirm": "1"},
                  follow=True)
    assert "Rolled back" in r.content.decode()
    assert Campaign.objects.get(pk=league.pk).phase == "commercial"
    assert Event.objects.get(campaign=league, kind="campaign_rolled_back").data["reason"] \
        == "oops"


def test_a_player_clones_a_sandbox_from_the_dice_page_and_plays_another_seat(league, alice):
    page = _page(alice)
    html = page.get(f"/campaigns/{league.pk}/dice/").content.decode()
    assert "Clone a sandbox" in html
    r = page.post(f"/campaigns/{league.pk}/sandbox/", {"point": "1:activity"})
    assert r.status_code == 302
    copy = Campaign.objects.get(sandbox_of=league)
    assert r["Location"] == f"/campaigns/{copy.pk}/"
    html = page.get(r["Location"]).content.decode()
    assert "sandbox-banner" in html and "Playing as" in html
    bob_seat = Player.objects.get(campaign=copy, user__username__startswith="bob (sandbox ")
    r = page.post(f"/campaigns/{copy.pk}/sandbox/seat/",
                  {"player": bob_seat.pk, "next": f"/campaigns/{copy.pk}/economy/"})
    assert r.status_code == 302 and r["Location"] == f"/campaigns/{copy.pk}/economy/"
    assert Campaign.objects.get(pk=copy.pk).sandbox_seat_id == bob_seat.pk
    # the original has no banner; a refused clone says why and makes nothing
    assert "sandbox-banner" not in page.get(f"/campaigns/{league.pk}/").content.decode()
    r = page.post(f"/campaigns/{league.pk}/sandbox/", {"point": "9:move"}, follow=True)
    assert "A sandbox starts where a phase" in r.content.decode()
    assert Campaign.objects.filter(sandbox_of=league).count() == 1
