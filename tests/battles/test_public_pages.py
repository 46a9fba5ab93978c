"""Issue 16 on the pages: a public league is followed by anyone, signed in or not: the
home page lists it; its map (now and turn by turn, also as an SVG file), its finished
battles with their reports and its public journal read the same as for a player who is
not in the story; nothing private shows. A private campaign asks a visitor to log in and
is a 404 for an outsider."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from battles.models import Battle
from campaign.models import Campaign, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob"}, options={"webhook_url": ""})
    finished = Battle.objects.create(campaign=w.campaign, turn=1, territory=w.t["Beta"],
                                     order=1, sides=[], input={}, seed=1, status="finished")
    queued = Battle.objects.create(campaign=w.campaign, turn=1, territory=w.t["Alpha"],
                                   order=2, sides=[], input={}, seed=2)
    secret = Event.objects.create(campaign=w.campaign, turn=1, phase="commercial",
                                  kind="purchase", data={"item": "SECRET-PURCHASE",
                                                        "territory": w.t["Alpha"].pk},
                                  visibility=Event.Visibility.PRIVATE)
    secret.viewers.set([w.players["alice"]])
    Event.objects.create(campaign=w.campaign, turn=1, phase="commercial", kind="note",
                         data={"detail": "PUBLIC-NEWS"})
    return w, finished, queued


def _pages(w, finished, queued):
    c = f"/campaigns/{w.campaign.pk}/"
    return {"map": c + "map/", "svg": c + "map.svg", "battles": c + "battles/",
            "battle": c + f"battles/{finished.pk}/", "history": c + "history/",
            "unfinished": c + f"battles/{queued.pk}/", "dashboard": c,
            "economy": c + "economy/", "orders": c + "orders/"}


def _make_public(w):
    Campaign.objects.filter(pk=w.campaign.pk).update(
        options={**w.campaign.options, "public": True})


def test_a_private_campaign_asks_to_log_in_or_does_not_exist(league, django_user_model):
    w, finished, queued = league
    pages = _pages(w, finished, queued)
    dora = django_user_model.objects.create_user(username="dora", password="x" * 12)
    outsider = Client()
    outsider.force_login(dora)
    for name in ("map", "svg", "battles", "battle", "history"):
        visitor = Client().get(pages[name])
        assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"], name
        assert outsider.get(pages[name]).status_code == 404, name
    assert w.campaign.name.encode() not in Client().get("/").content


def test_anyone_follows_a_public_league_and_sees_nothing_private(league, django_user_model):
    w, finished, queued = league
    _make_public(w)
    pages = _pages(w, finished, queued)
    home = Client().get("/").content.decode()
    assert "Public leagues" in home and w.campaign.name in home
    for visitor in (Client(), _signed_in(django_user_model)):
        for name in ("map", "battles", "battle", "history", "dashboard"):
            r = visitor.get(pages[name])
            assert r.status_code == 200, name
            html = r.content.decode()
            # issue 26: the dashboard is public too; the seats' business is not
            assert "SECRET-PURCHASE" not in html and "Your credits" not in html, name
        assert "PUBLIC-NEWS" in visitor.get(pages["history"]).content.decode()
        listed = visitor.get(pages["battles"]).content.decode()
        assert f"/battles/{finished.pk}/" in listed and f"/battles/{queued.pk}/" not in listed
        assert visitor.get(pages["unfinished"]).status_code == 404
        svg = visitor.get(pages["svg"] + "?at=0")
        assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in svg.content and "attachment" in svg["Content-Disposition"]
        for private in ("economy", "orders"):
            assert visitor.get(pages[private]).status_code in (302, 404), private


def _signed_in(django_user_model):
    dora = django_user_model.objects.create_user(username="dora", password="x" * 12)
    client = Client()
    client.force_login(dora)
    return client


def _entry(page: str, number: int) -> bool:
    """The page shows the test's note `entry N` (its words, not a `detail: ...` dump)."""
    return re.search(rf"\bentry {number}\b", page) is not None


def test_the_history_pages_filter_by_phase_and_player(league, alice):
    from campaign.pages import history

    w, _finished, _queued = league
    for i in range(history.PAGE_SIZE + 5):
        Event.objects.create(campaign=w.campaign, turn=2, phase="activity", kind="note",
                             data={"detail": f"entry {i}", "player": w.players["bob"].pk})
    page = Client()
    page.force_login(alice)
    url = f"/campaigns/{w.campaign.pk}/history/"
    first = page.get(url).content.decode()
    assert "Older entries" in first and _entry(first, 104)
    assert not _entry(first, 4)
    second = page.get(url + "?page=2").content.decode()
    assert _entry(second, 4) and "Newer entries" in second
    assert "Older entries" not in second
    # The pages' own links are stable cursors (issue 15): an entry written meanwhile
    # does not shift the older page.
    older = re.search(r'href="(\?[^"]*before=[^"]+)" rel="next"', first)
    assert older
    Event.objects.create(campaign=w.campaign, turn=2, phase="activity", kind="note",
                         data={"detail": "entry late"})
    followed = page.get(url + html.unescape(older.group(1))).content.decode()
    assert _entry(followed, 4) and not _entry(followed, 5)
    assert "entry late" not in followed and "Newer entries" in followed
    newer = re.search(r'href="(\?[^"]*after=[^"]+)" rel="prev"', followed)
    assert newer
    back = page.get(url + html.unescape(newer.group(1))).content.decode()
    assert _entry(back, 5) and not _entry(back, 4)
    # a made-up cursor shows the first page
    assert "entry late" in page.get(url + "?before=bm90aGluZw").content.decode()
    only = page.get(url + "?phase=commercial").content.decode()
    assert "PUBLIC-NEWS" in only and not _entry(only, 1)
    bobs = page.get(url + f"?player={w.players['bob'].pk}").content.decode()
    assert _entry(bobs, 104) and "PUBLIC-NEWS" not in bobs


def test_a_turn_reads_as_markdown_with_only_what_the_reader_may_see(league, alice, bob):
    w, _finished, _queued = league
    url = f"/campaigns/{w.campaign.pk}/history/turn-1.md"
    mine, theirs = Client(), Client()
    mine.force_login(alice)
    theirs.force_login(bob)
    text = mine.get(url).content.decode()
    assert text.startswith(f"## {w.campaign.name}, turn 1")
    assert "### Commercial phase" in text and "PUBLIC-NEWS" in text
    assert "SECRET-PURCHASE" in text  # alice's own private entry
    other = theirs.get(url)
    assert other["Content-Type"].startswith("text/markdown")
    assert "SECRET-PURCHASE" not in other.content.decode()
    assert mine.get(f"/campaigns/{w.campaign.pk}/history/turn-9.md").status_code == 404
    assert "turn 1 as Markdown" in mine.get(f"/campaigns/{w.campaign.pk}/history/").content.decode()


def test_the_map_history_shows_the_figures_and_the_journal_filters_by_territory(league, alice):
    from campaign.services import clock

    w, _finished, _queued = league
    Event.objects.create(campaign=w.campaign, turn=1, phase="move", kind="territory_taken",
                         data={"territory": w.t["Beta"].pk, "player": w.players["alice"].pk})
    page = Client()
    page.force_login(alice)
    clock.advance(campaign_id=w.campaign.pk, by="umpire")
    html = page.get(f"/campaigns/{w.campaign.pk}/map/?at=0").content.decode()
    assert "The campaign in figures" in html
    assert "The campaign in figures" not in page.get(
        f"/campaigns/{w.campaign.pk}/map/").content.decode()
    here = page.get(f"/campaigns/{w.campaign.pk}/history/?territory={w.t['Beta'].pk}")
    text = here.content.decode()
    assert "Territory taken" in text and "PUBLIC-NEWS" not in text
    territory = page.get(f"/campaigns/{w.campaign.pk}/territories/{w.t['Alpha'].pk}/")
    assert f"?territory={w.t['Alpha'].pk}" in territory.content.decode()
