from django.apps import AppConfig


class EconomyConfig(AppConfig):
    """Credits, buildings, energy, storage, production, shipping, purchases and trades."""

    name = "economy"

    def ready(self) -> None:
        from campaign.models import Phase
        from campaign.services.clock import register_phase_hook
        from economy.selectors import territories_with_station
        from economy.services.production import production_run
        from territories.services.movement import register_station_finder

        register_station_finder(territories_with_station)
        # Seed, "Activity phase": production happens when the activity phase ends.
        register_phase_hook("leave", Phase.ACTIVITY, production_run, order=10)
