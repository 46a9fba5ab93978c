from django.apps import AppConfig


class OrdersConfig(AppConfig):
    """Sealed move orders, their receipts and the reveal: above the economy and the map
    (it imports the units and territories it orders), below the battles (which read the
    orders carried out)."""

    name = "orders"
    verbose_name = "Sealed orders"

    def ready(self) -> None:
        from campaign.models import Phase
        from campaign.pages.campaigns import register_dashboard_alerts
        from campaign.pages.umpire import register_console_panel
        from campaign.services.clock import register_phase_hook
        from campaign.services.export import register_exporter
        from campaign.services.imports import Table, register_table
        from campaign.services.rollback import register_restored_hook
        from campaign.services.sandbox import register_sandbox_filter
        from orders.models import Order
        from orders.pages import no_orders_alert, sealed_panel
        from orders.services import export, receipts, reveal, sandbox
        from orders.services.missed_turns import missed_turns

        # The clock calls the orders through its phase hooks, the core's one way to call
        # an app above it: who missed the turn as the move phase closes, the reveal (first,
        # 10) as the tactical phase opens, before the battles open (20).
        register_phase_hook("leave", Phase.MOVE, missed_turns, order=10)
        register_phase_hook("enter", Phase.TACTICAL, reveal.reveal_and_move, order=10)
        register_exporter("orders", export.export_sections)
        register_table(Table(51, "orders", Order))  # after the units it names
        register_sandbox_filter("orders", sandbox.keep_order)
        register_restored_hook(receipts.forget_rolled_back)
        register_dashboard_alerts(no_orders_alert, order=0)  # first, as it always was
        register_console_panel(sealed_panel)
