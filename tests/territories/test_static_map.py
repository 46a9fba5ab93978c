"""The static part of the meta-map served once (issue 15, target 6): `map/static/` with
an ETag and Cache-Control, `304` on If-None-Match; `map/state/` is the territories list
without it; the contract's `territories/` keeps its `neighbors`."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from territories.models import Territory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(started):
    return started(seed=7)


def test_the_static_map_is_the_lists_static_part_with_an_etag(game, client_for, alice):
    client = client_for(alice)
    full = {r["id"]: r for r in client.get(f"/api/campaigns/{game.pk}/territories/").json()}
    res = client.get(f"/api/campaigns/{game.pk}/map/static/")
    assert res.status_code == 200
    assert res["ETag"].startswith('"') and "max-age" in res["Cache-Control"]
    static = res.json()
    assert len(static) == len(full) == 5
    for row in static:
        assert set(row) == {"id", "name", "x", "y", "neighbors"}
        assert {k: full[row["id"]][k] for k in row} == row
    # the same ETag for every reader: a public fact of the map
    assert client_for(game.umpire).get(f"/api/campaigns/{game.pk}/map/static/")["ETag"] \
        == res["ETag"]


def test_a_current_copy_gets_304_and_a_renamed_territory_a_new_etag(game, client_for, alice):
    client = client_for(alice)
    url = f"/api/campaigns/{game.pk}/map/static/"
    etag = client.get(url)["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    t = Territory.objects.filter(campaign=game).first()
    t.name = "Renamed"
    t.save()
    fresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_the_state_listing_leaves_out_the_static_part(game, client_for, alice):
    client = client_for(alice)
    full = {r["id"]: r for r in client.get(f"/api/campaigns/{game.pk}/territories/").json()}
    with CaptureQueriesContext(connection) as light_queries:
        state = client.get(f"/api/campaigns/{game.pk}/map/state/").json()
    assert len(state) == len(full)
    for row in state:
        assert not {"name", "neighbors", "x", "y"} & set(row)
        expected = {k: v for k, v in full[row["id"]].items()
                    if k not in ("name", "neighbors", "x", "y")}
        assert row == expected
    assert not any("territories_adjacency" in q["sql"] for q in light_queries)


def test_a_stranger_gets_404_for_the_static_map(game, client_for, make_user):
    stranger = client_for(make_user("stranger"))
    assert stranger.get(f"/api/campaigns/{game.pk}/map/static/").status_code == 404
    assert stranger.get(f"/api/campaigns/{game.pk}/map/state/").status_code == 404
