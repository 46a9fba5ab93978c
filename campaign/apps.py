from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The core app: campaigns, membership, the clock, sealed orders and the journal."""

    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Importing the Celery app here (not in campaign/__init__.py) keeps the
        # package importable without Django, so the rulesets can read campaign.rules.
        from campaign import celery  # noqa: F401
