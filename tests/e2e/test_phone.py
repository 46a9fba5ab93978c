"""Every page at 390x844 (issue 17): usable on a phone without scrolling sideways. The
demo league (three turns played) gives each page real content; a player and the umpire
visit them all."""

from __future__ import annotations

from io import StringIO

import pytest

from tests.e2e.test_two_player_turn import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: What sticks out past the viewport (outside scrolling tables), for the failure message.
WIDEST = """() => Array.from(document.querySelectorAll('body *')).filter(e =>
  e.getBoundingClientRect().right > 392 && !e.closest('.table-wrap')).slice(0, 6).map(e =>
  e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))"""


def test_every_page_fits_a_phone(browser, live_server, shoot) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from battles.models import Battle
    from campaign.models import Campaign
    from territories.models import Territory
    from tests.conftest import PASSWORD

    call_command("demo", "--if-empty", stdout=StringIO())
    demo = Campaign.objects.get(name="Demo league")
    for name in ("alice", "umpire"):
        user = get_user_model().objects.get(username=name)
        user.set_password(PASSWORD)
        user.save()
    base, cid = live_server.url, demo.pk
    home = Territory.objects.filter(campaign=demo, owner__user__username="alice").first()
    battle = Battle.objects.filter(campaign=demo, status="finished").first()
    pages = {"alice": ["", "map/", "economy/", "forces/", "orders/", "battles/",
                       f"battles/{battle.pk}/", "history/", "dice/",
                       f"territories/{home.pk}/"],
             "umpire": ["umpire/", "map/?at=0"]}
    too_wide = {}
    for who, paths in pages.items():
        page = _login(browser, base, who, width=390)
        for path in paths:
            page.goto(f"{base}/campaigns/{cid}/{path}")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                too_wide[f"{who} {path}"] = (width, page.evaluate(WIDEST))
                shoot(page, f"50-too-wide-{who}-{path.strip('/').replace('/', '-') or 'dash'}")
        page.goto(f"{base}/accounts/profile/")
        if page.evaluate("document.documentElement.scrollWidth") > 390:
            too_wide[f"{who} profile"] = page.evaluate("document.documentElement.scrollWidth")
    assert not too_wide, too_wide


def test_the_map_zooms_and_pans_on_a_phone(browser, live_server, make_campaign, uma) -> None:
    """Issue 17: map labels readable on a phone: zoom in with the button, pan by dragging,
    back to the whole map."""
    campaign = make_campaign(uma, map_spec={"generator": "hex", "territories": 60, "seed": 2})
    page = _login(browser, live_server.url, "uma", width=390)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/map/")
    svg = page.locator(".map-frame svg")
    assert svg.get_attribute("viewBox") == "0 0 1000 1000"
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    zoomed = svg.get_attribute("viewBox")
    assert zoomed != "0 0 1000 1000"
    assert "225%" in page.locator("[data-map-zoom-level]").inner_text()
    box = svg.bounding_box()
    page.mouse.move(box["x"] + 200, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 100, box["y"] + 150, steps=5)
    page.mouse.up()
    assert svg.get_attribute("viewBox") != zoomed  # panned
    page.get_by_role("button", name="Whole map").click()
    assert svg.get_attribute("viewBox") == "0 0 1000 1000"
