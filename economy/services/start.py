"""What each player starts with (seed, "Beginning the game": "1000 Stellar Credits (SC)
... It comes with a Station, Command center, Power plant, Radar, and Landing pad."). A
start hook of the core's `campaign.services.setup` (connected in economy/connections.py),
run after the territories hook has placed the players."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign, Player
from campaign.rules import BUILDINGS, STARTING_BUILDINGS, STARTING_CREDITS
from economy.models import Building
from economy.services.grid import STARTING_SQUARES
from economy.services.ledger import post


def equip_starts(*, campaign: Campaign, players: list[Player], context: dict[str, Any]
                 ) -> None:
    """The starting buildings on each starting territory and the starting credits."""
    starts = context["starts"]
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
