"""The phone (issue 26, item 9), at 390x844 on the demo league (three turns played): the
meta-map opens readable (names at least 12 CSS px as drawn, before any script runs;
every territory at least 44x44 px to tap), it pans and pinches and has zoom buttons, it
opens on the player's own territories; wide tables become cards; nothing on the pages of
a played campaign is under 24x24 px to tap."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest

from tests.e2e.test_two_player_turn import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

#: Each map name's size as drawn (its font size times the SVG's scale on screen).
LABEL_PX = """() => Array.from(document.querySelectorAll('.map-frame svg text.label')).map(t =>
  [t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a])"""
#: Each territory's tap target as drawn, in CSS px.
TARGETS = """() => Array.from(document.querySelectorAll('.map-frame a[data-territory]')).map(a => {
  const r = a.querySelector('.hit').getBoundingClientRect();
  return [a.textContent.trim(), r.width, r.height]; })"""
#: Controls smaller than 24x24 CSS px (visible ones, outside pictures).
SMALL = """() => Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary'))
  .filter(e => !e.closest('svg') && e.getClientRects().length &&
               getComputedStyle(e).visibility !== 'hidden')
  .map(e => [e.tagName + ' ' + (e.textContent || e.name || '').trim().slice(0, 30),
             e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 23.5 || r.height < 23.5)
  .map(([n, r]) => n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
#: Tables that neither fit their place nor became cards.
HIDDEN_COLUMNS = """() => Array.from(document.querySelectorAll('main table')).filter(t => {
  const room = (t.closest('.table-wrap') || t.parentElement).clientWidth;
  const cards = t.classList.contains('cards') &&
                getComputedStyle(t.querySelector('tbody tr') || t).display === 'block';
  return t.scrollWidth > room + 1 && !cards; }).map(t => t.innerText.slice(0, 40))"""

#: Tables shown as cards, each with every cell named by its column.
CARDS = """() => Array.from(document.querySelectorAll('main table.cards')).map(t =>
  Array.from(t.querySelectorAll('tbody td')).every(td => td.dataset.label !== undefined ||
                                                        !td.textContent.trim()))"""


def _demo() -> Any:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from campaign.models import Campaign
    from tests.conftest import PASSWORD

    call_command("demo", "--if-empty", stdout=StringIO())
    for name in ("alice", "umpire"):
        user = get_user_model().objects.get(username=name)
        user.set_password(PASSWORD)
        user.save()
    return Campaign.objects.get(name="Demo league")


def test_the_map_opens_readable_with_big_targets_and_pans_on_a_phone(
        browser, live_server, shoot) -> None:
    demo = _demo()
    url = f"{live_server.url}/campaigns/{demo.pk}/map/"
    # First paint: with scripts off, what the phone shows before any script runs.
    page = _login(browser, live_server.url, "alice", width=390)
    still = browser.new_context(viewport=PHONE, java_script_enabled=False,
                                storage_state=page.context.storage_state()).new_page()
    still.goto(url)
    sizes = still.evaluate(LABEL_PX)
    assert sizes, "the map names its territories"
    assert [s for s in sizes if s[1] < 12] == []
    targets = still.evaluate(TARGETS)
    assert targets and [t for t in targets if t[1] < 44 or t[2] < 44] == []

    page.set_viewport_size(PHONE)
    page.goto(url)
    frame = page.locator(".map-frame")
    # It opens on alice's own territories: one of them is in view without scrolling.
    mine = page.evaluate("""() => {
      const f = document.querySelector('.map-frame').getBoundingClientRect();
      return Array.from(document.querySelectorAll('.map-frame a[data-mine] .hit'))
        .map(c => c.getBoundingClientRect())
        .filter(r => r.left >= f.left && r.right <= f.right && r.top >= f.top &&
                     r.bottom <= f.bottom).length; }""")
    assert mine >= 1
    shoot(page, "61-phone-map")
    # One finger pans (the frame scrolls), the zoom buttons are there and big enough.
    before = frame.evaluate("f => [f.scrollLeft, f.scrollTop]")
    frame.evaluate("f => f.scrollBy(120, 80)")
    assert frame.evaluate("f => [f.scrollLeft, f.scrollTop]") != before
    for name in ("Zoom in", "Zoom out", "Whole map"):
        box = page.get_by_role("button", name=name).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, name
    # Two fingers spread apart zoom the map in.
    svg = page.locator(".map-frame svg")
    whole = svg.get_attribute("viewBox")
    box = frame.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, gap: float) -> None:
        points = [] if kind == "touchEnd" else [
            {"x": cx - gap, "y": cy, "id": 1}, {"x": cx + gap, "y": cy, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 30)
    for gap in (45, 60, 80, 100, 120):
        touch("touchMove", gap)
    touch("touchEnd", 0)
    assert svg.get_attribute("viewBox") != whole, "a pinch zooms the map"


def test_the_pages_of_a_played_campaign_fit_a_finger_and_their_tables_become_cards(
        browser, live_server, shoot) -> None:
    from battles.models import Battle
    from territories.models import Territory

    demo = _demo()
    base, cid = live_server.url, demo.pk
    home = Territory.objects.filter(campaign=demo, owner__user__username="alice").first()
    battle = Battle.objects.filter(campaign=demo, status="finished").first()
    pages = {"alice": ["", "map/", "economy/", "forces/", "orders/", "battles/",
                       f"battles/{battle.pk}/", "history/", "dice/",
                       f"territories/{home.pk}/"],
             "umpire": ["umpire/"]}
    small, hidden, cards = {}, {}, {}
    for who, paths in pages.items():
        page = _login(browser, base, who, width=390)
        page.set_viewport_size(PHONE)
        for path in paths:
            page.goto(f"{base}/campaigns/{cid}/{path}")
            if found := page.evaluate(SMALL):
                small[f"{who} /{path}"] = found[:8]
            if found := page.evaluate(CARDS):
                cards[f"{who} /{path}"] = found
                shoot(page, f"63-cards-{who}-{path.strip('/').replace('/', '-') or 'dash'}")
            if found := page.evaluate(HIDDEN_COLUMNS):
                hidden[f"{who} /{path}"] = found
                shoot(page, f"62-hidden-columns-{who}-{path.strip('/').replace('/', '-')}")
    assert small == {}
    assert hidden == {}
    assert cards, "the demo's wide tables (forces, orders, battles...) are cards on a phone"
    assert all(all(named) for named in cards.values()), cards


def test_a_large_maps_names_appear_once_zoomed_in_and_its_lines_come_from_the_cache(
        browser, live_server, make_campaign, uma, shoot) -> None:
    """Issue 32, target 5: a map of more than 150 territories writes no names on the
    page; zoomed in far enough to read them (10 CSS px), the names' layer is fetched and
    shown; its lines are a layer the browser keeps (not asked for again on a second
    visit)."""
    campaign = make_campaign(uma, map_spec={"generator": "hex", "territories": 2000, "seed": 2})
    from django.core.signals import request_started

    page = _login(browser, live_server.url, "uma", width=390)
    page.set_viewport_size(PHONE)
    asked: list[str] = []  # what the server was asked for (not what the cache answered)

    def heard(sender: Any, environ: dict[str, Any], **kwargs: Any) -> None:
        if "/map/geometry/" in environ["PATH_INFO"]:
            asked.append(environ["PATH_INFO"])

    request_started.connect(heard, dispatch_uid="map-geometry-requests")
    url = f"{live_server.url}/campaigns/{campaign.pk}/map/"
    page.goto(url)
    page.wait_for_load_state("networkidle")
    labels = page.locator(".map-frame svg image.map-labels")
    assert labels.get_attribute("visibility") == "hidden"
    assert [u for u in asked if u.endswith("/lines.svg")], "the lines are a layer"
    assert not [u for u in asked if u.endswith("/labels.svg")], "no names fetched unzoomed"
    for _ in range(6):
        page.get_by_role("button", name="Zoom in").click()
        if labels.get_attribute("visibility") == "visible":
            break
    assert labels.get_attribute("visibility") == "visible"
    size = page.evaluate("""() => { const s = document.querySelector('.map-frame svg');
      const vb = s.viewBox.baseVal;
      return s.getBoundingClientRect().width / vb.width *
             parseFloat(s.getAttribute('data-label-size')); }""")
    assert size >= 10, size
    page.wait_for_load_state("networkidle")
    assert [u for u in asked if u.endswith("/labels.svg")], "the names fetched once zoomed"
    shoot(page, "64-phone-map-large-names")
    asked.clear()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    request_started.disconnect(dispatch_uid="map-geometry-requests")
    assert page.locator(".map-frame svg image[data-geometry]").count() == 1
    assert not [u for u in asked if u.endswith("/lines.svg")], asked
