from django.apps import AppConfig


class TerritoriesConfig(AppConfig):
    """The meta-map, territorial maps, exploration and movement reachability."""

    name = "territories"

    def ready(self) -> None:
        from campaign.pages.umpire import register_console_panel
        from territories.pages import ownership_panel

        register_console_panel(ownership_panel)

        from campaign.journal_labels import register_names
        from territories.selectors import territory_names

        register_names("territory", territory_names)
        from campaign.services.campaigns import register_map_builder
        from campaign.services.setup import EXPLORE_ORDER, register_start_hook
        from campaign.services.snapshots import register_counter
        from territories.selectors import territories_held
        from territories.services.maps import build_map, clean_map_spec
        from territories.services.start import explore_starts, place_players

        register_map_builder(clean=clean_map_spec, build=build_map)
        register_counter("territories", territories_held)
        register_start_hook(place_players, order=10)
        register_start_hook(explore_starts, order=EXPLORE_ORDER)

        from campaign.services.commitments import register_verifier
        from territories.services.verify import verify_explorations

        register_verifier("exploration", verify_explorations)

        from campaign.services.export import register_exporter
        from territories.services.export import export_sections

        register_exporter("territories", export_sections)

        from campaign.services.imports import Table, register_table
        from territories.models import Adjacency, Exploration, Passage, Territory

        for order, section, model in ((10, "territories", Territory),
                                      (11, "adjacency", Adjacency),
                                      (12, "explorations", Exploration),
                                      (13, "passages", Passage)):
            register_table(Table(order, section, model))

        from campaign.services.sandbox import Viewer, own, public, register_sandbox_filter

        def explored(row: dict[str, object], viewer: Viewer) -> bool:
            """Deposits: the viewer's own, or all when the campaign publishes them."""
            return (viewer.sees_all or viewer.deposits_public
                    or row.get("territory_id") in viewer.owned)

        register_sandbox_filter("territories", public)
        register_sandbox_filter("adjacency", public)
        register_sandbox_filter("explorations", explored)
        register_sandbox_filter("passages", own("grantor_id", "grantee_id"))

        from django.db.models.signals import post_delete, post_save

        from territories.models import Adjacency, Territory
        from territories.services.graph import forget

        def _map_changed(sender: type, instance: Territory | Adjacency, **kwargs: object) -> None:
            if sender is Territory and kwargs.get("created") is False:
                return  # an owner or a name changed, not the map
            forget(instance.campaign_id)

        for model in (Territory, Adjacency):
            post_save.connect(_map_changed, sender=model, weak=False,
                              dispatch_uid=f"graph-{model.__name__}-save")
            post_delete.connect(_map_changed, sender=model, weak=False,
                                dispatch_uid=f"graph-{model.__name__}-delete")
