"""Spread-out starting territories (issue 3, "Set-up": "maximise the smallest graph
distance between any two starts (ties broken by the campaign's seed)"; ruling R-MAP-1)."""

from __future__ import annotations

import itertools
import random
import time

import networkx as nx
import pytest

from territories.services.maps import hex_map, random_map
from territories.services.starts import _bfs, min_pairwise_distance, spread_starts


def join(campaign):
    """The arguments of a join request with the campaign's invite code."""
    return f"/api/campaigns/{campaign.pk}/join/", {"invite": campaign.invite_code}, "json"


def adjacency_of(graph: nx.Graph) -> list[list[int]]:
    nodes = sorted(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    adj: list[list[int]] = [[] for _ in nodes]
    for a, b in graph.edges:
        adj[index[a]].append(index[b])
        adj[index[b]].append(index[a])
    return adj


def brute_force_best(adj: list[list[int]], k: int) -> int:
    dist = [_bfs(adj, v) for v in range(len(adj))]
    return max(min(dist[a][b] for a, b in itertools.combinations(c, 2))
               for c in itertools.combinations(range(len(adj)), k))


@pytest.mark.parametrize(("graph", "k"), [
    (nx.path_graph(9), 3), (nx.cycle_graph(10), 4), (nx.grid_2d_graph(4, 4), 4),
    (nx.balanced_tree(2, 3), 3), (nx.petersen_graph(), 4), (nx.star_graph(6), 5),
])
def test_small_maps_are_solved_exactly(graph, k):
    adj = adjacency_of(graph)
    chosen = spread_starts(adj, k, random.Random("7:starts"))
    assert len(set(chosen)) == k
    assert min_pairwise_distance(adj, chosen) == brute_force_best(adj, k)


def test_ties_are_broken_by_the_seed():
    adj = adjacency_of(nx.cycle_graph(12))
    picks = {tuple(sorted(spread_starts(adj, 2, random.Random(f"{seed}:starts"))))
             for seed in range(20)}
    assert len(picks) > 1  # several optimal pairs, chosen by the seed
    assert spread_starts(adj, 2, random.Random("3:starts")) == spread_starts(
        adj, 2, random.Random("3:starts"))


def test_large_map_is_fast_and_well_spread():
    """2,000 territories and 50 players: a fraction of a second, and starts at least as
    far apart as a quarter of the ideal spacing on the hex grid."""
    shape = hex_map(2000, 1)
    adj: list[list[int]] = [[] for _ in shape.names]
    for a, b in shape.edges:
        adj[a].append(b)
        adj[b].append(a)
    began = time.perf_counter()
    chosen = spread_starts(adj, 50, random.Random("1:starts"))
    assert time.perf_counter() - began < 2.0
    assert len(set(chosen)) == 50
    assert min_pairwise_distance(adj, chosen) >= 5


def test_random_map_starts_use_the_whole_map():
    shape = random_map(400, 8)
    adj: list[list[int]] = [[] for _ in shape.names]
    for a, b in shape.edges:
        adj[a].append(b)
        adj[b].append(a)
    chosen = spread_starts(adj, 8, random.Random("8:starts"))
    assert min_pairwise_distance(adj, chosen) >= 6


@pytest.mark.django_db
def test_a_map_holds_at_most_one_player_per_territory(make_campaign, uma, alice, bob, charlie,
                                                      client_for):
    campaign = make_campaign(uma, map_spec={"nodes": ["A", "B"], "edges": [["A", "B"]]})
    for user in (alice, bob):
        assert client_for(user).post(*join(campaign)).status_code == 201
    res = client_for(charlie).post(*join(campaign))
    assert res.status_code == 409 and res.json()["code"] == "campaign_full"
