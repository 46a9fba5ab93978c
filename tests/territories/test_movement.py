"""Reachability on hand-drawn graphs (seed, "Move Phase"): "any of your units can move to
any territory you control, or any territory adjacent to a territory you control. The
only restriction being that the unit has to travel through territories you control."
and right of passage: "A player can grant passage over his territories to another".

The map (campaign seed 7):

    A - B - C - D - E
            |
            F - G
"""

from __future__ import annotations

import pytest

from campaign.models import Player
from economy.models import Unit
from territories.models import Passage, Territory
from territories.services.movement import can_reach, legal_destinations, movement_graph
from territories.services.passages import grant_passage, revoke_passage

pytestmark = pytest.mark.django_db

MAP = {"nodes": list("ABCDEFG"),
       "edges": [["A", "B"], ["B", "C"], ["C", "D"], ["D", "E"], ["C", "F"], ["F", "G"]]}


@pytest.fixture
def board(started, charlie):
    campaign = started(map_spec=MAP, users=(charlie,))
    t = {x.name: x for x in Territory.objects.filter(campaign=campaign)}
    players = {p.user.username: p for p in Player.objects.filter(campaign=campaign)
               .select_related("user", "campaign")}
    alice, bob = players["alice"], players["bob"]
    Territory.objects.filter(campaign=campaign).update(owner=None)
    Territory.objects.filter(pk__in=[t["A"].pk, t["B"].pk, t["E"].pk]).update(owner=alice)
    Territory.objects.filter(pk__in=[t["C"].pk, t["D"].pk, t["G"].pk]).update(owner=bob)
    # R-MAP-9: stations let units travel through; give every territory one (the test
    # below about stations takes one away).
    from economy.models import Building

    for territory in t.values():
        if not Building.objects.filter(territory=territory, kind="station").exists():
            Building.objects.create(territory=territory, kind="station", x=15, y=15,
                                    hit_points=30)
    return campaign, t, players


def test_a_territory_without_a_station_is_a_destination_but_not_a_way_through(board):
    """Station: "it keeps the territory yours and allows your units to travel through
    it" (R-MAP-9). Without B's station alice's unit on A can still end on B, but not pass
    B to reach C; with the option off, B is a way through again."""
    from economy.models import Building

    campaign, t, p = board
    Building.objects.filter(territory=t["B"], kind="station").delete()
    assert names(t, legal_destinations(p["alice"], t["A"])) == {"B"}
    campaign.options = {**campaign.options, "station_needed_to_pass": False}
    campaign.save()
    alice = Player.objects.select_related("campaign").get(pk=p["alice"].pk)
    assert names(t, legal_destinations(alice, t["A"])) == {"B", "C"}


def names(t, ids):
    by_id = {v.pk: k for k, v in t.items()}
    return {by_id[i] for i in ids}


def test_disconnected_holdings_are_not_reachable(board):
    """"if ... one of several of your territories were to be separated from the others,
    none of your units can travel from the first to the later freely"."""
    _, t, p = board
    assert names(t, legal_destinations(p["alice"], t["A"])) == {"B", "C"}
    assert not can_reach(p["alice"], t["A"], t["E"])
    assert names(t, legal_destinations(p["alice"], t["E"])) == {"D"}


def test_destinations_adjacent_to_holdings(board):
    """"or any territory adjacent to a territory you control" — but not two steps out."""
    _, t, p = board
    assert can_reach(p["alice"], t["A"], t["C"])
    assert not can_reach(p["alice"], t["A"], t["D"])
    assert not can_reach(p["alice"], t["A"], t["F"])


def test_passage_granted_then_revoked(board):
    """"they must define which territories the opponent may consider theirs for Movement
    purposes"; a grant may be withdrawn (betrayal is always an option)."""
    _, t, p = board
    grant_passage(grantor=p["bob"], grantee=p["alice"], territories=[t["C"], t["D"]])
    assert names(t, legal_destinations(p["alice"], t["A"])) == {"B", "C", "D", "E", "F"}
    assert can_reach(p["alice"], t["A"], t["E"])
    revoke_passage(grantor=p["bob"], grantee=p["alice"], territories=[t["D"].pk])
    assert names(t, legal_destinations(p["alice"], t["A"])) == {"B", "C", "D", "F"}
    assert not can_reach(p["alice"], t["A"], t["E"])
    revoke_passage(grantor=p["bob"], grantee=p["alice"])
    assert names(t, legal_destinations(p["alice"], t["A"])) == {"B", "C"}


def test_passage_is_only_over_the_grantors_territories(board):
    from campaign.errors import InvalidInput

    _, t, p = board
    with pytest.raises(InvalidInput) as err:
        grant_passage(grantor=p["bob"], grantee=p["alice"], territories=[t["A"]])
    assert err.value.code == "not_owner"
    assert not Passage.objects.exists()


def test_passage_lapses_when_the_grantor_loses_the_territory(board):
    """Ruling R-MAP-5."""
    _, t, p = board
    grant_passage(grantor=p["bob"], grantee=p["alice"], territories=[t["C"], t["D"]])
    Territory.objects.filter(pk=t["D"].pk).update(owner=p["charlie"])
    assert not can_reach(p["alice"], t["A"], t["E"])


def test_a_unit_cut_off_may_still_leave(board):
    """Ruling R-MAP-4: a unit on a territory its player does not control may leave it
    for an adjacent territory, and travels on only through its own."""
    _, t, p = board
    unit = Unit.objects.create(player=p["alice"], territory=t["G"], model="golem")
    assert names(t, legal_destinations(p["alice"], unit)) == {"F"}
    Territory.objects.filter(pk=t["F"].pk).update(owner=p["alice"])
    assert names(t, legal_destinations(p["alice"], unit)) == {"F", "C"}
    assert can_reach(p["alice"], unit, t["C"])


def test_movement_graph_is_cached_on_the_campaign(board, django_assert_num_queries):
    campaign, t, _ = board
    graph = movement_graph(campaign)
    with django_assert_num_queries(0):
        assert movement_graph(campaign) is graph
    assert set(graph.adj[t["C"].pk]) == {t["B"].pk, t["D"].pk, t["F"].pk}


def test_destinations_endpoint(board, client_for, alice, uma):
    campaign, t, _ = board
    res = client_for(alice).get(f"/api/campaigns/{campaign.pk}/destinations/?from={t['A'].pk}")
    assert res.status_code == 200
    assert names(t, res.json()["destinations"]) == {"B", "C"}
    assert client_for(uma).get(
        f"/api/campaigns/{campaign.pk}/destinations/?from={t['A'].pk}").status_code == 403
    assert client_for(alice).get(
        f"/api/campaigns/{campaign.pk}/destinations/").status_code == 400


# --- the passages API -------------------------------------------------------------------


def test_passages_api_visible_to_both_parties_and_the_umpire(board, client_for, alice, bob,
                                                            charlie, uma, make_user):
    campaign, t, p = board
    url = f"/api/campaigns/{campaign.pk}/passages/"
    res = client_for(bob).post(url, {"grantee": p["alice"].pk,
                                     "territories": [t["C"].pk, t["D"].pk]}, format="json")
    assert res.status_code == 201, res.json()
    assert {r["territory"] for r in res.json()} == {t["C"].pk, t["D"].pk}
    for user in (alice, bob, uma):
        assert len(client_for(user).get(url).json()) == 2
    assert client_for(charlie).get(url).json() == []
    assert client_for(make_user("mallory")).get(url).status_code == 404
    # Only the grantor revokes one grant; others get 404 (charlie) or 403 (alice).
    pid = res.json()[0]["id"]
    assert client_for(charlie).delete(f"{url}{pid}/").status_code == 404
    assert client_for(alice).delete(f"{url}{pid}/").status_code == 403
    assert client_for(bob).delete(f"{url}{pid}/").json() == {"revoked": 1}
    res = client_for(bob).delete(url, {"grantee": p["alice"].pk}, format="json")
    assert res.json() == {"revoked": 1}
    assert client_for(alice).get(url).json() == []


def test_passages_api_refuses_foreign_territory(board, client_for, bob):
    campaign, t, p = board
    res = client_for(bob).post(f"/api/campaigns/{campaign.pk}/passages/",
                               {"grantee": p["alice"].pk, "territories": [t["A"].pk]},
                               format="json")
    assert res.status_code == 400 and res.json()["code"] == "not_owner"
    res = client_for(bob).post(f"/api/campaigns/{campaign.pk}/passages/",
                               {"grantee": 999999, "territories": [t["C"].pk]}, format="json")
    assert res.status_code == 400
