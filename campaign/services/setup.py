"""Starting a campaign (seed, "Beginning the game").

"At the beginning of a campaign, 1000 Stellar Credits (SC) and one territory of the
meta-map is awarded to each player. It comes with a Station, Command center, Power
plant, Radar, and Landing pad."

The core checks that the campaign may start and opens turn 1; placing the players
(territories) and equipping them (economy) are what those apps connect to `campaign_started`
(their connections.py), run in order in the same transaction: a refused start changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.dice import rolling
from campaign.errors import Conflict
from campaign.hooks import Hook
from campaign.models import Campaign, Player
from campaign.services import clock
from campaign.services.campaigns import seats_misfit
from campaign.services.commitments import commit, reveal
from campaign.services.journal import record_event

campaign_started: Hook[..., None] = Hook("campaign_started", """A campaign is starting.

Called by `campaign.services.setup.campaign_start` as `receiver(campaign=, players=,
context=)`, by `order`, inside the starting transaction with the start's dice rolling
(a receiver that raises refuses the start, and nothing changes); the result is unused.
Receivers share `context` (territories, 10, puts the starts there; economy, 20, equips
them; territories' explorations at `EXPLORE_ORDER`, after the start is journaled).""")


MIN_PLAYERS = 2


def campaign_start(*, campaign_id: int) -> Campaign:
    """Start a campaign in set-up: starting territories, credits, buildings and
    explorations (the start hooks), then turn 1's commercial phase. (The view checks the
    umpire.)"""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.status != Campaign.Status.SETUP:
            raise Conflict("This campaign has already started.", code="not_in_setup")
        players = list(Player.objects.filter(campaign=campaign).select_related("user")
                       .order_by("pk"))
        pending = [p.user.get_username() for p in players if not p.approved]
        if pending:
            raise Conflict("Approve or remove the seats that wait for you first: "
                           f"{', '.join(pending)}.", code="seats_pending")
        misfit = seats_misfit(players, campaign.settings.ruleset)
        if misfit:  # R-FAC-2 (a ruleset whose factions changed since the seats joined)
            raise Conflict("These seats' factions do not fit the campaign's ruleset: "
                           f"{', '.join(misfit)}. Remove them (they join again and choose).",
                           code="faction_mismatch")
        if len(players) < MIN_PLAYERS:
            raise Conflict(f"A campaign needs at least {MIN_PLAYERS} players to start; it has "
                           f"{len(players)}.", code="not_enough_players")
        context: dict[str, Any] = {}
        turn = int(campaign.turn)
        commit(campaign, turn, "setup")  # the start's dice (explorations), committed first
        with rolling(campaign, turn, "setup"):
            for connection in campaign_started.connections():
                if connection.order >= EXPLORE_ORDER and "journaled" not in context:
                    _journal_start(campaign, players, context)
                connection.fn(campaign=campaign, players=players, context=context)
        if "journaled" not in context:
            _journal_start(campaign, players, context)
        reveal(campaign, turn, "setup")
        campaign.status = Campaign.Status.RUNNING
        campaign.save(update_fields=["status"])
        clock.open_phase(campaign=campaign, turn=1, phase="commercial", by="start")
    return campaign


#: Hooks at or after this order run after the `campaign_started` journal entry (the
#: explorations of the starting territories come after it in the journal).
EXPLORE_ORDER = 30


def _journal_start(campaign: Campaign, players: list[Player], context: dict[str, Any]
                   ) -> None:
    starts = context.get("starts", {})
    record_event(campaign=campaign, kind="campaign_started", data={
        "players": len(players),
        "starts": {str(pk): tid for pk, tid in starts.items()},
        "min_start_distance": context.get("min_start_distance"),
    })
    context["journaled"] = True
