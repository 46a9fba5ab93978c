"""Starting a campaign (seed, "Beginning the game").

"At the beginning of a campaign, 1000 Stellar Credits (SC) and one territory of the
meta-map is awarded to each player. It comes with a Station, Command center, Power
plant, Radar, and Landing pad."

Owned by the territories area: it places players on the meta-map. Everything happens
in one transaction; a refused start changes nothing.
"""

from __future__ import annotations

from django.db import transaction

from campaign.dice import seeded_random
from campaign.errors import Conflict
from campaign.models import Campaign, Player
from campaign.rules import BUILDINGS, STARTING_BUILDINGS, STARTING_CREDITS
from campaign.services import clock
from campaign.services.journal import record_event
from territories.models import Adjacency, Territory
from territories.services.exploration import explore
from territories.services.grid import STARTING_SQUARES
from territories.services.starts import min_pairwise_distance, spread_starts

MIN_PLAYERS = 2


def campaign_start(*, campaign_id: int) -> Campaign:
    """Start a campaign in set-up: starting territories, credits, buildings and
    explorations, then turn 1's commercial phase. (The view checks the umpire.)"""
    from economy.models import Building
    from economy.services.ledger import post

    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.status != Campaign.Status.SETUP:
            raise Conflict("This campaign has already started.", code="not_in_setup")
        players = list(Player.objects.filter(campaign=campaign).select_related("user")
                       .order_by("pk"))
        if len(players) < MIN_PLAYERS:
            raise Conflict(f"A campaign needs at least {MIN_PLAYERS} players to start; it has "
                           f"{len(players)}.", code="not_enough_players")
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
        spread = min_pairwise_distance(adjacency, chosen)

        territories = Territory.objects.in_bulk(list(starts.values()))
        for player in players:
            territory = territories[starts[player.pk]]
            territory.owner = player
            territory.ever_owned = True
        Territory.objects.bulk_update(territories.values(), ["owner", "ever_owned"])
        Building.objects.bulk_create([
            Building(territory_id=starts[player.pk], kind=kind,
                     x=STARTING_SQUARES[kind][0], y=STARTING_SQUARES[kind][1], active=True,
                     hit_points=BUILDINGS[kind].hit_points, built_turn=0)
            for player in players for kind in STARTING_BUILDINGS
        ])
        for player in players:
            player.campaign = campaign
            post(player=player, amount=STARTING_CREDITS, reason="starting_credits",
                 detail="Beginning the game")
        record_event(campaign=campaign, kind="campaign_started", data={
            "players": len(players),
            "starts": {str(pk): tid for pk, tid in starts.items()},
            "min_start_distance": spread,
        })
        for player in players:
            explore(territory=territories[starts[player.pk]], player=player)
        campaign.status = Campaign.Status.RUNNING
        campaign.save(update_fields=["status"])
        clock.open_phase(campaign=campaign, turn=1, phase="commercial", by="start")
    return campaign
