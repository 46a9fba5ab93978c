"""The journal in pages (issue 15, target 6) without changing the contract's body: an
array, and `Link: <...cursor=...>; rel="next"` while more rows follow. The cursor is
stable (rows written meanwhile are neither repeated nor lost), opaque, and a cursor of
an entry the caller may not see is refused exactly like a made-up one."""

from __future__ import annotations

import re

from campaign.models import Event
from campaign.pagination import DEFAULT_LIMIT, encode_cursor
from campaign.services.journal import record_event, record_private


def _next(response) -> str | None:
    link = response.headers.get("Link")
    if not link:
        return None
    match = re.fullmatch(r'<(http://testserver)?([^>]+)>; rel="next"', link)
    assert match, link
    return match.group(2)


def _walk(client, url: str) -> list[dict]:
    rows: list[dict] = []
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.content
        assert isinstance(response.json(), list)
        rows += response.json()
        url = _next(response)
    return rows


def test_a_small_journal_comes_whole_without_a_link(world, client_for):
    bob = client_for(world.users["bob"])
    r = bob.get(f"/api/campaigns/{world.campaign.pk}/events/")
    assert r.status_code == 200 and "Link" not in r.headers
    assert len(r.json()) <= DEFAULT_LIMIT


def test_pages_follow_the_link_and_add_up_to_the_whole_journal(world, client_for):
    for i in range(7):
        record_event(campaign=world.campaign, kind="note", data={"i": i})
    bob = client_for(world.users["bob"])
    base = f"/api/campaigns/{world.campaign.pk}/events/"
    whole = bob.get(base).json()
    first = bob.get(base + "?limit=3")
    assert len(first.json()) == 3 and _next(first)
    assert _walk(bob, base + "?limit=3") == whole
    # filters ride along in the link
    notes = _walk(bob, base + "?kind=note&limit=2")
    assert [e["data"]["i"] for e in notes] == list(range(7))


def test_the_cursor_is_stable_while_entries_are_written(world, client_for):
    for i in range(4):
        record_event(campaign=world.campaign, kind="note", data={"i": i})
    bob = client_for(world.users["bob"])
    base = f"/api/campaigns/{world.campaign.pk}/events/?kind=note&limit=2"
    first = bob.get(base)
    record_event(campaign=world.campaign, kind="note", data={"i": 4})
    rest = _walk(bob, _next(first))
    assert [e["data"]["i"] for e in first.json() + rest] == [0, 1, 2, 3, 4]


def test_a_cursor_of_an_entry_the_caller_cannot_see_is_refused_like_a_made_up_one(
        world, client_for):
    hidden = record_private(player=world.alice, kind="secret", data={})
    bob = client_for(world.users["bob"])
    base = f"/api/campaigns/{world.campaign.pk}/events/"
    before = Event.objects.count()
    answers = [bob.get(base + "?cursor=" + encode_cursor("event", hidden.public_id)),
               bob.get(base + "?cursor=" + encode_cursor("event", 12345)),
               bob.get(base + "?cursor=garbage!")]
    assert {a.status_code for a in answers} == {400}
    assert len({a.content for a in answers}) == 1
    assert answers[0].json()["code"] == "bad_cursor"
    assert Event.objects.count() == before


def test_limit_is_bounded(world, client_for):
    bob = client_for(world.users["bob"])
    base = f"/api/campaigns/{world.campaign.pk}/events/"
    for bad in ("0", "1001", "x", "-1"):
        r = bob.get(base + "?limit=" + bad)
        assert r.status_code == 400 and "limit" in r.json()["detail"], bad
