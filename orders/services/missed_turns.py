"""Missed turns (R-ORD-6): on leaving the move phase, the seats that gave no order and did
not mark ready missed the turn. The orders say who gave one; the core writes the seats
(`campaign.services.seats.record_missed_turns`)."""

from __future__ import annotations

from campaign.models import Campaign
from campaign.services.seats import record_missed_turns
from orders.selectors import players_with_orders


def missed_turns(*, campaign: Campaign) -> None:
    """Hook ("leave", "move"), connected in orders/connections.py."""
    if campaign.is_sandbox:  # nobody misses anything there: no query either
        return
    record_missed_turns(campaign=campaign, ordered=players_with_orders(campaign))
