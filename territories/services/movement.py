"""Where a unit may move (seed, "Move Phase").

"In the Move Phase, any of your units can move to any territory you control, or any
territory adjacent to a territory you control. The only restriction being that the
unit has to travel through territories you control." and "A player can grant passage
over his territories to another, in which case they must define which territories the
opponent may consider theirs for Movement purposes."

So a unit travels from its origin through territories its player controls or holds a
right of passage over; it may end its move on any territory so reached, or on any
territory adjacent to one reached. The origin always counts as reached: a unit standing
on a territory it does not control may still leave it (ruling R-MAP-4).

Station: "A station is a glorified beacon : it keeps the territory yours and allows
your units to travel through it." Ruling R-MAP-9 (campaign option
`station_needed_to_pass`, on by default): a unit travels onward only from its origin and
from passable territories with a standing station; a passable territory without one can
still be a destination, but is the end of the road.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import networkx as nx

from campaign import sql
from campaign.hooks import Hook
from campaign.models import Campaign, Player
from territories.models import Passage, Territory
from territories.services.graph import campaign_graph

stations_found: Hook[[int, tuple[str, Sequence[Any]] | None], set[int]] = Hook(
    "stations_found", """Which territories have a standing station.

Called by `territories.services.movement.station_territories` (reachability, R-MAP-9:
a player travels through territories with a station) as `receiver(campaign id, among)`:
`among` is None for the whole map, or `(sql, params)`, a `SELECT` of the territory ids to
ask about (a player's passable ones: `passable_sql`), so the question stays as small as
what the player holds. The economy, which owns buildings, returns the ids found; the
answers are joined.""")


def station_territories(campaign_id: int,
                        among: tuple[str, Sequence[Any]] | None = None) -> set[int]:
    """Territories with a standing station: of the whole map, or of `among` only."""
    found: set[int] = set()
    for ids in stations_found.call(campaign_id, among):
        found |= ids
    return found


def movement_graph(campaign: Campaign) -> nx.Graph[int]:
    """The meta-map as a graph of territory ids (`graph.campaign_graph`, shared)."""
    return campaign_graph(campaign)


def passable_sql(player: Player) -> tuple[str, list[int]]:
    """`(sql, params)`: a `SELECT` of the ids of the territories the player may travel
    through -- its own, and those it was granted passage over by their current owner (a
    grant lapses when the grantor loses the territory, ruling R-MAP-5). Text, not a
    queryset: every order POST asks it (`campaign.sql`)."""
    territory, passage = sql.table(Territory), sql.table(Passage)
    return (f"SELECT id FROM {territory} WHERE owner_id = %s UNION "
            f"SELECT g.territory_id FROM {passage} g JOIN {territory} t "
            "ON t.id = g.territory_id AND t.owner_id = g.grantor_id "
            "WHERE g.grantee_id = %s", [player.pk, player.pk])


def passable_territories(player: Player) -> set[int]:
    """Territories the player may travel through (`passable_sql`). One query."""
    return sql.fetch_ids(*passable_sql(player))


class Located(Protocol):
    """A unit as movement reads it (the economy's Unit): where it stands, if anywhere."""

    @property
    def territory_id(self) -> int | None: ...


#: where a move starts: a territory, its id, or a unit standing on one
Origin = Territory | int | Located


def _origin_id(unit_or_origin: Origin) -> int:
    if isinstance(unit_or_origin, Territory):
        return unit_or_origin.pk
    if isinstance(unit_or_origin, int):
        return unit_or_origin
    territory_id = unit_or_origin.territory_id
    if territory_id is None:
        raise ValueError("a unit that is off the map has no origin to move from")
    return territory_id


def reached_territories(player: Player, origin: Origin) -> set[int]:
    """The origin and every passable territory a unit travels THROUGH from it: connected
    through passable ones (with a station, under R-MAP-9).

    Only the player's passable territories are read and walked (a breadth-first search
    over the shared graph from the origin, stepping onto allowed territories only): the
    cost follows what the player holds, not the size of the map."""
    graph = movement_graph(player.campaign)
    origin_id = _origin_id(origin)
    if origin_id not in graph:
        return set()
    if player.campaign.settings.station_needed_to_pass:
        # R-MAP-9: the passable territories with a station, in one query.
        allowed = station_territories(player.campaign_id, among=passable_sql(player))
    else:
        allowed = passable_territories(player)
    adjacency = graph.adj
    reached = {origin_id}
    frontier = [origin_id]
    while frontier:
        node = frontier.pop()
        for neighbour in adjacency[node]:
            if neighbour in allowed and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return reached


def legal_destinations(player: Player, origin: Origin) -> set[int]:
    """Every territory a unit of `player` standing on `origin` may end its move on: one
    travelled through, or one next to it (any owner, a passable one without a station
    included)."""
    graph = movement_graph(player.campaign)
    reached = reached_territories(player, origin)
    destinations = set(reached)
    for node in reached:
        destinations.update(graph.adj[node])
    destinations.discard(_origin_id(origin))
    return destinations


def can_reach(player: Player, unit_or_origin: Origin, destination: Territory | int) -> bool:
    """Whether a unit of `player` (or one standing on the origin) may end its move on
    `destination`."""
    target = destination.pk if isinstance(destination, Territory) else int(destination)
    return target in legal_destinations(player, unit_or_origin)
