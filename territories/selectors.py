"""Reading the meta-map for one caller: what each member may see of every territory.

A constant number of queries whatever the size of the map: territories, adjacencies,
the buildings and units the caller may see (read by the economy, which owns them:
`contents_read`), and the deposits it may see.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from campaign.access import Membership
from campaign.hooks import Hook
from territories.models import Adjacency, Exploration, Territory
from territories.services.graph import campaign_graph, neighbours


def deposit_data(exploration: Exploration) -> dict[str, Any]:
    return {
        "resource": exploration.resource,
        "units_per_shaft": exploration.units_per_shaft,
        "pure": exploration.pure,
        "unstable": exploration.unstable,
        "discovery": exploration.discovery or None,
        "dice": {"active": exploration.active_die, "passive": exploration.passive_die,
                 "nemesis": exploration.nemesis_die},
    }


@dataclass(frozen=True)
class Contents:
    """What stands on the territories a listing shows, as the caller may see it."""

    #: territory id -> its buildings ({"id", "kind", "x", "y", "active", "hit_points"})
    buildings: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: territory id -> units standing there (not destroyed)
    units: dict[int, int] = field(default_factory=dict)


contents_read: Hook[[Any, Any, bool, int | None], Contents] = Hook("contents_read", """What
stands on the territories a listing shows.

Called by `territories.selectors.territories_for` (the map, a territory's page) as
`receiver(campaign, player or None, sees_all, only territory id or None)`; the economy,
which owns buildings and units, returns `Contents`: with `sees_all` (the umpire who does
not play) every owner's, otherwise the buildings on the player's territories and the
player's units only. Several receivers' contents add up.""")


def _contents(campaign: Any, player: Any, sees_all: bool, only: int | None) -> Contents:
    merged = Contents()
    for found in contents_read.call(campaign, player, sees_all, only):
        for pk, rows in found.buildings.items():
            merged.buildings.setdefault(pk, []).extend(rows)
        for pk, n in found.units.items():
            merged.units[pk] = merged.units.get(pk, 0) + n
    return merged


def territories_for(member: Membership, only: int | None = None, *,
                    static: bool = True) -> list[dict[str, Any]]:
    """Every territory of the campaign (or just `only`) as the caller may see it.
    `static=False` leaves out what never changes (name, neighbours, layout: the cacheable
    `static_map`), and its adjacency query."""
    campaign = member.campaign
    player = member.player
    # The umpire sees everything, unless the umpire also plays (then as a player).
    sees_all = member.is_umpire and not member.umpire_plays
    territory_qs = Territory.objects.filter(campaign=campaign)
    if only is not None:
        territory_qs = territory_qs.filter(pk=only)
    rows = list(territory_qs.values("pk", "name", "owner_id", "x", "y", "ever_owned"))
    neighbors: dict[int, list[int]] = defaultdict(list)
    adjacency_qs = Adjacency.objects.filter(campaign=campaign)
    if not static:
        adjacency_qs = adjacency_qs.none()
    elif only is not None:
        adjacency_qs = adjacency_qs.filter(Q(a_id=only) | Q(b_id=only))
    for a, b in adjacency_qs.values_list("a_id", "b_id"):
        neighbors[a].append(b)
        neighbors[b].append(a)

    visible_owner_ids = {player.pk} if player is not None else set()
    contents = _contents(campaign, player, sees_all, only)
    buildings, units = contents.buildings, contents.units

    # A spectator of a public league never reads deposits (API.md).
    deposits_public = bool(campaign.settings.deposits_public) and not member.spectator
    exploration_qs = Exploration.objects.filter(campaign=campaign)
    if not (sees_all or deposits_public):
        exploration_qs = exploration_qs.filter(territory__owner_id__in=visible_owner_ids)
    if only is not None:
        exploration_qs = exploration_qs.filter(territory_id=only)
    deposits = {e.territory_id: deposit_data(e) for e in exploration_qs}

    result = []
    for row in rows:
        pk = row["pk"]
        mine = player is not None and row["owner_id"] == player.pk
        item: dict[str, Any] = {
            "id": pk, "name": row["name"], "owner": row["owner_id"],
            "neighbors": sorted(neighbors.get(pk, [])), "x": row["x"], "y": row["y"],
            "explored": row["ever_owned"], "mine": mine,
            "units": units.get(pk, 0),
            "deposit": deposits.get(pk),
        }
        if mine or sees_all:
            item["buildings"] = buildings.get(pk, [])
        if not static:
            for key in ("name", "neighbors", "x", "y"):
                del item[key]
        result.append(item)
    return result


def static_map(campaign: Any) -> list[dict[str, Any]]:
    """The part of the meta-map that does not change in play, the same for every reader:
    each territory's id, name, layout and neighbours (one query; the neighbours from the
    shared graph)."""
    adjacency = campaign_graph(campaign).adj
    return [{"id": pk, "name": name, "x": x, "y": y,
             "neighbors": sorted(adjacency[pk]) if pk in adjacency else []}
            for pk, name, x, y in Territory.objects.filter(campaign=campaign)
            .order_by("pk").values_list("pk", "name", "x", "y")]


def territories_held(campaign: Any) -> dict[int, int]:
    """{player id: territories held} (one query; the history charts' snapshot count)."""
    return dict(Territory.objects.filter(campaign=campaign, owner__isnull=False)
                .values("owner").annotate(n=Count("id")).values_list("owner", "n"))


def owners_and_names(campaign: Any, also: Iterable[int] | None = None
                     ) -> dict[int, tuple[int | None, str]]:
    """{territory id: (owner id or None, name)} (one query; the reveal's map): of every
    territory, or, given `also`, of the owned ones and those of `also` (issue 32: the
    reveal needs no unowned territory but its orders' destinations)."""
    territories = Territory.objects.filter(campaign=campaign)
    if also is not None:
        territories = territories.filter(Q(owner__isnull=False) | Q(pk__in=list(also)))
    return {pk: (owner, name) for pk, owner, name in
            territories.values_list("pk", "owner_id", "name")}


def territory_for_order(campaign: Any, territory_id: int) -> tuple[int | None, str] | None:
    """(owner id, name) of a territory of the campaign, or None (a sealed order's
    destination)."""
    row = (Territory.objects.filter(pk=territory_id, campaign=campaign)
           .values_list("owner_id", "name").first())
    return (row[0], row[1]) if row else None


def lock_neighbourhood(campaign: Any, territory_id: int
                       ) -> tuple[dict[int, int | None], list[int]]:
    """A battlefield and its neighbours, locked (FOR NO KEY UPDATE: an owner is not a key,
    and a foreign key to these rows, such as a unit retreating, then only takes the KEY
    SHARE lock that does not conflict with it) in id order in one statement
    (the global lock order: territories by id): ({id: owner id}, the neighbours' ids in
    order). The neighbours come from the campaign's shared graph (built once per process:
    `graph.campaign_graph`), so the statement reads those few rows by primary key.
    A battle's recording changes the battlefield's owner and retreats units into the
    neighbours it reads the owners of; two recordings whose neighbourhoods meet then
    queue (in one order: no deadlock), the others run side by side."""
    near = sorted({territory_id, *neighbours(campaign, territory_id)})
    owners: dict[int, int | None] = dict(
        Territory.objects.select_for_update(no_key=True).filter(pk__in=near)
        .order_by("pk").values_list("pk", "owner_id"))
    return owners, [pk for pk in owners if pk != territory_id]


def territory_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    """The journal's lookup: each territory id's name (one query)."""
    return dict(Territory.objects.filter(campaign_id=campaign_id, pk__in=ids)
                .values_list("pk", "name"))
