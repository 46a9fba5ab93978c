from django.apps import AppConfig


class TerritoriesConfig(AppConfig):
    """The meta-map, territorial maps, exploration and movement reachability."""

    name = "territories"
