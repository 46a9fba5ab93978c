"""Meta-maps: validating a map specification, generating and laying it out once,
storing it, and importing/exporting it (node-link JSON and GraphML, via networkx).

A specification is one of
- ``{"generator": "hex" | "random", "territories": N, "seed": S}`` (2 <= N <= 5000);
- ``{"nodes": [names], "edges": [[a, b], ...]}`` (optionally ``"seed"``);
- ``{"format": "node_link" | "graphml", "data": "<text>"}`` (an exported map).

Every map must be connected. The layout (Territory.x/y in 0..1) is computed here,
once, when the map is built; pictures read it and never lay the map out again.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

import networkx as nx

from campaign.dice import seeded_random
from campaign.errors import InvalidInput
from campaign.models import Campaign
from territories.models import Adjacency, Territory
from territories.services.graph import forget

MIN_TERRITORIES = 2
MAX_TERRITORIES = 5000
MAX_NAME_LENGTH = 80
MAX_IMPORT_CHARS = 5_000_000
GENERATORS = ("hex", "random")
FORMATS = ("node_link", "graphml")


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _invalid(detail: str, field: str = "map") -> InvalidInput:
    return InvalidInput(detail, code="invalid_map", fields={field: [detail]})


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _stable_seed(payload: Any) -> int:
    """A seed derived from the map itself when none is given (reproducible)."""
    return zlib.crc32(json.dumps(payload, sort_keys=True).encode()) & 0x7FFFFFFF


def clean_map_spec(spec: object) -> dict[str, Any]:
    """Validate a map specification and return its normalised form.

    Raises InvalidInput (code ``invalid_map``) with a sentence saying exactly what is
    wrong: unknown generator, a size out of range, a duplicate or empty name, an edge
    to an unknown territory, a self-loop, or a map that is not connected.
    """
    if not isinstance(spec, dict):
        raise _invalid("The map must be an object: a generator or nodes and edges.")
    if "format" in spec or "data" in spec:
        return _clean_import(spec)
    if "generator" in spec:
        return _clean_generator(spec)
    if "nodes" in spec or "edges" in spec:
        return _clean_explicit(spec.get("nodes"), spec.get("edges"), spec.get("seed"))
    raise _invalid('The map needs either a "generator" ("hex" or "random") or "nodes" and '
                   '"edges".')


def _clean_generator(spec: dict[str, Any]) -> dict[str, Any]:
    generator = spec.get("generator")
    if generator not in GENERATORS:
        raise _invalid(f"Unknown map generator {generator!r}: use \"hex\" or \"random\".")
    count = spec.get("territories")
    if not _is_int(count):
        raise _invalid('A generated map needs "territories": a whole number of territories.')
    if not MIN_TERRITORIES <= count <= MAX_TERRITORIES:
        raise _invalid(f"A map has {MIN_TERRITORIES} to {MAX_TERRITORIES} territories, "
                       f"not {count}.")
    seed = spec.get("seed")
    if seed is None:
        seed = _stable_seed([generator, count])
    elif not _is_int(seed):
        raise _invalid('The map "seed" must be a whole number.')
    return {"generator": generator, "territories": count, "seed": seed}


def _clean_explicit(nodes: Any, edges: Any, seed: Any = None,
                    positions: dict[str, tuple[float, float]] | None = None) -> dict[str, Any]:
    if not isinstance(nodes, list) or not nodes:
        raise _invalid('"nodes" must be a non-empty list of territory names.')
    if edges is None:
        edges = []
    if not isinstance(edges, list):
        raise _invalid('"edges" must be a list of pairs of territory names.')
    if len(nodes) < MIN_TERRITORIES:
        raise _invalid(f"A map needs at least {MIN_TERRITORIES} territories.")
    if len(nodes) > MAX_TERRITORIES:
        raise _invalid(f"A map has at most {MAX_TERRITORIES} territories, not {len(nodes)}.")
    names: list[str] = []
    seen: set[str] = set()
    for index, raw in enumerate(nodes):
        if not isinstance(raw, str) or not raw.strip():
            raise _invalid(f"Territory #{index + 1} has no name: every node must be a "
                           "non-empty string.")
        name = raw.strip()
        if len(name) > MAX_NAME_LENGTH:
            raise _invalid(f"The territory name {name[:20]!r}... is longer than "
                           f"{MAX_NAME_LENGTH} characters.")
        if name in seen:
            raise _invalid(f"The territory {name!r} appears twice in the nodes.")
        seen.add(name)
        names.append(name)
    pairs: list[list[str]] = []
    seen_pairs: set[frozenset[str]] = set()
    for index, edge in enumerate(edges):
        if (not isinstance(edge, (list, tuple)) or len(edge) != 2
                or not all(isinstance(end, str) for end in edge)):
            raise _invalid(f"Edge #{index + 1} must be a pair of territory names.")
        a, b = edge[0].strip(), edge[1].strip()
        for end in (a, b):
            if end not in seen:
                raise _invalid(f"Edge #{index + 1} ({a!r}, {b!r}) names {end!r}, which is "
                               "not in the nodes.")
        if a == b:
            raise _invalid(f"Edge #{index + 1} joins {a!r} to itself.")
        key = frozenset((a, b))
        if key in seen_pairs:
            continue  # a duplicate (either direction) collapses into one adjacency
        seen_pairs.add(key)
        pairs.append([a, b])
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(names)
    graph.add_edges_from((a, b) for a, b in pairs)
    if not nx.is_connected(graph):
        reached = nx.node_connected_component(graph, names[0])
        lost = next(n for n in names if n not in reached)
        raise _invalid(f"The map is not connected: {lost!r} cannot be reached from "
                       f"{names[0]!r}.")
    if seed is None:
        seed = _stable_seed([names, pairs])
    elif not _is_int(seed):
        raise _invalid('The map "seed" must be a whole number.')
    cleaned: dict[str, Any] = {"nodes": names, "edges": pairs, "seed": seed}
    if positions:
        cleaned["positions"] = positions
    return cleaned


def _clean_import(spec: dict[str, Any]) -> dict[str, Any]:
    fmt = spec.get("format")
    data = spec.get("data")
    if fmt not in FORMATS:
        raise _invalid(f"Unknown map format {fmt!r}: use \"node_link\" or \"graphml\".")
    if isinstance(data, dict) and fmt == "node_link":
        data = json.dumps(data)
    if not isinstance(data, str) or not data.strip():
        raise _invalid('An imported map needs "data": the exported text.')
    if len(data) > MAX_IMPORT_CHARS:
        raise _invalid(f"An imported map is at most {MAX_IMPORT_CHARS} characters.")
    try:
        if fmt == "graphml":
            if "<!ENTITY" in data or "<!DOCTYPE" in data:
                raise ValueError("document type declarations are not accepted")
            graph = nx.parse_graphml(data)
        else:
            graph = nx.node_link_graph(json.loads(data), edges="links")
    except Exception as exc:  # any parse failure is a fault of the input
        raise _invalid(f"The {fmt} data could not be read: {exc}.") from exc
    if graph.is_directed():
        graph = graph.to_undirected()
    nodes = list(graph.nodes)
    label: dict[Any, str] = {}
    positions: dict[str, tuple[float, float]] = {}
    for node in nodes:
        attrs = graph.nodes[node]
        name = attrs.get("name", attrs.get("label", node))
        label[node] = str(name).strip() if name is not None else ""
        x, y = attrs.get("x"), attrs.get("y")
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            positions[label[node]] = (float(x), float(y))
    if len(positions) != len(nodes):
        positions = {}
    edges = [[label[a], label[b]] for a, b in graph.edges if a != b]
    seed = graph.graph.get("seed") if isinstance(graph.graph, dict) else None
    if not _is_int(seed):
        seed = None
    return _clean_explicit([label[n] for n in nodes], edges, seed, positions)


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------


@dataclass
class MapShape:
    """A map before it is stored: names, edges as index pairs, positions in 0..1."""

    names: list[str]
    edges: list[tuple[int, int]]
    positions: list[tuple[float, float]]


_ONSETS = ("", "b", "br", "c", "ch", "d", "dr", "f", "g", "gr", "h", "k", "kr", "l", "m", "n",
           "p", "r", "s", "st", "t", "th", "tr", "v", "vr", "z", "x", "sh")
_VOWELS = ("a", "e", "i", "o", "u", "ae", "ia", "io", "ou", "y")
_CODAS = ("", "", "", "n", "r", "s", "l", "th", "x", "m", "k")
_SUFFIXES = ("", "", "", "", " Prime", " Minor", " Major", " Reach", " Deep", " Rift")


def territory_names(count: int, seed: int) -> list[str]:
    """`count` distinct, readable, reproducible names (syllables drawn from the seed)."""
    rng = seeded_random(seed, "names")
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        syllables = rng.choice((2, 2, 2, 3))
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(syllables))
        word += rng.choice(_CODAS)
        name = word.capitalize() + rng.choice(_SUFFIXES)
        if len(word) < 3 or name in seen:
            continue
        seen.add(name)
        names.append(name)
    return names


def _normalise(points: Sequence[tuple[float, float]], margin: float = 0.04
               ) -> list[tuple[float, float]]:
    """Scale points into [margin, 1 - margin], keeping the aspect ratio."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    min_x, min_y = min(xs), min(ys)
    span = max(max(xs) - min_x, max(ys) - min_y) or 1.0
    scale = (1 - 2 * margin) / span
    off_x = (1 - (max(xs) - min_x) * scale) / 2
    off_y = (1 - (max(ys) - min_y) * scale) / 2
    return [(round(off_x + (x - min_x) * scale, 5), round(off_y + (y - min_y) * scale, 5))
            for x, y in points]


def _grid_size(count: int) -> tuple[int, int]:
    cols = max(2, math.ceil(math.sqrt(count)))
    rows = math.ceil(count / cols)
    return cols, rows


def hex_map(count: int, seed: int) -> MapShape:
    """A region map on a hexagonal grid (odd rows shifted right): up to six neighbours
    each, filled row by row, so it is always connected and planar."""
    cols, _ = _grid_size(count)
    cells = [(i % cols, i // cols) for i in range(count)]
    index = {cell: i for i, cell in enumerate(cells)}
    edges: list[tuple[int, int]] = []
    for i, (c, r) in enumerate(cells):
        shift = r % 2  # odd-r offset coordinates
        for dc, dr in ((1, 0), (-1 + shift, 1), (shift, 1)):
            j = index.get((c + dc, r + dr))
            if j is not None:
                edges.append((i, j))
    positions = [(c + 0.5 * (r % 2), r * math.sqrt(3) / 2) for c, r in cells]
    return MapShape(territory_names(count, seed), edges, _normalise(positions))


def random_map(count: int, seed: int) -> MapShape:
    """An irregular planar map: points jittered on a grid, each cell split by a random
    diagonal (a planar triangulation), then a random spanning tree is kept plus about
    half of the other edges. Planar because every edge stays inside its own cell."""
    rng = seeded_random(seed, "random-map")
    cols, _ = _grid_size(count)
    cells = [(i % cols, i // cols) for i in range(count)]
    index = {cell: i for i, cell in enumerate(cells)}
    candidates: list[tuple[int, int]] = []
    for i, (c, r) in enumerate(cells):
        right, down = index.get((c + 1, r)), index.get((c, r + 1))
        if right is not None:
            candidates.append((i, right))
        if down is not None:
            candidates.append((i, down))
        diagonal = index.get((c + 1, r + 1))
        anti_a, anti_b = right, down
        if diagonal is not None and rng.random() < 0.5:
            candidates.append((i, diagonal))
        elif anti_a is not None and anti_b is not None:
            candidates.append((anti_a, anti_b))
    rng.shuffle(candidates)
    parent = list(range(count))

    def find(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    kept: list[tuple[int, int]] = []
    extra: list[tuple[int, int]] = []
    for a, b in candidates:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            kept.append((a, b))
        else:
            extra.append((a, b))
    kept.extend(e for e in extra if rng.random() < 0.55)
    kept.sort()
    positions = [(c + rng.uniform(-0.28, 0.28), r + rng.uniform(-0.28, 0.28))
                 for c, r in cells]
    return MapShape(territory_names(count, seed), kept, _normalise(positions))


def force_layout(count: int, edges: Sequence[tuple[int, int]], seed: int
                 ) -> list[tuple[float, float]]:
    """Fruchterman-Reingold in pure Python with a spatial hash (repulsion only from
    nearby nodes), so a big imported map is laid out in roughly O(n) per iteration.
    Few iterations for big maps; seeded starting positions."""
    rng = seeded_random(seed, "layout")
    pos = [[rng.random(), rng.random()] for _ in range(count)]
    if count == 1:
        return [(0.5, 0.5)]
    k = math.sqrt(1.0 / count)
    iterations = 80 if count <= 200 else 40 if count <= 1000 else 15
    temperature = 0.1
    cell = 2 * k
    for step in range(iterations):
        disp = [[0.0, 0.0] for _ in range(count)]
        buckets: dict[tuple[int, int], list[int]] = {}
        for i, (x, y) in enumerate(pos):
            buckets.setdefault((int(x / cell), int(y / cell)), []).append(i)
        for (bx, by), members in buckets.items():
            near = [j for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                    for j in buckets.get((bx + dx, by + dy), ())]
            for i in members:
                xi, yi = pos[i]
                for j in near:
                    if j == i:
                        continue
                    dx, dy = xi - pos[j][0], yi - pos[j][1]
                    dist2 = dx * dx + dy * dy or 1e-9
                    force = k * k / dist2
                    disp[i][0] += dx * force
                    disp[i][1] += dy * force
        for a, b in edges:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            dist = math.sqrt(dx * dx + dy * dy) or 1e-9
            force = dist / k
            disp[a][0] -= dx * force
            disp[a][1] -= dy * force
            disp[b][0] += dx * force
            disp[b][1] += dy * force
        for i in range(count):
            dx, dy = disp[i]
            length = math.sqrt(dx * dx + dy * dy) or 1e-9
            limited = min(length, temperature)
            pos[i][0] = min(1.5, max(-0.5, pos[i][0] + dx / length * limited))
            pos[i][1] = min(1.5, max(-0.5, pos[i][1] + dy / length * limited))
        temperature = 0.1 * (1 - (step + 1) / iterations) + 0.002
    return _normalise([(x, y) for x, y in pos])


def shape_from_spec(spec: dict[str, Any]) -> MapShape:
    """The map a cleaned specification describes, laid out."""
    seed = int(spec["seed"])
    if spec.get("generator") == "hex":
        return hex_map(int(spec["territories"]), seed)
    if spec.get("generator") == "random":
        return random_map(int(spec["territories"]), seed)
    names: list[str] = list(spec["nodes"])
    index = {name: i for i, name in enumerate(names)}
    edges = [(index[a], index[b]) for a, b in spec["edges"]]
    given = spec.get("positions")
    if given:
        positions = _normalise([given[name] for name in names])
    else:
        positions = force_layout(len(names), edges, seed)
    return MapShape(names, edges, positions)


# ---------------------------------------------------------------------------
# Storing
# ---------------------------------------------------------------------------


def build_map(*, campaign: Campaign, spec: dict[str, Any]) -> list[Territory]:
    """Create the campaign's territories and adjacencies from a cleaned spec (bulk
    inserts; call inside the campaign's creating transaction)."""
    shape = shape_from_spec(spec)
    territories = Territory.objects.bulk_create(
        [Territory(campaign=campaign, name=name, x=x, y=y)
         for name, (x, y) in zip(shape.names, shape.positions, strict=True)],
        batch_size=500,
    )
    if any(t.pk is None for t in territories):  # a backend that returns no ids
        by_name = dict(Territory.objects.filter(campaign=campaign).values_list("name", "pk"))
        for territory in territories:
            territory.pk = by_name[territory.name]
    ids = [t.pk for t in territories]
    Adjacency.objects.bulk_create(
        [Adjacency(campaign=campaign, a_id=min(ids[i], ids[j]), b_id=max(ids[i], ids[j]))
         for i, j in shape.edges],
        batch_size=1000,
    )
    forget(campaign.pk)  # the cached graph of a campaign whose id was reused
    return territories


def map_graph(campaign: Campaign) -> nx.Graph[int]:
    """The stored meta-map as a networkx graph of territory ids (two queries)."""
    graph: nx.Graph[int] = nx.Graph()
    for pk, name, x, y in Territory.objects.filter(campaign=campaign).values_list(
            "pk", "name", "x", "y"):
        graph.add_node(pk, name=name, x=x, y=y)
    graph.add_edges_from(Adjacency.objects.filter(campaign=campaign).values_list("a_id", "b_id"))
    return graph


def export_map(campaign: Campaign, fmt: str) -> str:
    """The campaign's meta-map as node-link JSON or GraphML text (names and layout;
    never ownership). Importable again with ``{"format": fmt, "data": text}``."""
    graph: nx.Graph[str] = nx.Graph(seed=int(campaign.seed), campaign=str(campaign.name))
    ids = map_graph(campaign)
    for pk in ids.nodes:
        attrs = ids.nodes[pk]
        graph.add_node(attrs["name"], name=attrs["name"], x=attrs["x"], y=attrs["y"])
    graph.add_edges_from((ids.nodes[a]["name"], ids.nodes[b]["name"]) for a, b in ids.edges)
    if fmt == "graphml":
        return "\n".join(nx.generate_graphml(graph))
    if fmt == "node_link":
        return json.dumps(nx.node_link_data(graph, edges="links"))
    raise InvalidInput(f"Unknown map format {fmt!r}: use \"node_link\" or \"graphml\".")
