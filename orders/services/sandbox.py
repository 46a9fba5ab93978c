"""Which orders a sandbox copies (campaign.services.sandbox, issue 18): a sealed order is
its player's (or an umpire's who may read sealed orders) only, and an order goes with
its unit (the units section is filtered first)."""

from __future__ import annotations

from typing import Any

from campaign.services.sandbox import Viewer
from orders.models import Order


def keep_order(row: dict[str, Any], viewer: Viewer) -> bool:
    if row.get("status") == Order.Status.OPEN and not (
            row.get("player_id") == viewer.player
            or (viewer.sees_all and viewer.may_read_sealed)):
        return False
    return row.get("unit_id") in viewer.kept.get("units", set())
