"""A signed-out visitor follows a public league in a real browser (issue 16): the home
page lists it; the map slides through the campaign's history; a battle report reads in
names and its replay steps; the journal shows what is public. At 1280 and 390 px."""

from __future__ import annotations

import re
from io import StringIO

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_visitor_follows_a_public_league(browser, live_server, shoot, width) -> None:
    from django.core.management import call_command

    from battles.models import Battle
    from campaign.models import Campaign

    call_command("demo", "--if-empty", stdout=StringIO())
    demo = Campaign.objects.get(name="Demo league")
    Campaign.objects.filter(pk=demo.pk).update(options={**demo.options, "public": True})
    base = live_server.url
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(15_000)

    page.goto(f"{base}/")
    public = page.locator("section", has=page.get_by_role("heading", name="Public leagues"))
    assert "Demo league" in public.inner_text()
    public.get_by_role("link", name="Map").first.click()
    page.wait_for_url(f"{base}/campaigns/{demo.pk}/map/")
    assert "Economy" not in page.locator("nav.campaign-nav").inner_text()
    page.get_by_role("link", name="See the map turn by turn").click()
    page.wait_for_url(re.compile(r"\?at=\d+$"))
    page.get_by_role("link", name="← Previous phase").click()
    page.wait_for_load_state()
    page.locator("#map-at").fill("0")  # the slider, all the way back
    page.wait_for_url(re.compile(r"\?at=0$"))
    assert "step 1 of" in page.locator(".replay-controls").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"40-public-map-history-{width}")

    battle = Battle.objects.filter(campaign=demo, status="finished").order_by("pk").first()
    page.goto(f"{base}/campaigns/{demo.pk}/battles/")
    page.locator(f"a[href='/campaigns/{demo.pk}/battles/{battle.pk}/']").first.click()
    page.get_by_role("heading", name="After-action report").wait_for()
    assert "won by" in page.locator("main").inner_text()
    page.locator("[data-replay=next]").click()
    page.wait_for_function("document.querySelector('.replay-pos').textContent"
                           ".includes('step 2 of')")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"41-public-battle-{width}")

    page.goto(f"{base}/campaigns/{demo.pk}/history/")
    assert "Timeline" in page.locator("main").inner_text()
    shoot(page, f"42-public-history-{width}")
    assert page.goto(f"{base}/campaigns/{demo.pk}/economy/").url.startswith(
        f"{base}/accounts/login/")
