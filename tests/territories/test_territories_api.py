"""Territory listing and detail (API.md "The player's own view"), the territorial grid,
and the SVG pictures; query counts bounded whatever the size of the map."""

from __future__ import annotations

import pytest

from campaign.errors import InvalidInput
from campaign.models import Player
from economy.models import Building, Unit
from economy.services.grid import free_squares, validate_square
from territories.models import Territory

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(started):
    return started(seed=7)


def home(campaign, user):
    return Territory.objects.get(campaign=campaign, owner__user=user)


def test_list_shows_everyone_the_map_and_the_caller_its_own(game, client_for, alice, bob):
    res = client_for(alice).get(f"/api/campaigns/{game.pk}/territories/")
    assert res.status_code == 200
    rows = {r["id"]: r for r in res.json()}
    assert len(rows) == 5
    mine = home(game, alice)
    theirs = home(game, bob)
    assert rows[mine.pk]["owner"] == Player.objects.get(user=alice).pk
    assert len(rows[mine.pk]["buildings"]) == 5
    assert rows[mine.pk]["deposit"] is not None
    assert "buildings" not in rows[theirs.pk] and rows[theirs.pk]["deposit"] is None
    assert rows[theirs.pk]["owner"] == Player.objects.get(user=bob).pk
    # The Alpha-...-Epsilon line: neighbours are symmetric.
    for r in rows.values():
        for n in r["neighbors"]:
            assert r["id"] in rows[n]["neighbors"]


def test_detail_buildings_for_the_owner_and_umpire_only(game, client_for, alice, bob, uma,
                                                        make_user):
    mine = home(game, alice)
    url = f"/api/campaigns/{game.pk}/territories/{mine.pk}/"
    body = client_for(alice).get(url).json()
    assert {b["kind"] for b in body["buildings"]} == {
        "station", "command_center", "power_plant", "radar", "landing_pad"}
    assert set(body["buildings"][0]) >= {"id", "kind", "x", "y", "active", "hit_points"}
    assert "buildings" not in client_for(bob).get(url).json()
    assert len(client_for(uma).get(url).json()["buildings"]) == 5
    assert client_for(make_user("mallory")).get(url).status_code == 404
    assert client_for(alice).get(f"/api/campaigns/{game.pk}/territories/99999/"
                                 ).status_code == 404


def test_unit_counts_are_the_callers(game, client_for, alice, bob):
    mine = home(game, alice)
    player = Player.objects.get(user=alice)
    Unit.objects.create(player=player, territory=mine, model="golem")
    Unit.objects.create(player=player, territory=mine, model="golem")
    url = f"/api/campaigns/{game.pk}/territories/{mine.pk}/"
    assert client_for(alice).get(url).json()["units"] == 2
    assert client_for(bob).get(url).json()["units"] == 0


def test_starts_are_spread_on_the_line(game):
    """Issue 3: "maximise the smallest graph distance between any two starts" — on the
    five-territory line two players start at both ends (distance 4)."""
    starts = set(Territory.objects.filter(campaign=game, owner__isnull=False)
                 .values_list("name", flat=True))
    assert starts == {"Alpha", "Epsilon"}


def test_grid_validation(game):
    """Seed, "Territorial maps": "The Territorial Map is divided into 16x16 squares."
    One building per square."""
    mine = Territory.objects.filter(campaign=game, owner__isnull=False).first()
    taken = Building.objects.filter(territory=mine).first()
    assert validate_square(mine, 0, 15) == (0, 15)
    for x, y in [(16, 0), (0, 16), (-1, 3), ("a", 1), (True, 2)]:
        with pytest.raises(InvalidInput) as err:
            validate_square(mine, x, y)
        assert err.value.code == "outside_grid"
    with pytest.raises(InvalidInput) as err:
        validate_square(mine, taken.x, taken.y)
    assert err.value.code == "square_taken"
    free = free_squares(mine)
    assert len(free) == 256 - 5 and (taken.x, taken.y) not in free


def test_territory_svg(game, client_for, alice, bob):
    mine = home(game, alice)
    url = f"/api/campaigns/{game.pk}/territories/{mine.pk}/map.svg"
    res = client_for(alice).get(url)
    assert res.status_code == 200 and res["Content-Type"].startswith("image/svg+xml")
    text = res.content.decode()
    assert text.count("data-building=") == 5 and "Command center" in text
    other = client_for(bob).get(url).content.decode()
    assert "data-building=" not in other and "<title" in other


def test_meta_map_svg_marks_the_viewer(game, client_for, alice):
    mine = home(game, alice)
    Unit.objects.create(player=Player.objects.get(user=alice), territory=mine, model="golem")
    res = client_for(alice).get(f"/api/campaigns/{game.pk}/map.svg")
    assert res.status_code == 200
    text = res.content.decode()
    assert text.count("<circle") == 5 and text.count("<line") == 4
    assert f'href="/campaigns/{game.pk}/territories/{mine.pk}/"' in text
    assert f"{mine.name} (yours), 1 of your units" in text
    assert Player.objects.get(user=alice).color in text


def test_big_map_listing_and_svg_in_bounded_queries(make_campaign, uma, alice, bob, client_for,
                                                    django_assert_max_num_queries):
    """500 territories: one request each, a constant number of queries."""
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma, map_spec={"generator": "random", "territories": 500,
                                            "seed": 3})
    campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    client, umpire = client_for(alice), client_for(uma)
    with django_assert_max_num_queries(9):
        res = client.get(f"/api/campaigns/{campaign.pk}/map.svg")
    assert res.status_code == 200 and res.content.decode().count("<circle") == 500
    with django_assert_max_num_queries(9):
        res = client.get(f"/api/campaigns/{campaign.pk}/territories/")
    assert len(res.json()) == 500
    with django_assert_max_num_queries(9):
        assert umpire.get(f"/api/campaigns/{campaign.pk}/map.svg").status_code == 200
