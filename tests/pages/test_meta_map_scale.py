"""The meta-map page at league scale (issue 32, target 5): what never changes in play is
served once as geometry layers the browser keeps, the page carries what changes, it is
compressed (unless it reflects a search), and its table is a page of territories, the
viewer's own first, with a name search."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from territories.models import Territory
from territories.pages import TABLE_ROWS

pytestmark = pytest.mark.django_db

BIG = 300  # more than the 150 territories whose names the page writes itself


@pytest.fixture
def big_league(make_campaign, uma, alice, bob) -> Any:
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma, name="Big league", map_spec={
        "generator": "hex", "territories": BIG, "seed": 3})
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return campaign


def _layers(html: str) -> dict[str, str]:
    lines = re.search(r'data-geometry="([^"]+)"', html)
    labels = re.search(r'data-labels="([^"]+)"', html)
    return {"lines": lines.group(1) if lines else "", "labels": labels.group(1) if labels else ""}


def _rows(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr><td>(?:<a [^>]*>)?([^<]+)", body)


def test_the_page_draws_the_lines_from_a_layer_the_browser_keeps(web_client, big_league,
                                                                  alice) -> None:
    client = web_client(alice)
    html = client.get(f"/campaigns/{big_league.pk}/map/").content.decode()
    assert "<line " not in html  # the lines are the layer's, not the page's
    url = _layers(html)["lines"]
    assert url.startswith(f"/campaigns/{big_league.pk}/map/geometry/")
    layer = client.get(url)
    assert layer.status_code == 200 and layer["Content-Type"].startswith("image/svg+xml")
    assert layer["Cache-Control"] == "private, max-age=31536000, immutable"
    pairs = big_league.adjacencies.count()
    assert layer.content.decode().count("<line ") == pairs
    again = client.get(url, HTTP_IF_NONE_MATCH=layer["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_a_large_maps_names_are_a_layer_shown_by_zoom_and_a_small_maps_are_on_the_page(
        web_client, big_league, running_campaign, alice) -> None:
    client = web_client(alice)
    big = client.get(f"/campaigns/{big_league.pk}/map/").content.decode()
    svg = big.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'class="label"' not in svg and 'class="map-labels"' in svg
    names = client.get(_layers(big)["labels"]).content.decode()
    some = Territory.objects.filter(campaign=big_league).order_by("pk")[0]
    assert f">{some.name}</text>" in names
    assert names.count('class="label"') == BIG
    small = client.get(f"/campaigns/{running_campaign.pk}/map/").content.decode()
    assert 'class="label"' in small and "map-labels" not in small


def test_renaming_a_territory_moves_the_layers_and_an_old_url_redirects(
        web_client, big_league, alice) -> None:
    client = web_client(alice)
    before = _layers(client.get(f"/campaigns/{big_league.pk}/map/").content.decode())
    first = Territory.objects.filter(campaign=big_league).order_by("pk")[0]
    Territory.objects.filter(pk=first.pk).update(name="Renamed Reach")
    after = _layers(client.get(f"/campaigns/{big_league.pk}/map/").content.decode())
    assert after["labels"] != before["labels"]
    old = client.get(before["labels"])
    assert old.status_code == 302 and old["Location"] == after["labels"]
    assert "immutable" not in old["Cache-Control"]
    assert "Renamed Reach" in client.get(after["labels"]).content.decode()


def test_an_unknown_layer_is_a_404(web_client, big_league, alice) -> None:
    client = web_client(alice)
    url = _layers(client.get(f"/campaigns/{big_league.pk}/map/").content.decode())["lines"]
    assert client.get(url.replace("lines.svg", "owners.svg")).status_code == 404


def test_the_page_and_its_layers_are_compressed_but_not_a_page_reflecting_a_search(
        web_client, big_league, alice) -> None:
    client = web_client(alice)
    page = client.get(f"/campaigns/{big_league.pk}/map/", HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.content).decode()
    assert "Meta-map" in html
    layer = client.get(_layers(html)["lines"], HTTP_ACCEPT_ENCODING="gzip")
    assert layer["Content-Encoding"] == "gzip"
    searched = client.get(f"/campaigns/{big_league.pk}/map/?q=a", HTTP_ACCEPT_ENCODING="gzip")
    assert searched.status_code == 200 and not searched.has_header("Content-Encoding")


def test_the_table_is_a_page_of_territories_with_the_viewers_own_first(
        web_client, big_league, alice) -> None:
    client = web_client(alice)
    html = client.get(f"/campaigns/{big_league.pk}/map/").content.decode()
    rows = _rows(html)
    mine = sorted(Territory.objects.filter(campaign=big_league, owner__user=alice)
                  .values_list("name", flat=True))
    assert len(rows) == TABLE_ROWS and rows[:len(mine)] == mine
    assert f"Territories 1 to {TABLE_ROWS} of {BIG}, yours first." in html
    others = sorted(Territory.objects.filter(campaign=big_league).exclude(owner__user=alice)
                    .values_list("name", flat=True))
    second = client.get(f"/campaigns/{big_league.pk}/map/?from={TABLE_ROWS}").content.decode()
    assert _rows(second) == others[TABLE_ROWS - len(mine):2 * TABLE_ROWS - len(mine)]
    assert "Next 100" in second and "Previous 100" in second
    last = client.get(f"/campaigns/{big_league.pk}/map/?from={BIG - 1}").content.decode()
    assert len(_rows(last)) == BIG - 2 * TABLE_ROWS and "Next 100" not in last


def test_the_name_search_finds_territories_of_the_whole_map(web_client, big_league,
                                                            alice) -> None:
    far = Territory.objects.filter(campaign=big_league).order_by("-name")[0]
    html = web_client(alice).get(f"/campaigns/{big_league.pk}/map/",
                                 {"q": far.name.upper()}).content.decode()
    found = _rows(html)
    assert far.name in found
    assert all(far.name.casefold() in name.casefold() for name in found)
    none = web_client(alice).get(f"/campaigns/{big_league.pk}/map/",
                                 {"q": "<script>zz"}).content.decode()
    assert _rows(none) == [] and "holds “&lt;script&gt;zz”" in none


@pytest.mark.parametrize("start", ["abc", "-5", "99999999", "1.5", ""])
def test_a_bad_table_position_shows_a_page_of_the_table(web_client, big_league, alice,
                                                        start) -> None:
    page = web_client(alice).get(f"/campaigns/{big_league.pk}/map/", {"from": start})
    assert page.status_code == 200
    assert 0 < len(_rows(page.content.decode())) <= TABLE_ROWS


def test_the_page_and_the_layers_cost_the_same_queries_on_a_small_and_a_big_map(
        web_client, big_league, running_campaign, alice) -> None:
    client = web_client(alice)
    counts: dict[str, list[int]] = {"page": [], "lines": [], "labels": []}
    for campaign in (running_campaign, big_league):
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(f"/campaigns/{campaign.pk}/map/").content.decode()
        counts["page"].append(len(ctx.captured_queries))
        url = _layers(html)["lines"]
        for layer in ("lines", "labels"):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url.replace("lines", layer)).status_code == 200
            counts[layer].append(len(ctx.captured_queries))
    assert all(small == big for small, big in counts.values()), counts
    assert counts["page"][0] <= 20 and counts["lines"][0] <= 8, counts


def test_the_downloads_still_draw_the_whole_map(web_client, big_league, alice) -> None:
    client = web_client(alice)
    svg = client.get(f"/campaigns/{big_league.pk}/map.svg").content.decode()
    assert svg.count("<line ") == big_league.adjacencies.count()
    assert svg.count('class="territory"') == BIG
    png = client.get(f"/campaigns/{big_league.pk}/map.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
