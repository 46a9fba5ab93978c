"""A campaign of each light ruleset in a real browser (issue 12): the umpire creates it
with the ruleset chosen on the page, two players join and buy the ruleset's units from
the economy page, alice's sealed order starts a battle, and its replay reads in the
ruleset's own words with its dice."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_two_player_turn import _advance, _buy, _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("ruleset", "title", "units"), [
    ("onepage", "One-page sci-fi skirmish", {"alice": "rifle_squad", "bob": "rifle_squad"}),
    ("battledice", "Battle dice with God Machines",
     {"alice": "medium_infantry", "bob": "medium_infantry"}),
    ("thirtymm", "30 Minute Missions", {"alice": "standard_mech", "bob": "standard_mech"}),
    # issue 14: each seat picks a faction on the join page and buys from its list
    ("mobius", "Mobius", {"alice": ("kingdom_of_acorn", "acorn_royal_army"),
                          "bob": ("eggman_empire", "egg_pawns")}),
])
def test_a_light_ruleset_campaign_in_the_browser(browser, live_server, shoot, uma, alice,
                                                 bob, ruleset: str, title: str,
                                                 units: dict[str, Any]) -> None:
    from campaign.models import Campaign
    from economy.models import Unit
    from territories.models import Territory

    base = live_server.url
    umpire = _login(browser, base, "uma")
    umpire.goto(f"{base}/campaigns/new/")
    umpire.get_by_label("Campaign name").fill(f"{ruleset} league")
    umpire.get_by_label("Meta-map").select_option("hex")
    umpire.get_by_label("Number of territories").fill("2")
    umpire.get_by_label("Seed").fill("1")  # the map and dice the test was written for
    umpire.get_by_label("Tactical ruleset").select_option(ruleset)
    umpire.get_by_role("button", name="Create campaign").click()
    umpire.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    campaign = Campaign.objects.get(name=f"{ruleset} league")
    assert campaign.settings.ruleset == ruleset
    cid = campaign.pk

    umpire_invite = umpire.locator("code", has_text="/join/").first.inner_text()
    assert "invite=" in umpire_invite
    pages: dict[str, Any] = {}
    for name in ("alice", "bob"):
        page = _login(browser, base, name)
        page.goto(umpire_invite)
        if isinstance(units[name], tuple):
            page.get_by_label("Faction").select_option(units[name][0])
        page.get_by_role("button", name="Take a seat").click()
        page.wait_for_url(f"{base}/campaigns/{cid}/")
        pages[name] = page
    umpire.goto(f"{base}/campaigns/{cid}/")
    umpire.get_by_role("button", name="Start the campaign").click()
    umpire.wait_for_load_state()
    target = Territory.objects.get(campaign_id=cid, owner__user=bob)

    bought = {}
    for name, page in pages.items():
        bought[name] = units[name][1] if isinstance(units[name], tuple) else units[name]
        page.goto(f"{base}/campaigns/{cid}/economy/")
        assert title in page.locator("main").inner_text()
        _buy(page, "Buy unit", "Unit", bought[name])
    for name in pages:
        assert Unit.objects.filter(player__campaign_id=cid, player__user__username=name,
                                   model=bought[name]).count() == 1
    shoot(pages["alice"], f"20-{ruleset}-economy")

    _advance(umpire, base, cid, "Activity")
    _advance(umpire, base, cid, "Move")
    a = pages["alice"]
    a.goto(f"{base}/campaigns/{cid}/orders/")
    a.get_by_role("link", name="Choose destination").first.click()
    a.locator("#order-form").wait_for()
    a.get_by_label(target.name).check()
    a.get_by_role("button", name="Seal order").click()
    a.wait_for_load_state()
    assert "sealed" in a.locator("main").inner_text()

    _advance(umpire, base, cid, "Tactical")
    a.goto(f"{base}/campaigns/{cid}/battles/")
    a.get_by_role("link", name="Battle report").first.click()
    a.get_by_role("heading", name=re.compile("Replay, turn by turn")).wait_for(timeout=30_000)
    assert title in a.locator("main").inner_text()
    # every battle step keeps its dice, folded away (in closed turns too)
    assert '<details class="dice">' in a.content()
    shoot(a, f"21-{ruleset}-battle")
