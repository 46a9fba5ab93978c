"""Issue 26, item 4, in a real browser at 1366x800 and 390x844: alice buys a Golem and
reads the name it was given, renames it on the forces page with the small inline form,
and finds the new name in the trade form, in the offer she sends and in her journal."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_two_player_turn import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fits(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [1366, 390])
def test_buy_see_rename_and_trade_a_named_unit(browser, live_server, make_campaign, uma,
                                              alice, bob, shoot, width) -> None:
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start
    from economy.models import Unit

    campaign = make_campaign(uma)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    base, cid = live_server.url, campaign.pk

    page = _login(browser, base, "alice", width=width)
    page.set_viewport_size({"width": width, "height": 800 if width > 400 else 844})
    page.goto(f"{base}/campaigns/{cid}/economy/")
    form = page.locator("form", has=page.get_by_role("button", name="Buy vehicle"))
    form.get_by_label("Model").select_option("golem")
    form.get_by_role("button", name="Buy vehicle").click()
    page.wait_for_load_state()
    golem = Unit.objects.get(player__campaign=campaign, player__user=alice)
    assert re.fullmatch(r"Golem '[A-Za-z ]+'", golem.name), golem.name
    assert f"Bought {golem.name}" in page.locator("main").inner_text()

    page.goto(f"{base}/campaigns/{cid}/forces/")
    heading = page.locator(f"#unit-{golem.pk}")
    assert heading.inner_text().startswith(golem.name)
    assert str(golem.pk) not in page.locator("main").inner_text()
    field = page.get_by_label(f"New name for {golem.name}")
    button = page.locator(f"#unit-card-{golem.pk}").get_by_role("button", name="Rename")
    box = button.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 24
    _fits(page, width)
    shoot(page, f"60-unit-names-forces-{width}")
    field.fill("Iron Wolf")
    button.click()
    page.wait_for_load_state()
    assert page.locator(f"#unit-{golem.pk}").inner_text().startswith("Iron Wolf")
    assert "Renamed: Iron Wolf." in page.locator("main").inner_text()
    golem.refresh_from_db()
    assert golem.name == "Iron Wolf"

    # A refused name says why and changes nothing.
    page.get_by_label("New name for Iron Wolf").fill("     ")
    page.locator(f"#unit-card-{golem.pk}").get_by_role("button", name="Rename").click()
    page.wait_for_load_state()
    assert "A name cannot be empty." in page.locator("main").inner_text()
    golem.refresh_from_db()
    assert golem.name == "Iron Wolf"

    page.goto(f"{base}/campaigns/{cid}/economy/")
    units = page.get_by_label("Units (they go without their pilot)")
    assert "Iron Wolf on" in units.inner_text()
    units.select_option(str(golem.pk))
    page.get_by_role("button", name="Offer").click()
    page.wait_for_load_state()
    assert "alice offers Iron Wolf to bob" in page.locator("#trades").inner_text()
    _fits(page, width)

    page.goto(f"{base}/campaigns/{cid}/history/")
    assert "alice offers Iron Wolf to bob" in page.locator("main").inner_text()
    shoot(page, f"61-unit-names-journal-{width}")
