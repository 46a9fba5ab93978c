from django.apps import AppConfig


class EconomyConfig(AppConfig):
    """Credits, buildings, energy, storage, production, shipping, purchases and trades."""

    name = "economy"

    def ready(self) -> None:
        from economy import connections  # noqa: F401 (connects on import)
