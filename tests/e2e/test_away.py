"""Absence in a real browser (issue 27): alice tells the site she is away, the stand-in
plays her seat (everyone sees it, the league moves on without waiting for her), and she
takes the seat back from her dashboard; at a desk's width and a phone's."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, Phase, Player
from tests.e2e.test_two_player_turn import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_away_players_seat_is_played_by_the_stand_in_and_handed_back(
        browser, live_server, shoot, make_campaign, uma, alice, bob, width) -> None:
    from tests.orders.conftest import set_phase

    campaign = make_campaign(uma, options={"advance_when_all_ready": True})
    Player.objects.create(campaign=campaign, user=alice, color="#d62728")
    Player.objects.create(campaign=campaign, user=bob, color="#1f77b4")
    set_phase(campaign, Phase.COMMERCIAL)
    base, cid = live_server.url, campaign.pk

    page = _login(browser, base, "alice", width=width)
    page.goto(f"{base}/campaigns/{cid}/")
    card = page.locator("#away")
    assert "You have 14 of 14 days left" in card.inner_text()
    card.get_by_label("Away for").fill("4")
    card.get_by_role("button", name="Let the stand-in play").click()
    page.wait_for_load_state()
    assert "The stand-in plays your seat for 4 days" in page.locator("main").inner_text()
    assert "plays your seat until" in page.locator("#away").inner_text()
    shoot(page, f"away-alice-{width}")
    back = page.get_by_role("button", name="I'm back")
    box = back.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 24

    # bob sees who the stand-in plays for, reads its rules, and marks ready: the stand-in
    # has marked alice ready, so the league moves on at once.
    other = _login(browser, base, "bob", width=width)
    other.goto(f"{base}/campaigns/{cid}/")
    players = other.locator("#players-h + ul").inner_text()
    assert "away, the stand-in plays" in players
    other.get_by_role("link", name="away, the stand-in plays").click()
    other.wait_for_load_state()
    assert "It gives no orders" in other.locator("main").inner_text()
    other.goto(f"{base}/campaigns/{cid}/")
    other.get_by_role("button", name="I am ready for this phase").click()
    other.wait_for_load_state()
    assert Campaign.objects.get(pk=cid).phase == Phase.ACTIVITY

    # alice is back: her seat is hers again, and nobody is ready for her any more.
    page.goto(f"{base}/campaigns/{cid}/")
    page.get_by_role("button", name="I'm back").click()
    page.wait_for_load_state()
    assert "Welcome back" in page.locator("main").inner_text()
    seat = Player.objects.get(campaign=campaign, user=alice)
    assert seat.away_until is None and not seat.stand_in
    assert "Going away?" in page.locator("#away").inner_text()
    overflow = page.evaluate("() => document.documentElement.scrollWidth")
    assert overflow <= width + 2
    page.context.close()
    other.context.close()
