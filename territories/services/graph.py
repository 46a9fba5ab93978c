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
from collections.abc import Collection, Iterable, Mapping
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


class MapHops:
    """Hops between territories of one map, for many searches in a row (the silos of a
    tactical phase, R-BJ-11): the adjacency copied once as lists over compact indices,
    which a search walks several times faster than a networkx view or a dict of ids
    (issue 32: the silo search was a fifth of the advance into the tactical phase at
    8,000 territories)."""

    def __init__(self, adjacency: Mapping[int, Iterable[int]]) -> None:
        self._ids = list(adjacency)
        self._index = {tid: i for i, tid in enumerate(self._ids)}
        index = self._index
        self._neighbours = [[index[n] for n in adjacency[tid]] for tid in self._ids]

    def hops_to(self, start: int, targets: Collection[int]) -> dict[int, int]:
        """Hops from `start` to each of `targets` it reaches (the same as a full
        breadth-first search from it, without walking the whole map): one target is met
        halfway by a search from each end; several are found by one search from `start`
        that stops once all are."""
        index = self._index
        found = {start: 0} if start in targets else {}
        wanted = {index[t] for t in targets if t != start and t in index}
        if start not in index or not wanted:
            return found
        if len(wanted) == 1:
            (target,) = wanted
            hops = self._meet(index[start], target)
            reached = {target: hops} if hops is not None else {}
        else:
            reached = self._search(index[start], wanted)
        found.update((self._ids[i], hops) for i, hops in reached.items())
        return found

    def _search(self, start: int, wanted: set[int]) -> dict[int, int]:
        """Breadth first from `start` until every one of `wanted` is found."""
        neighbours = self._neighbours
        seen = [False] * len(neighbours)
        seen[start] = True
        reached: dict[int, int] = {}
        frontier, hops = [start], 0
        while frontier and len(reached) < len(wanted):
            hops += 1
            following = []
            for node in frontier:
                for n in neighbours[node]:
                    if not seen[n]:
                        seen[n] = True
                        following.append(n)
                        if n in wanted:
                            reached[n] = hops
            frontier = following
        return reached

    def _meet(self, start: int, target: int) -> int | None:
        """Hops from `start` to `target` (None: not connected), searching from both ends
        a level at a time, always from the smaller frontier. The first territory one
        search reaches that the other has seen closes a shortest path: until then the two
        balls are disjoint, so no path is shorter than both radii together."""
        neighbours = self._neighbours
        # Each side's hops + 1 by territory (0: not seen), as lists: a list is read
        # faster than a dict, and one per search costs less than the search.
        near, far = [0] * len(neighbours), [0] * len(neighbours)
        near[start] = far[target] = 1
        near_frontier, far_frontier = [start], [target]
        near_level = far_level = 1
        while near_frontier and far_frontier:
            if len(far_frontier) < len(near_frontier):
                near, far = far, near
                near_frontier, far_frontier = far_frontier, near_frontier
                near_level, far_level = far_level, near_level
            near_level += 1
            following = []
            for node in near_frontier:
                for n in neighbours[node]:
                    if not near[n]:
                        other = far[n]
                        if other:
                            return near_level + other - 2
                        near[n] = near_level
                        following.append(n)
            near_frontier = following
        return None
