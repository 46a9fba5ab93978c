from django.apps import AppConfig


class EconomyConfig(AppConfig):
    """Credits, buildings, energy, storage, production, shipping, purchases and trades."""

    name = "economy"

    def ready(self) -> None:
        from campaign.pages.umpire import register_console_panel
        from economy.pages import correction_panel

        register_console_panel(correction_panel)

        from campaign.journal_labels import register_names
        from economy.labels import building_names, operative_names, unit_names

        register_names("unit", unit_names)
        register_names("pilot", operative_names)
        register_names("building", building_names)

        from campaign.services.export import register_exporter
        from economy.services.export import export_sections

        register_exporter("economy", export_sections)

        from campaign.services.imports import Table, register_table
        from economy import models as m
        from economy.services.export import imported_building

        for table in (Table(20, "buildings", m.Building, deferred=("weapon",),
                            rewrite=imported_building),
                      Table(21, "stock", m.Stock), Table(22, "operatives", m.Operative),
                      Table(23, "units", m.Unit), Table(24, "weapons", m.Weapon),
                      Table(25, "ledger", m.LedgerEntry), Table(26, "shipments", m.Shipment),
                      Table(27, "trades", m.Trade), Table(28, "kits", m.BuildingKit),
                      Table(29, "artifacts", m.Artifact)):
            register_table(table)

        from campaign.services.sandbox import on_own_territory, own, register_sandbox_filter

        # A sandbox copies only what the seat could see (issue 18): its own holdings.
        for section in ("operatives", "units", "weapons", "ledger", "shipments", "kits"):
            register_sandbox_filter(section, own("player_id"))
        for section in ("buildings", "stock", "artifacts"):
            register_sandbox_filter(section, on_own_territory)
        register_sandbox_filter("trades", own("from_player_id", "to_player_id"))
        from campaign.models import Phase
        from campaign.pages.campaigns import register_dashboard_alerts
        from campaign.services.clock import register_phase_hook
        from campaign.services.setup import register_start_hook
        from campaign.services.snapshots import register_counter
        from economy.pages import trade_alerts
        from economy.selectors import (
            territories_with_station,
            territory_contents,
            units_standing,
        )
        from economy.services.discoveries import discoveries_found
        from economy.services.production import production_run
        from economy.services.start import equip_starts
        from territories.services.exploration import register_discovery_handler
        from territories.services.movement import register_station_finder

        register_station_finder(territories_with_station)
        from territories.selectors import register_contents_reader

        register_contents_reader(territory_contents)
        register_discovery_handler(discoveries_found)
        register_counter("units", units_standing)
        register_dashboard_alerts(trade_alerts, order=10)
        # After the territories hook (10) has placed the players; before the
        # explorations (30), as the start always ran.
        register_start_hook(equip_starts, order=20)
        # Seed, "Activity phase": production happens when the activity phase ends.
        register_phase_hook("leave", Phase.ACTIVITY, production_run, order=10)
