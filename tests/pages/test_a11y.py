"""Accessibility pass (issue 7: "Accessible (labels, keyboard, contrast)"): every page
each role can reach is parsed, and an unlabelled input/select/textarea, an image without
alt, an SVG picture without a name, a missing `lang`, main landmark or skip link fails."""

from __future__ import annotations

import pytest

from tests.pages.a11y import page_problems
from tests.pages.test_crawl import crawl

pytestmark = pytest.mark.django_db


def test_the_checker_catches_what_it_should() -> None:
    good = ('<html lang="en"><body><a class="skip" href="#content">Skip</a>'
            '<main id="content"><label for="a">A</label><input id="a" name="a">'
            '<label>B <select name="b"></select></label>'
            '<input type="hidden" name="csrf"><textarea aria-label="C"></textarea>'
            '<img src="x.png" alt=""><svg role="img"><title>Map</title></svg>'
            '<svg aria-hidden="true"></svg></main></body></html>')
    assert page_problems(good) == []
    assert any("unlabelled <input" in p for p in page_problems(good.replace(
        '<label for="a">A</label>', "")))
    assert any("no alt" in p for p in page_problems(good.replace(' alt=""', "")))
    assert any("svg role=img" in p for p in page_problems(good.replace(
        "<title>Map</title>", "")))
    assert any("lang" in p for p in page_problems(good.replace(' lang="en"', "")))
    assert any("skip link" in p for p in page_problems(good.replace('class="skip" ', "")))


@pytest.mark.parametrize("role", ["uma", "alice", "bob", "charlie"])
def test_every_reachable_page_passes(role, request, web_client, played_campaign) -> None:
    pages: dict[str, list[str]] = {}
    crawl(web_client(request.getfixturevalue(role)), "/",
          inspect=lambda url, html: pages.__setitem__(url, page_problems(html)))
    assert len(pages) >= (8 if role != "charlie" else 2)
    failing = {url: problems for url, problems in pages.items() if problems}
    assert not failing, failing


def test_anonymous_pages_pass(client, played_campaign) -> None:
    pages: dict[str, list[str]] = {}
    for url in ("/", "/accounts/login/"):
        response = client.get(url)
        pages[url] = page_problems(response.content.decode())
    crawl(client, "/", inspect=lambda url, html: pages.__setitem__(url, page_problems(html)))
    assert not {u: p for u, p in pages.items() if p}


@pytest.mark.parametrize("phase", ["commercial", "activity", "move"])
def test_a_players_pages_pass_in_every_phase(phase, web_client, running_campaign, alice
                                             ) -> None:
    """The forms change with the phase (build and buy, crew and activate, orders)."""
    from campaign.models import Campaign
    from economy.models import Unit
    from territories.models import Territory

    home = Territory.objects.get(campaign=running_campaign, owner__user=alice)
    Unit.objects.create(player=home.owner, territory=home, model="golem")
    Campaign.objects.filter(pk=running_campaign.pk).update(phase=phase)
    pages: dict[str, list[str]] = {}
    crawl(web_client(alice), f"/campaigns/{running_campaign.pk}/",
          inspect=lambda url, html: pages.__setitem__(url, page_problems(html)))
    assert len(pages) >= 6
    assert not {u: p for u, p in pages.items() if p}


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_text_on_the_maps_has_enough_contrast() -> None:
    """WCAG AA: 4.5:1 for text. Building initials are white on the building's fill;
    territory names on the meta-map are outlined in white, so they read over any
    owner's colour; player colours themselves carry no text."""
    import re

    from territories.svg import meta_map_svg, territory_map_svg

    tmap = territory_map_svg(name="Alpha", buildings=[
        {"id": 1, "kind": "warehouse", "x": 1, "y": 1, "active": True, "hit_points": 5},
        {"id": 2, "kind": "warehouse", "x": 2, "y": 1, "active": False, "hit_points": 5}])
    fills = re.findall(r'rx="4" fill="(#[0-9a-f]{6})"/><text[^>]*fill="(#[0-9a-f]{3,6})"', tmap)
    assert len(fills) == 2
    for background, text in fills:
        assert contrast(background, text) >= 4.5, (background, text)
    mmap = meta_map_svg(campaign_id=1, campaign_name="C", viewer=None, players={
        1: {"color": "#bcbd22", "username": "alice"}},
        territories=[{"id": 1, "name": "Alpha", "x": .5, "y": .5, "owner": 1,
                      "neighbors": []}])
    label = re.search(r"<text[^>]*>Alpha</text>", mmap).group(0)
    assert 'stroke="#fff"' in label and 'paint-order="stroke"' in label
    assert contrast("#111111", "#ffffff") >= 4.5
