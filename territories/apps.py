from django.apps import AppConfig


class TerritoriesConfig(AppConfig):
    """The meta-map, territorial maps, exploration and movement reachability."""

    name = "territories"

    def ready(self) -> None:
        from territories import connections  # noqa: F401 (connects on import)
