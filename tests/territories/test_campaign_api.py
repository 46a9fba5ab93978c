"""The contract's campaign endpoints (API.md "Campaigns") on the meta-map side:
create (generators, explicit, import, invalid), join and start."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from campaign.models import Campaign, Event, Player
from economy.models import Building, LedgerEntry
from territories.models import Adjacency, Exploration, Territory
from territories.services.maps import export_map

pytestmark = pytest.mark.django_db


def join(campaign):
    """The arguments of a join request with the campaign's invite code."""
    return f"/api/campaigns/{campaign.pk}/join/", {"invite": campaign.invite_code}, "json"



def create(client, map_spec, **extra):
    return client.post("/api/campaigns/", {"name": "League", "map": map_spec, **extra},
                       format="json")


def graph_of(campaign) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(Territory.objects.filter(campaign=campaign).values_list("pk", flat=True))
    g.add_edges_from(Adjacency.objects.filter(campaign=campaign).values_list("a_id", "b_id"))
    return g


@pytest.mark.parametrize("generator", ["hex", "random"])
def test_generated_map_is_created_connected_and_reproducible(client_for, uma, generator):
    res = create(client_for(uma), {"generator": generator, "territories": 40, "seed": 11})
    assert res.status_code == 201, res.json()
    body = res.json()
    assert body["status"] == "setup" and body["umpire"] == "uma"
    campaign = Campaign.objects.get(pk=body["id"])
    assert campaign.territories.count() == 40
    assert nx.is_connected(graph_of(campaign))
    names = list(campaign.territories.order_by("pk").values_list("name", flat=True))
    assert len(set(names)) == 40
    for x, y in campaign.territories.values_list("x", "y"):
        assert 0 <= x <= 1 and 0 <= y <= 1
    again = Campaign.objects.get(pk=create(client_for(uma), {
        "generator": generator, "territories": 40, "seed": 11}).json()["id"])
    assert list(again.territories.order_by("pk").values_list("name", "x", "y")) == list(
        campaign.territories.order_by("pk").values_list("name", "x", "y"))
    other = Campaign.objects.get(pk=create(client_for(uma), {
        "generator": generator, "territories": 40, "seed": 12}).json()["id"])
    assert list(other.territories.values_list("name", flat=True)) != names


def test_hex_map_has_hex_neighbourhoods(client_for, uma):
    campaign = Campaign.objects.get(pk=create(client_for(uma), {
        "generator": "hex", "territories": 49, "seed": 1}).json()["id"])
    degrees = dict(graph_of(campaign).degree())
    assert max(degrees.values()) == 6


def test_random_map_is_planar(client_for, uma):
    campaign = Campaign.objects.get(pk=create(client_for(uma), {
        "generator": "random", "territories": 300, "seed": 5}).json()["id"])
    is_planar, _ = nx.check_planarity(graph_of(campaign))
    assert is_planar


def test_explicit_map_is_created_with_duplicates_collapsed(client_for, uma):
    res = create(client_for(uma), {"nodes": ["Alpha", "Beta", "Gamma"],
                                   "edges": [["Alpha", "Beta"], ["Beta", "Alpha"],
                                             ["Beta", "Gamma"]]})
    assert res.status_code == 201
    campaign = Campaign.objects.get(pk=res.json()["id"])
    assert campaign.adjacencies.count() == 2
    assert set(campaign.territories.values_list("name", flat=True)) == {"Alpha", "Beta", "Gamma"}


@pytest.mark.parametrize(("spec", "words"), [
    ({"nodes": ["Alpha", "Beta", "Zeta"], "edges": [["Alpha", "Beta"]]},
     "The map is not connected: 'Zeta' cannot be reached from 'Alpha'."),
    ({"nodes": ["Alpha", "Alpha"], "edges": [["Alpha", "Alpha"]]}, "appears twice"),
    ({"nodes": ["Alpha", ""], "edges": []}, "no name"),
    ({"nodes": ["Alpha", "Beta"], "edges": [["Alpha", "Omega"]]}, "'Omega'"),
    ({"nodes": ["Alpha", "Beta"], "edges": [["Alpha", "Alpha"], ["Alpha", "Beta"]]},
     "to itself"),
    ({"nodes": ["Alpha", "B" * 81], "edges": []}, "longer than 80"),
    ({"nodes": ["Alpha"], "edges": []}, "at least 2"),
    ({"nodes": ["Alpha", "Beta"], "edges": [["Alpha"]]}, "pair"),
    ({"generator": "square", "territories": 10, "seed": 1}, "Unknown map generator"),
    ({"generator": "hex", "territories": 1, "seed": 1}, "2 to 5000"),
    ({"generator": "hex", "territories": 5001, "seed": 1}, "2 to 5000"),
    ({"generator": "hex", "territories": "ten", "seed": 1}, "whole number"),
    ({"generator": "hex", "territories": 10, "seed": "x"}, "seed"),
    ({}, "generator"),
    ({"format": "graphml", "data": "<not xml"}, "could not be read"),
    ({"format": "yaml", "data": "a: b"}, "Unknown map format"),
])
def test_invalid_maps_are_refused_with_the_reason(client_for, uma, spec, words):
    res = create(client_for(uma), spec)
    assert res.status_code == 400
    assert res.json()["code"] == "invalid_map"
    assert words in res.json()["detail"]
    assert not Campaign.objects.exists()


def test_invalid_settings_are_refused(client_for, uma):
    res = create(client_for(uma), {"generator": "hex", "territories": 5, "seed": 1},
                 settings={"deposits_public": "yes"})
    assert res.status_code == 400
    assert "deposits_public" in res.json()["detail"]
    res = create(client_for(uma), {"generator": "hex", "territories": 5, "seed": 1},
                 settings={"no_such_thing": 1})
    assert res.status_code == 400
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("fmt", ["graphml", "node_link"])
def test_export_and_import_round_trip(client_for, uma, alice, fmt, make_campaign):
    source = make_campaign(uma, map_spec={"generator": "random", "territories": 30, "seed": 4})
    client = client_for(uma)
    path = "map.graphml" if fmt == "graphml" else "map.json"
    res = client.get(f"/api/campaigns/{source.pk}/{path}")
    assert res.status_code == 200
    text = res.content.decode()
    assert text == export_map(source, fmt)
    res = create(client, {"format": fmt, "data": text})
    assert res.status_code == 201, res.json()
    copy = Campaign.objects.get(pk=res.json()["id"])

    def named(c):
        ids = dict(c.territories.values_list("pk", "name"))
        return {frozenset((ids[a], ids[b])) for a, b in
                c.adjacencies.values_list("a_id", "b_id")}

    assert named(copy) == named(source)
    assert sorted(copy.territories.values_list("name", "x", "y")) == sorted(
        source.territories.values_list("name", "x", "y"))
    # Non-members do not get the map.
    assert client_for(alice).get(f"/api/campaigns/{source.pk}/{path}").status_code == 404


def test_node_link_import_accepts_plain_json(client_for, uma):
    data = json.dumps({"directed": False, "multigraph": False, "graph": {},
                       "nodes": [{"id": "A"}, {"id": "B"}], "links": [{"source": "A",
                                                                        "target": "B"}]})
    assert create(client_for(uma), {"format": "node_link", "data": data}).status_code == 201


# --- join ---------------------------------------------------------------------------


def test_join_while_setup_then_refused_twice_or_after_start(client_for, make_campaign, uma,
                                                          alice, bob, charlie):
    campaign = make_campaign(uma)
    res = client_for(alice).post(*join(campaign))
    assert res.status_code == 201 and res.json()["username"] == "alice"
    again = client_for(alice).post(*join(campaign))
    assert again.status_code == 409 and again.json()["code"] == "already_joined"
    assert client_for(bob).post(*join(campaign)).status_code == 201
    assert client_for(uma).post(f"/api/campaigns/{campaign.pk}/start/").status_code == 200
    late = client_for(charlie).post(*join(campaign))
    # a started campaign is invisible to outsiders: 404, as for an id that does not exist
    # (tests/security/test_permission_matrix.py)
    assert late.status_code == 404 and late.json()["code"] == "not_found"


# --- start --------------------------------------------------------------------------


def joined(make_campaign, client_for, uma, users, **kwargs):
    campaign = make_campaign(uma, **kwargs)
    for user in users:
        assert client_for(user).post(*join(campaign)).status_code == 201
    return campaign


def test_start_is_for_the_umpire_only(client_for, make_campaign, uma, alice, bob, charlie):
    campaign = joined(make_campaign, client_for, uma, [alice, bob])
    res = client_for(alice).post(f"/api/campaigns/{campaign.pk}/start/")
    assert res.status_code == 403
    assert client_for(charlie).post(f"/api/campaigns/{campaign.pk}/start/").status_code == 404
    campaign.refresh_from_db()
    assert campaign.status == "setup"


def test_start_needs_two_players(client_for, make_campaign, uma, alice):
    campaign = joined(make_campaign, client_for, uma, [alice])
    res = client_for(uma).post(f"/api/campaigns/{campaign.pk}/start/")
    assert res.status_code == 409 and res.json()["code"] == "not_enough_players"
    assert not Territory.objects.filter(campaign=campaign, owner__isnull=False).exists()
    assert not LedgerEntry.objects.exists()


def test_start_twice_is_refused(client_for, make_campaign, uma, alice, bob):
    campaign = joined(make_campaign, client_for, uma, [alice, bob])
    assert client_for(uma).post(f"/api/campaigns/{campaign.pk}/start/").status_code == 200
    res = client_for(uma).post(f"/api/campaigns/{campaign.pk}/start/")
    assert res.status_code == 409
    assert LedgerEntry.objects.filter(reason="starting_credits").count() == 2


def test_start_awards_credits_territory_buildings_and_exploration(client_for, make_campaign,
                                                                  uma, alice, bob, charlie):
    """Seed, "Beginning the game": "1000 Stellar Credits (SC) and one territory of the
    meta-map is awarded to each player. It comes with a Station, Command center, Power
    plant, Radar, and Landing pad." """
    campaign = joined(make_campaign, client_for, uma, [alice, bob, charlie],
                      map_spec={"generator": "hex", "territories": 30, "seed": 2})
    res = client_for(uma).post(f"/api/campaigns/{campaign.pk}/start/")
    assert res.status_code == 200
    body = res.json()
    assert body["status"] == "running" and body["turn"] == 1 and body["phase"] == "commercial"
    for player in Player.objects.filter(campaign=campaign):
        owned = list(Territory.objects.filter(owner=player))
        assert len(owned) == 1 and owned[0].ever_owned
        start = LedgerEntry.objects.get(player=player, reason="starting_credits")
        assert start.amount == 1000
        found = sum(LedgerEntry.objects.filter(player=player, reason="discovery")
                    .values_list("amount", flat=True))
        assert player.credits == 1000 + found
        buildings = list(Building.objects.filter(territory=owned[0]))
        assert sorted(b.kind for b in buildings) == sorted(
            ["station", "command_center", "power_plant", "radar", "landing_pad"])
        assert len({(b.x, b.y) for b in buildings}) == 5
        assert all(b.active and 0 <= b.x < 16 and 0 <= b.y < 16 for b in buildings)
        from campaign.rules import BUILDINGS
        assert all(b.hit_points == BUILDINGS[b.kind].hit_points for b in buildings)
        exploration = Exploration.objects.get(territory=owned[0])
        assert exploration.player == player
    assert Event.objects.filter(campaign=campaign, kind="campaign_started").count() == 1
    assert Event.objects.filter(campaign=campaign, kind="territory_explored").count() == 3


def test_start_is_reproducible_from_the_seed(make_campaign, uma, alice, bob, charlie):
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    def run():
        campaign = make_campaign(uma, map_spec={"generator": "random", "territories": 60,
                                                "seed": 9}, seed=9)
        for user in (alice, bob, charlie):
            campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
        campaign_start(campaign_id=campaign.pk)
        names = Territory.objects.filter(campaign=campaign, owner__isnull=False)
        return sorted((t.owner.user.username, t.name, t.exploration.resource) for t in names)

    assert run() == run()
