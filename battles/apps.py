from django.apps import AppConfig


class BattlesConfig(AppConfig):
    """Battle records, the Celery jobs that run them, and the recording of results."""

    name = "battles"
