"""The orders' section of a campaign's export (campaign.services.export): orders once
revealed; a complete document (a rollback point, never shown) keeps the sealed ones."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.services.export import is_complete, rows
from orders.models import Order


def export_sections(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    orders = Order.objects.filter(campaign=campaign)
    # Sealed orders are nobody's business until the reveal.
    if not is_complete():
        orders = orders.exclude(status=Order.Status.OPEN)
    return {"orders": rows(orders)}
