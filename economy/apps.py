from django.apps import AppConfig


class EconomyConfig(AppConfig):
    """Credits, buildings, energy, storage, production, shipping, purchases and trades."""

    name = "economy"
