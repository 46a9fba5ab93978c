from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The core app: campaigns, membership, the clock and the journal."""

    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Importing the Celery app here (not in campaign/__init__.py) keeps the
        # package importable without Django, so the rulesets can read campaign.rules.
        from celery.signals import task_postrun

        from campaign import celery, connections  # noqa: F401 (they connect on import)

        task_postrun.connect(_outbox_job_finished, weak=False)


def _outbox_job_finished(task_id: str | None = None, state: str | None = None,
                         sender: object = None, **_kwargs: object) -> None:
    """A worker finished a job the outbox sent (a retry is not finished)."""
    if state == "RETRY":
        return
    from campaign.services import outbox

    outbox.mark_done(task_id, task=str(getattr(sender, "name", "") or ""))
