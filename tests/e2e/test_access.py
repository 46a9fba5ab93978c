"""Access in a real browser (issues 26 and 27), at 1366x800 and 390x844: an invited
stranger follows the invitation, signs up and lands on the join page of that campaign
(an invited member who logs in likewise); a signed-out spectator browses a public
league's dashboard, territories, battles, dice and their verification without meeting a
login wall or anything private; the profile's calendar address is copied with its button
and renewed with another (the old address then answers 404)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [(1366, 800), (390, 844)]


def _page(browser: Any, size: tuple[int, int], **options: Any) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def _fits(page: Any, size: tuple[int, int]) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0], page.url


def _invitation(campaign: Any, base: str) -> str:
    return f"{base}/campaigns/{campaign.pk}/join/?" + urlencode({"invite": campaign.invite_code})


@pytest.mark.parametrize("size", SIZES)
def test_an_invited_stranger_signs_up_and_lands_on_the_join_page(
        browser, live_server, shoot, make_campaign, uma, size) -> None:
    from campaign.models import Player

    league = make_campaign(uma, name="Invitation league")
    base = live_server.url
    page = _page(browser, size)
    page.goto(_invitation(league, base))
    assert "/accounts/login/" in page.url
    # both sign-up links (the header's and the form's) carry the invitation along
    assert page.locator("a[href^='/accounts/signup/?next=']").count() == 2
    page.locator("main").get_by_role("link", name="Sign up").click()
    page.wait_for_url(re.compile(r"/accounts/signup/\?next="))
    assert "the invitation to join the campaign" in page.locator("main").inner_text()
    _fits(page, size)
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password", exact=True).fill("a-long-unusual-pass-93")
    page.get_by_label("Password confirmation").fill("a-long-unusual-pass-93")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(f"{base}/campaigns/{league.pk}/join/?*")
    assert "Join “Invitation league”" in page.locator("h1").inner_text()
    assert page.get_by_label("Invite code").input_value() == league.invite_code
    _fits(page, size)
    shoot(page, f"50-invited-signup-join-{size[0]}")
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_url(f"{base}/campaigns/{league.pk}/")
    assert Player.objects.filter(campaign=league, user__username="dora").exists()


@pytest.mark.parametrize("size", SIZES)
def test_an_invited_member_logs_in_and_lands_on_the_join_page(
        browser, live_server, make_campaign, uma, charlie, size) -> None:
    league = make_campaign(uma, name="Invitation league")
    base = live_server.url
    page = _page(browser, size)
    page.goto(_invitation(league, base))
    page.get_by_label("Username").fill("charlie")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/campaigns/{league.pk}/join/?*")
    assert page.get_by_label("Invite code").input_value() == league.invite_code
    _fits(page, size)


@pytest.fixture
def public_league(make_campaign, uma, alice, bob):
    from battles.models import Battle
    from campaign.models import Campaign, Event, Player
    from campaign.services import clock
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start
    from territories.models import Territory

    league = make_campaign(uma, map_spec={"generator": "hex", "territories": 6, "seed": 4},
                           seed=4, name="Spectated league")
    for user in (alice, bob):
        campaign_join(campaign_id=league.pk, user=user, invite=league.invite_code)
    campaign_start(campaign_id=league.pk)
    clock.advance(campaign_id=league.pk, by="umpire")  # commercial -> activity: dice shown
    Campaign.objects.filter(pk=league.pk).update(options={**Campaign.objects.get(
        pk=league.pk).options, "public": True})
    Player.objects.filter(campaign=league).update(credits=98765)
    home = Territory.objects.filter(campaign=league, owner__user=bob).first()
    Battle.objects.create(campaign=league, turn=1, territory=home, order=1, sides=[],
                          input={}, seed=1, status="finished")
    secret = Event.objects.create(campaign=league, turn=1, phase="commercial",
                                  kind="purchase", data={"detail": "SECRET-PURCHASE"},
                                  visibility=Event.Visibility.PRIVATE)
    secret.viewers.set(Player.objects.filter(campaign=league, user=alice))
    return league


def _no_wall_no_secret(page: Any, size: tuple[int, int]) -> None:
    assert "/accounts/login/" not in page.url, page.url
    text = page.locator("main").inner_text()
    for secret in ("98765", "SECRET-PURCHASE", "Deposit:", "Your credits"):
        assert secret not in text, (page.url, secret)
    nav = page.locator("nav.campaign-nav").inner_text()
    assert "Orders" not in nav and "Economy" not in nav
    _fits(page, size)


@pytest.mark.parametrize("size", SIZES)
def test_a_signed_out_spectator_browses_a_public_league_without_a_login_wall(
        browser, live_server, shoot, public_league, size) -> None:
    base, cid = live_server.url, public_league.pk
    page = _page(browser, size)
    page.goto(f"{base}/")
    public = page.locator("section", has=page.get_by_role("heading", name="Public leagues"))
    public.get_by_role("link", name="Map").first.click()
    page.wait_for_url(f"{base}/campaigns/{cid}/map/")
    _no_wall_no_secret(page, size)
    page.locator("nav.campaign-nav").get_by_role("link", name="Dashboard").click()
    page.wait_for_url(f"{base}/campaigns/{cid}/")
    _no_wall_no_secret(page, size)
    assert "Players" in page.locator("main").inner_text()
    shoot(page, f"51-spectator-dashboard-{size[0]}")
    page.get_by_role("link", name="every phase's dice, verified").click()
    page.wait_for_url(f"{base}/campaigns/{cid}/dice/")
    _no_wall_no_secret(page, size)
    page.locator("tr", has_text="commercial").first.get_by_role("link", name="verify").click()
    page.wait_for_url(re.compile(r"\?verify="))
    _no_wall_no_secret(page, size)
    assert "verified" in page.locator("tr", has_text="commercial").first.inner_text()
    shoot(page, f"52-spectator-dice-verified-{size[0]}")
    page.goto(f"{base}/campaigns/{cid}/map/")
    page.locator("a[data-territory]").first.click()
    page.wait_for_url(re.compile(rf"/campaigns/{cid}/territories/\d+/$"))
    _no_wall_no_secret(page, size)
    assert "Territorial map" in page.locator("main").inner_text()
    page.get_by_role("link", name="What happened here").click()
    page.wait_for_url(re.compile(r"/history/\?territory="))
    _no_wall_no_secret(page, size)
    page.locator("nav.campaign-nav").get_by_role("link", name="Battles").click()
    page.wait_for_url(f"{base}/campaigns/{cid}/battles/")
    _no_wall_no_secret(page, size)
    page.locator(f"main a[href^='/campaigns/{cid}/battles/']").first.click()
    page.wait_for_url(re.compile(rf"/campaigns/{cid}/battles/\d+/$"))
    _no_wall_no_secret(page, size)
    shoot(page, f"53-spectator-battle-{size[0]}")


@pytest.mark.parametrize("size", SIZES)
def test_the_profile_copies_and_renews_the_calendar_address(
        browser, live_server, shoot, alice, size) -> None:
    base = live_server.url
    page = _page(browser, size, permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{base}/accounts/login/?next=/accounts/profile/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/accounts/profile/")
    field = page.get_by_label("Your calendar address")
    old = field.input_value()
    assert old.startswith(f"{base}/calendar/") and old.endswith(".ics")
    copy = page.locator("#calendar").get_by_role("button", name="Copy")
    box = copy.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 24
    copy.click()
    page.wait_for_function("document.querySelector('[data-copy]').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == old
    _fits(page, size)
    shoot(page, f"54-profile-calendar-{size[0]}")
    assert page.request.get(old).status == 200
    page.get_by_role("button", name="Make a new address").click()
    page.wait_for_url(f"{base}/accounts/profile/#calendar")
    new = page.get_by_label("Your calendar address").input_value()
    assert new != old and new.startswith(f"{base}/calendar/")
    assert "the old one no longer works" in page.locator("main").inner_text()
    assert page.request.get(old).status == 404
    assert page.request.get(new).status == 200
