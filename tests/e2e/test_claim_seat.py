"""Claiming imported seats in a real browser (issue 30.1, R-SEC-3): the importer, the
copy's umpire, reads the waiting seats' codes on the console; one player claims with the
link that carries the code on a phone (390x844), another types a wrong code, reads why,
then the right one on a laptop (1366x800); both end on the campaign's dashboard."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_two_player_turn import PASSWORD

#: How the console names a seat, with a typographic apostrophe (U+2019).
SEAT = "\u2019s seat"

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def _login(browser: Any, base: str, username: str, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    return page


def _fits(page: Any, selector: str, width: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


def _tappable(page: Any, locator: Any) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= 24 and box["width"] >= 24, box


def test_players_claim_imported_seats_with_the_umpires_codes(
        browser, live_server, shoot, make_campaign, uma, alice, bob, charlie) -> None:
    from rest_framework.test import APIClient

    from campaign.models import Player
    from campaign.services.campaigns import campaign_join
    from campaign.services.imports import import_campaign
    from campaign.services.setup import campaign_start

    league = make_campaign(uma, map_spec={"generator": "hex", "territories": 4, "seed": 4},
                           seed=4, name="Exported league")
    for user in (alice, bob):
        campaign_join(campaign_id=league.pk, user=user, invite=league.invite_code)
    campaign_start(campaign_id=league.pk)
    api = APIClient()
    api.force_authenticate(uma)
    document = api.get(f"/api/campaigns/{league.pk}/export/").json()
    copied = import_campaign(document={**document, "campaign": {
        **document["campaign"], "name": "Imported league"}}, umpire=charlie)
    base, cid = live_server.url, copied.pk
    codes = {p.user.first_name: p.claim_code for p in Player.objects.filter(campaign=copied)
             .select_related("user")}

    # --- the umpire (the importer) reads the codes on the console, laptop and phone
    for viewport, name in ((LAPTOP, "laptop"), (PHONE, "phone")):
        u = _login(browser, base, "charlie", viewport)
        u.goto(f"{base}/campaigns/{cid}/umpire/seats/")
        panel = u.locator("section[aria-labelledby=claim-h]")
        text = panel.inner_text()
        assert f"alice{SEAT}" in text and codes["alice"] in text
        assert f"bob{SEAT}" in text and codes["bob"] in text
        _fits(u, ".claim-codes", viewport["width"])
        _tappable(u, panel.get_by_role("link", name="link with the code filled in").first)
        shoot(u, f"40-claim-codes-{name}")

    # --- alice follows the link with her code on a phone
    a = _login(browser, base, "alice", PHONE)
    a.goto(f"{base}/campaigns/{cid}/claim/?code={codes['alice']}")
    assert a.get_by_label("Claim code").input_value() == codes["alice"]
    assert a.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    button = a.get_by_role("button", name="Take the seat")
    _tappable(a, button)
    shoot(a, "41-claim-form-phone")
    button.click()
    a.wait_for_url(f"{base}/campaigns/{cid}/")
    assert "The seat is yours" in a.locator("body").inner_text()
    assert "Imported league" in a.locator("main").inner_text()
    shoot(a, "42-claimed-dashboard-phone")

    # --- bob types a wrong code on a laptop, reads why, then the right one
    b = _login(browser, base, "bob", LAPTOP)
    b.goto(f"{base}/campaigns/{cid}/claim/")
    b.get_by_label("Claim code").fill("not-my-code")
    b.get_by_role("button", name="Take the seat").click()
    b.wait_for_load_state()
    assert "No seat of this campaign waits for that code" in b.locator("main").inner_text()
    assert not Player.objects.filter(campaign=copied, user=bob).exists()
    shoot(b, "43-claim-wrong-code-laptop")
    b.get_by_label("Claim code").fill(codes["bob"])
    b.get_by_role("button", name="Take the seat").click()
    b.wait_for_url(f"{base}/campaigns/{cid}/")
    assert {p.user.username for p in Player.objects.filter(campaign=copied)
            .select_related("user")} == {"alice", "bob"}

    # --- nothing waits any more: the console's panel is gone
    u = _login(browser, base, "charlie", LAPTOP)
    u.goto(f"{base}/campaigns/{cid}/umpire/seats/")
    assert "Seats waiting for their players" not in u.locator("main").inner_text()
