"""No broken links: every link of every page, followed as each role, answers without a
4xx/5xx (outsiders get the intended 404 on campaign pages). And every page renders
with a bounded number of SQL queries."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest

pytestmark = pytest.mark.django_db

VARIANTS_PER_PAGE = 3
SKIP = ("/admin/", "/accounts/logout/", "/static/", "/api/docs/", "/api/schema/")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href") or ""
            if href.startswith("/") and not href.startswith("//"):
                self.links.append(href.split("#")[0])


def crawl(client, start: str, limit: int = 400,
          inspect: Callable[[str, str], None] | None = None,
          max_queries: int | None = None) -> dict[str, int]:
    """Follow every same-site link from `start`; status per URL. `inspect(url, html)`
    sees each HTML page; `max_queries` fails on a page that needs more SQL queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seen: dict[str, int] = {}
    variants: dict[str, int] = {}
    queue = [start]
    while queue and len(seen) < limit:
        url = queue.pop()
        if url in seen or any(url.startswith(s) for s in SKIP):
            continue
        # The same page with another query string (a replay's ?turn=N, a history
        # filter) is the same template: a few variants cover it, and the limit is left
        # for pages not seen yet.
        path = url.split("?")[0]
        if "?" in url and variants.get(path, 0) >= VARIANTS_PER_PAGE:
            continue
        variants[path] = variants.get(path, 0) + ("?" in url)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        seen[url] = response.status_code
        if max_queries is not None:
            assert len(queries.captured_queries) <= max_queries, \
                (url, len(queries.captured_queries))
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            html = response.content.decode()
            if inspect is not None:
                inspect(url, html)
            parser = Links()
            parser.feed(html)
            queue.extend(link for link in parser.links if link not in seen)
    return seen


@pytest.mark.parametrize("role", ["uma", "alice", "bob"])
def test_every_link_works_for_every_member(role, request, web_client, played_campaign
                                           ) -> None:
    user = request.getfixturevalue(role)
    seen = crawl(web_client(user), "/")
    campaign_pages = [u for u in seen if u.startswith(f"/campaigns/{played_campaign.pk}/")]
    assert len(campaign_pages) >= 6, seen
    assert len(seen) < 400, "the crawl hit its limit: pages may have been left out"
    for page in ("map/", "economy/" if role != "uma" else "umpire/", "battles/", "history/"):
        assert f"/campaigns/{played_campaign.pk}/{page}" in seen, (page, sorted(seen))
    broken = {u: s for u, s in seen.items() if s >= 400}
    assert not broken, broken


def test_outsiders_get_404_on_every_campaign_page(web_client, played_campaign, uma,
                                                  charlie) -> None:
    pages = [u for u in crawl(web_client(uma), "/")
             if re.match(rf"^/campaigns/{played_campaign.pk}/", u)]
    client = web_client(charlie)
    for url in pages:
        assert client.get(url).status_code == 404, url
    seen = crawl(client, "/")
    assert not {u: s for u, s in seen.items() if s >= 400}


def test_anonymous_crawl_has_no_broken_link(client, played_campaign) -> None:
    seen = crawl(client, "/")
    assert not {u: s for u, s in seen.items() if s >= 400}, seen


PAGES = ["", "map/", "economy/", "forces/", "orders/", "battles/", "history/"]


@pytest.mark.parametrize("path", PAGES)
def test_player_pages_have_bounded_queries(path, web_client, played_campaign, alice,
                                           django_assert_max_num_queries) -> None:
    client = web_client(alice)
    with django_assert_max_num_queries(30):
        assert client.get(f"/campaigns/{played_campaign.pk}/{path}").status_code == 200


def test_territory_and_battle_pages_have_bounded_queries(
        web_client, played_campaign, alice, uma, django_assert_max_num_queries) -> None:
    from battles.models import Battle
    from territories.models import Territory

    client = web_client(alice)
    for t in Territory.objects.filter(campaign=played_campaign):
        with django_assert_max_num_queries(30):
            assert client.get(f"/campaigns/{played_campaign.pk}/territories/{t.pk}/"
                              ).status_code == 200
    battle = Battle.objects.filter(campaign=played_campaign).first()
    with django_assert_max_num_queries(15):
        client.get(f"/campaigns/{played_campaign.pk}/battles/{battle.pk}/")
    umpire = web_client(uma)  # signing in is not the console's cost
    with django_assert_max_num_queries(30):
        assert umpire.get(f"/campaigns/{played_campaign.pk}/umpire/").status_code == 200


def test_query_count_does_not_grow_with_the_campaign(web_client, make_campaign, uma) -> None:
    """A big generated map costs the map page the same queries as a small one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaign.services.campaigns import campaign_create

    counts = []
    client = web_client(uma)
    for size in (4, 300):
        c = campaign_create(umpire=uma, name=f"Map {size}", seed=2,
                            map_spec={"generator": "hex", "territories": size, "seed": 2})
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/campaigns/{c.pk}/map/").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 30, counts
