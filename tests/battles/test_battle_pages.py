"""`GET .../battles/` in pages (issue 15, target 6): the contract's array, in order of
play, with a `Link` rel="next" header while more follow; a spectator's cursor cannot
name an unfinished battle."""

from __future__ import annotations

import re

from battles.models import Battle
from campaign.pagination import encode_cursor


def _next(response) -> str | None:
    link = response.headers.get("Link")
    if not link:
        return None
    return re.fullmatch(r'<(?:http://testserver)?([^>]+)>; rel="next"', link).group(1)


def test_battles_come_in_pages_in_order_of_play(world, client_for, alice):
    w = world()
    fields = list(w.t.values())
    for turn in (2, 1):
        for order, t in enumerate(fields[:3]):
            Battle.objects.create(campaign=w.campaign, turn=turn, territory=t, order=order,
                                  sides=[], status="finished")
    client = client_for(alice)
    base = f"/api/campaigns/{w.campaign.pk}/battles/"
    whole = client.get(base)
    assert "Link" not in whole.headers and len(whole.json()) == 6
    rows, url = [], base + "?limit=4"
    while url:
        r = client.get(url)
        assert r.status_code == 200 and isinstance(r.json(), list)
        rows += r.json()
        url = _next(r)
    assert rows == whole.json()
    assert [(b["turn"]) for b in rows] == [1, 1, 1, 2, 2, 2]


def test_a_spectator_cannot_page_from_an_unfinished_battle(world, anon_client):
    w = world(options={"public": True})
    t = w.t["Beta"]
    hidden = Battle.objects.create(campaign=w.campaign, turn=1, territory=t, sides=[])
    base = f"/api/campaigns/{w.campaign.pk}/battles/"
    r = anon_client.get(base + "?cursor=" + encode_cursor("battle", hidden.pk))
    made_up = anon_client.get(base + "?cursor=" + encode_cursor("battle", hidden.pk + 99))
    assert r.status_code == made_up.status_code == 400
    assert r.content == made_up.content
