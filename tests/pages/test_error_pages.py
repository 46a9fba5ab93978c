"""Issue 17: a refusal on the pages is a styled page that says what the person can do
instead (never Django's bare 403/404); on the API it keeps the contract's JSON shape."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_missing_page_says_where_to_go(settings, alice):
    settings.DEBUG = False
    page = Client()
    page.force_login(alice)
    r = page.get("/campaigns/999999/map/")
    assert r.status_code == 404
    html = r.content.decode()
    assert "Nothing here" in html and "Join it with your invite code" in html
    assert "<nav" in html  # the site's frame, not a bare page
    api = page.get("/api/no-such-route/")
    assert api.status_code == 404 and api.json()["code"] == "not_found"


def test_a_page_for_players_only_says_why_to_the_umpire(settings, uma, running_campaign):
    settings.DEBUG = False
    page = Client()
    page.force_login(uma)
    r = page.get(f"/campaigns/{running_campaign.pk}/economy/")
    assert r.status_code == 403
    html = r.content.decode()
    assert "Only players of this campaign have this page." in html
    assert "ask the campaign" in html


def test_irreversible_actions_ask_first(uma, running_campaign):
    """Issue 17: advancing the phase and handing a seat over ask for a confirmation
    (site.js asks the question a form's data-confirm holds)."""
    page = Client()
    page.force_login(uma)
    html = page.get(f"/campaigns/{running_campaign.pk}/umpire/").content.decode() + \
        page.get(f"/campaigns/{running_campaign.pk}/umpire/seats/").content.decode()
    assert html.count("data-confirm=") >= 2
    assert 'data-confirm="End the' in html and "seat (territories" in html
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "static/js/site.js").read_text()
    assert "data-confirm" in script and "window.confirm" in script


def test_the_umpire_reads_a_players_pages_read_only(uma, alice, running_campaign):
    """Issue 17: from the console the umpire opens a player's economy, forces and journal
    as the player sees them; nothing can be posted as them; orders only if allowed."""
    from campaign.models import Campaign, Player

    seat = Player.objects.get(campaign=running_campaign, user=alice)
    page = Client()
    page.force_login(uma)
    base = f"/campaigns/{running_campaign.pk}/"
    console = page.get(base + "umpire/seats/").content.decode()
    assert f"economy/?as={seat.pk}" in console
    for path in ("economy/", "forces/", "history/"):
        r = page.get(f"{base}{path}?as={seat.pk}")
        assert r.status_code == 200, path
        assert "Read-only" in r.content.decode() and "alice" in r.content.decode()
    assert page.get(base + "economy/").status_code == 403  # without ?as: still not theirs
    assert page.get(f"{base}economy/?as=999999").status_code == 404
    assert page.get(f"{base}orders/?as={seat.pk}").status_code == 403
    Campaign.objects.filter(pk=running_campaign.pk).update(
        options={**running_campaign.options, "umpire_sees_orders": True})
    assert page.get(f"{base}orders/?as={seat.pk}").status_code == 200
    # a POST with ?as never acts as the player
    before = Player.objects.get(pk=seat.pk).ready
    r = page.post(f"{base}ready/?as={seat.pk}", {"ready": "on"})
    assert Player.objects.get(pk=seat.pk).ready == before
    assert r.status_code in (302, 403, 404)  # the umpire has no seat to mark ready


def test_the_umpire_removes_a_seat_before_the_start_and_the_invitation_changes(
        uma, alice, bob, make_campaign):
    from campaign.models import Campaign, Event, Player
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma)
    for who in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=who, invite=campaign.invite_code)
    old_code = campaign.invite_code
    page = Client()
    page.force_login(uma)
    html = page.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Remove bob&#x27;s seat?" in html or "Remove bob's seat?" in html
    bob_seat = Player.objects.get(campaign=campaign, user=bob)
    r = page.post(f"/campaigns/{campaign.pk}/umpire/remove/", {"player": bob_seat.pk},
                  follow=True)
    assert "bob no longer has a seat" in r.content.decode()
    assert not Player.objects.filter(pk=bob_seat.pk).exists()
    assert Campaign.objects.get(pk=campaign.pk).invite_code != old_code
    assert Event.objects.filter(campaign=campaign, kind="player_removed").count() == 1
    # a player cannot remove anyone; a bad id changes nothing
    other = Client()
    other.force_login(alice)
    assert other.post(f"/campaigns/{campaign.pk}/umpire/remove/",
                      {"player": Player.objects.get(user=alice).pk}).status_code == 403
    r = page.post(f"/campaigns/{campaign.pk}/umpire/remove/", {"player": "x"}, follow=True)
    assert "Choose a player" in r.content.decode()
    assert Player.objects.filter(campaign=campaign).count() == 1


def test_with_approval_a_seat_waits_for_the_umpire_before_the_start(uma, alice, bob,
                                                                    make_campaign):
    """Issue 17: optional approval of the seats taken with the invitation."""
    from campaign.models import Campaign, Player
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma, options={"approve_joins": True})
    for who in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=who, invite=campaign.invite_code)
    assert not Player.objects.filter(campaign=campaign, approved=True).exists()
    page = Client()
    page.force_login(uma)
    base = f"/campaigns/{campaign.pk}/"
    assert "waiting for approval" in page.get(base).content.decode()
    r = page.post(base + "start/", follow=True)
    assert "Approve or remove the seats" in r.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).status == "setup"
    for seat in Player.objects.filter(campaign=campaign):
        r = page.post(base + "umpire/approve/", {"player": seat.pk}, follow=True)
        assert "seat is approved" in r.content.decode()
    page.post(base + "start/")
    assert Campaign.objects.get(pk=campaign.pk).status == "running"
    other = Client()
    other.force_login(alice)
    assert other.post(base + "umpire/approve/", {"player": 1}).status_code == 403
