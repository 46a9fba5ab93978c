from django.apps import AppConfig


class TerritoriesConfig(AppConfig):
    """The meta-map, territorial maps, exploration and movement reachability."""

    name = "territories"

    def ready(self) -> None:
        from campaign.services.snapshots import register_counter
        from territories.selectors import territories_held

        register_counter("territories", territories_held)
