"""The territories app's receivers on the core's hook points (imported by
`TerritoriesConfig.ready()`; docs/ARCHITECTURE.md, "Hook points")."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from campaign.journal_labels import journal_names_found
from campaign.pages.umpire import console_panel
from campaign.services.campaigns import map_built, map_spec_cleaned
from campaign.services.commitments import dice_verified
from campaign.services.export import sections_exported
from campaign.services.imports import Table, import_tables
from campaign.services.sandbox import Viewer, own, public, sandbox_rows
from campaign.services.setup import EXPLORE_ORDER, campaign_started
from campaign.services.snapshots import territories_counted
from territories.models import Adjacency, Exploration, Passage, Territory
from territories.pages import ownership_panel
from territories.selectors import territories_held, territory_names
from territories.services.export import export_sections
from territories.services.graph import forget
from territories.services.maps import build_map, clean_map_spec
from territories.services.start import explore_starts, place_players
from territories.services.verify import verify_explorations

console_panel.connect(ownership_panel)
journal_names_found.connect(territory_names, key="territory")
map_spec_cleaned.connect(clean_map_spec)
map_built.connect(build_map)
territories_counted.connect(territories_held)
# The start: place the players first (10); explore the starts once the start is
# journaled (EXPLORE_ORDER), after the economy has equipped them (20).
campaign_started.connect(place_players, order=10)
campaign_started.connect(explore_starts, order=EXPLORE_ORDER)
dice_verified.connect(verify_explorations, key="exploration")
sections_exported.connect(export_sections, key="territories")


@import_tables.connect
def tables() -> list[Table]:
    """The map first (10-19): everything else stands on it."""
    return [Table(10, "territories", Territory), Table(11, "adjacency", Adjacency),
            Table(12, "explorations", Exploration), Table(13, "passages", Passage)]


def explored(row: dict[str, object], viewer: Viewer) -> bool:
    """Deposits: the viewer's own, or all when the campaign publishes them."""
    return (viewer.sees_all or viewer.deposits_public
            or row.get("territory_id") in viewer.owned)


sandbox_rows.connect(public, key="territories")
sandbox_rows.connect(public, key="adjacency")
sandbox_rows.connect(explored, key="explorations")
sandbox_rows.connect(own("grantor_id", "grantee_id"), key="passages")


def _map_changed(sender: type, instance: Territory | Adjacency, **kwargs: object) -> None:
    """The campaign's shared graph (`territories.services.graph`) is stale."""
    if sender is Territory and kwargs.get("created") is False:
        return  # an owner or a name changed, not the map
    forget(instance.campaign_id)


for _model in (Territory, Adjacency):
    post_save.connect(_map_changed, sender=_model, weak=False,
                      dispatch_uid=f"graph-{_model.__name__}-save")
    post_delete.connect(_map_changed, sender=_model, weak=False,
                        dispatch_uid=f"graph-{_model.__name__}-delete")
