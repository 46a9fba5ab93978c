"""`MapHops`: the hops a silo's missile counts (R-BJ-11) are those of a full breadth-first
search, whichever way the search is made (one target met halfway, several in one search)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from territories.services.graph import MapHops


def random_map(seed: int, territories: int = 300) -> nx.Graph[int]:
    """A sparse map of ids that are not 0..n-1, with a detached island of three."""
    rng = random.Random(seed)
    graph = nx.Graph()
    ids = rng.sample(range(1000, 100_000), territories)
    graph.add_nodes_from(ids)
    for i, tid in enumerate(ids[1:-3], start=1):
        graph.add_edge(tid, ids[rng.randrange(i)])  # a tree: connected
    for _ in range(territories // 2):  # and a few shortcuts
        a, b = rng.sample(ids[:-3], 2)
        graph.add_edge(a, b)
    graph.add_edge(ids[-3], ids[-2])
    graph.add_edge(ids[-2], ids[-1])
    return graph


@pytest.mark.parametrize("seed", range(5))
def test_hops_are_those_of_a_full_search(seed):
    graph = random_map(seed)
    hops = MapHops(graph.adj)
    rng = random.Random(seed)
    ids = list(graph)
    for _ in range(60):
        start = rng.choice(ids)
        full = nx.single_source_shortest_path_length(graph, start)
        for size in (1, 2, 5):
            targets = set(rng.sample(ids, size))
            assert hops.hops_to(start, targets) == {t: full[t] for t in targets if t in full}
            with_start = targets | {start}
            assert hops.hops_to(start, with_start) == {
                t: full[t] for t in with_start if t in full}


def test_a_territory_off_the_map_or_unreachable_has_no_hops():
    graph = random_map(7)
    island = list(graph)[-1]
    hops = MapHops(graph.adj)
    start = next(iter(graph))
    assert hops.hops_to(start, {island}) == {}
    assert hops.hops_to(start, {island, start}) == {start: 0}
    assert hops.hops_to(-1, {-1, start}) == {-1: 0}
    assert hops.hops_to(start, {-1}) == {}
    assert hops.hops_to(start, set()) == {}
