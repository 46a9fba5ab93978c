"""The economy's receivers on the hook points of the core and the territories app
(imported by `EconomyConfig.ready()`; docs/ARCHITECTURE.md, "Hook points")."""

from __future__ import annotations

from campaign.journal_labels import journal_names_found
from campaign.models import Phase
from campaign.pages.campaigns import dashboard_alerts
from campaign.pages.umpire import console_panel
from campaign.services.clock import phase_left
from campaign.services.export import sections_exported
from campaign.services.imports import Table, import_tables
from campaign.services.sandbox import on_own_territory, own, sandbox_rows
from campaign.services.setup import campaign_started
from campaign.services.snapshots import units_counted
from economy import models as m
from economy.labels import building_names, operative_names, unit_names
from economy.pages import correction_panel, trade_alerts
from economy.selectors import territories_with_station, territory_contents, units_standing
from economy.services.discoveries import discoveries_found
from economy.services.export import export_sections, imported_building
from economy.services.production import production_run
from economy.services.start import equip_starts
from territories.selectors import contents_read
from territories.services.exploration import discoveries_made
from territories.services.movement import stations_found

console_panel.connect(correction_panel)
journal_names_found.connect(unit_names, key="unit")
journal_names_found.connect(operative_names, key="pilot")
journal_names_found.connect(building_names, key="building")
sections_exported.connect(export_sections, key="economy")


@import_tables.connect
def tables() -> list[Table]:
    """The holdings (20-39), after the map they stand on."""
    return [Table(20, "buildings", m.Building, deferred=("weapon",),
                  rewrite=imported_building),
            Table(21, "stock", m.Stock), Table(22, "operatives", m.Operative),
            Table(23, "units", m.Unit), Table(24, "weapons", m.Weapon),
            Table(25, "ledger", m.LedgerEntry), Table(26, "shipments", m.Shipment),
            Table(27, "trades", m.Trade), Table(28, "kits", m.BuildingKit),
            Table(29, "artifacts", m.Artifact)]


# A sandbox copies only what the seat could see (issue 18): its own holdings.
for _section in ("operatives", "units", "weapons", "ledger", "shipments", "kits"):
    sandbox_rows.connect(own("player_id"), key=_section)
for _section in ("buildings", "stock", "artifacts"):
    sandbox_rows.connect(on_own_territory, key=_section)
sandbox_rows.connect(own("from_player_id", "to_player_id"), key="trades")

stations_found.connect(territories_with_station)
contents_read.connect(territory_contents)
discoveries_made.connect(discoveries_found)
units_counted.connect(units_standing)
dashboard_alerts.connect(trade_alerts, order=10)
# After the territories have placed the players (10); before the explorations (30), as
# the start always ran.
campaign_started.connect(equip_starts, order=20)
# Seed, "Activity phase": production happens when the activity phase ends.
phase_left.connect(production_run, key=Phase.ACTIVITY, order=10)
