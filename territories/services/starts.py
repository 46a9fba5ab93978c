"""Choosing spread-out starting territories.

Issue 3: "Starting territories are spread out: maximise the smallest graph distance
between any two starts (ties broken by the campaign's seed)."

Small maps are solved exactly (every combination is tried). Larger maps use
farthest-point sampling with several seeded restarts: each start is the territory
farthest (in hops) from those already chosen; the smallest pairwise distance is the
distance of the last one chosen. Distances to the chosen set are kept incrementally
with a pruned BFS, so 2,000 territories and 50 players take a fraction of a second.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque
from collections.abc import Sequence

EXACT_LIMIT = 20_000  # combinations tried exhaustively at most
RESTARTS = 8


def _bfs(adjacency: Sequence[Sequence[int]], source: int) -> list[int]:
    dist = [-1] * len(adjacency)
    dist[source] = 0
    queue = deque([source])
    while queue:
        v = queue.popleft()
        for w in adjacency[v]:
            if dist[w] < 0:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def min_pairwise_distance(adjacency: Sequence[Sequence[int]], chosen: Sequence[int]) -> int:
    """The smallest hop distance between two chosen nodes (for tests and reports)."""
    best = math.inf
    for i, node in enumerate(chosen[:-1]):
        dist = _bfs(adjacency, node)
        best = min(best, *(dist[other] for other in chosen[i + 1:]))
    return int(best) if best != math.inf else 0


def spread_starts(adjacency: Sequence[Sequence[int]], k: int, rng: random.Random) -> list[int]:
    """`k` node indices of a connected graph (given as adjacency lists) with the
    smallest pairwise distance as large as possible."""
    n = len(adjacency)
    if k > n:
        raise ValueError("more starts than nodes")
    if k <= 1:
        return [rng.randrange(n)][:k]
    if math.comb(n, k) <= EXACT_LIMIT:
        return _exact(adjacency, k, rng)
    best: list[int] = []
    best_score = -1
    for _ in range(RESTARTS):
        chosen, score = _farthest_points(adjacency, k, rng)
        if score > best_score:
            best, best_score = chosen, score
    return best


def _exact(adjacency: Sequence[Sequence[int]], k: int, rng: random.Random) -> list[int]:
    n = len(adjacency)
    dist = [_bfs(adjacency, v) for v in range(n)]
    best_score = -1
    best: list[tuple[int, ...]] = []
    for combo in itertools.combinations(range(n), k):
        score = min(dist[a][b] for a, b in itertools.combinations(combo, 2))
        if score > best_score:
            best_score, best = score, [combo]
        elif score == best_score:
            best.append(combo)
    return list(rng.choice(best))


def _farthest_points(adjacency: Sequence[Sequence[int]], k: int, rng: random.Random
                     ) -> tuple[list[int], int]:
    n = len(adjacency)
    # Begin at an end of the graph: the farthest node from a random one.
    probe = _bfs(adjacency, rng.randrange(n))
    far = max(probe)
    first = rng.choice([v for v in range(n) if probe[v] == far])
    chosen = [first]
    dist = _bfs(adjacency, first)
    score = n
    for _ in range(k - 1):
        top = max(dist)
        candidates = [v for v in range(n) if dist[v] == top]
        pick = rng.choice(candidates)
        score = min(score, top)
        chosen.append(pick)
        # Pruned BFS: only nodes that get closer to the chosen set are visited.
        dist[pick] = 0
        queue = deque([pick])
        while queue:
            v = queue.popleft()
            nd = dist[v] + 1
            for w in adjacency[v]:
                if nd < dist[w]:
                    dist[w] = nd
                    queue.append(w)
    return chosen, score
