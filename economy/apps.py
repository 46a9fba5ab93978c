from django.apps import AppConfig


class EconomyConfig(AppConfig):
    """Credits, buildings, energy, storage, production, shipping, purchases and trades."""

    name = "economy"

    def ready(self) -> None:
        from economy.selectors import territories_with_station
        from territories.services.movement import register_station_finder

        register_station_finder(territories_with_station)
