"""The orders app's receivers on the core's hook points (imported by
`OrdersConfig.ready()`; docs/ARCHITECTURE.md, "Hook points")."""

from __future__ import annotations

from campaign.models import Phase
from campaign.pages.campaigns import dashboard_alerts
from campaign.pages.umpire import console_panel
from campaign.services.clock import phase_entered, phase_left
from campaign.services.export import sections_exported
from campaign.services.imports import Table, import_tables
from campaign.services.rollback import rollback_restored
from campaign.services.sandbox import sandbox_rows
from orders.models import Order
from orders.pages import no_orders_alert, sealed_panel
from orders.services import export, receipts, reveal, sandbox
from orders.services.missed_turns import missed_turns

# The clock calls the orders through its phase hooks, the core's one way to call an app
# above it: who missed the turn as the move phase closes, the reveal (first, 10) as the
# tactical phase opens, before the battles open (20).
phase_left.connect(missed_turns, key=Phase.MOVE, order=10)
phase_entered.connect(reveal.reveal_and_move, key=Phase.TACTICAL, order=10)
sections_exported.connect(export.export_sections, key="orders")


@import_tables.connect
def tables() -> list[Table]:
    """The orders (51): after the units they name."""
    return [Table(51, "orders", Order)]


sandbox_rows.connect(sandbox.keep_order, key="orders")
rollback_restored.connect(receipts.forget_rolled_back)
dashboard_alerts.connect(no_orders_alert, order=0)  # first, as it always was
console_panel.connect(sealed_panel)
