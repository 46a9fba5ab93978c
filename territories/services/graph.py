"""The meta-map as one networkx graph per campaign, built once and shared.

Every reader of the map's adjacency (movement, passage, exchanges, the start positions,
battles opening and retreats, silo distances) asks `campaign_graph`. A campaign's map
never changes once built (`maps.build_map`, which calls `forget`), so the graph is
cached per process by campaign id and creation time (SQLite may reuse the id of a
deleted campaign; the creation time tells them apart) and frozen: nobody can change the
shared copy by accident.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import networkx as nx

from campaign.models import Campaign
from territories.models import Adjacency, Territory

MAX_CACHED = 64
_cache: OrderedDict[tuple[int, Any], nx.Graph[int]] = OrderedDict()
_lock = threading.Lock()


def campaign_graph(campaign: Campaign) -> nx.Graph[int]:
    """Territory ids as nodes, adjacencies as edges (two queries the first time)."""
    key = (campaign.pk, getattr(campaign, "created_at", None))
    with _lock:
        graph = _cache.get(key)
        if graph is not None:
            _cache.move_to_end(key)
            return graph
    graph = nx.Graph()
    graph.add_nodes_from(Territory.objects.filter(campaign_id=campaign.pk)
                         .values_list("pk", flat=True))
    graph.add_edges_from(Adjacency.objects.filter(campaign_id=campaign.pk)
                         .values_list("a_id", "b_id"))
    nx.freeze(graph)
    with _lock:
        _cache[key] = graph
        while len(_cache) > MAX_CACHED:
            _cache.popitem(last=False)
    return graph


def neighbours(campaign: Campaign, territory_id: int) -> list[int]:
    """The territories adjacent to one, in id order."""
    graph = campaign_graph(campaign)
    return sorted(graph.adj[territory_id]) if territory_id in graph else []


def hops_from(campaign: Campaign, territory_id: int) -> dict[int, int]:
    """Hops from a territory to every territory reachable on the meta-map."""
    graph = campaign_graph(campaign)
    if territory_id not in graph:
        return {territory_id: 0}
    return dict(nx.single_source_shortest_path_length(graph, territory_id))


def forget(campaign_id: int) -> None:
    """Drop a campaign's cached graph (its map was just built or rebuilt)."""
    with _lock:
        for key in [k for k in _cache if k[0] == campaign_id]:
            del _cache[key]
