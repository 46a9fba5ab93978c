"""Placing the players when a campaign starts (seed, "Beginning the game": "one territory
of the meta-map is awarded to each player"). A start hook of the core's
`campaign.services.setup` (connected in territories/connections.py): starts spread far
apart on the map, each taken and explored by its player."""

from __future__ import annotations

from typing import Any

from campaign.dice import seeded_random
from campaign.errors import Conflict
from campaign.models import Campaign, Player
from territories.models import Adjacency, Territory
from territories.services.exploration import explore
from territories.services.starts import min_pairwise_distance, spread_starts


def place_players(*, campaign: Campaign, players: list[Player], context: dict[str, Any]
                  ) -> None:
    """Give each player a starting territory (`context["starts"]`: player id ->
    territory id) and `context["min_start_distance"]`. Call under the campaign's lock."""
    territory_ids = list(Territory.objects.filter(campaign=campaign).order_by("pk")
                         .values_list("pk", flat=True))
    if len(players) > len(territory_ids):
        raise Conflict(f"The map has {len(territory_ids)} territories for "
                       f"{len(players)} players.", code="too_many_players")
    index = {pk: i for i, pk in enumerate(territory_ids)}
    adjacency: list[list[int]] = [[] for _ in territory_ids]
    for a, b in Adjacency.objects.filter(campaign=campaign).values_list("a_id", "b_id"):
        adjacency[index[a]].append(index[b])
        adjacency[index[b]].append(index[a])
    rng = seeded_random(campaign.seed, "starts")
    chosen = spread_starts(adjacency, len(players), rng)
    order = list(players)
    rng.shuffle(order)
    starts = {p.pk: territory_ids[i] for p, i in zip(order, chosen, strict=True)}
    territories = Territory.objects.in_bulk(list(starts.values()))
    for player in players:
        territory = territories[starts[player.pk]]
        territory.owner = player
        territory.ever_owned = True
    Territory.objects.bulk_update(territories.values(), ["owner", "ever_owned"])
    context["starts"] = starts
    context["min_start_distance"] = min_pairwise_distance(adjacency, chosen)
    context["starting_territories"] = territories


def explore_starts(*, campaign: Campaign, players: list[Player], context: dict[str, Any]
                   ) -> None:
    """R-MAP-6: each starting territory is explored by its player at the start."""
    territories = context["starting_territories"]
    for player in players:
        explore(territory=territories[context["starts"][player.pk]], player=player)
