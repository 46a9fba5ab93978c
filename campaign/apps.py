from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The core app: campaigns, membership, the clock and the journal."""

    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # Importing the Celery app here (not in campaign/__init__.py) keeps the
        # package importable without Django, so the rulesets can read campaign.rules.
        from celery.signals import task_postrun

        from campaign import celery  # noqa: F401
        from campaign.models import PHASE_ORDER, Phase
        from campaign.services import absence, notifications, snapshots
        from campaign.services.clock import register_phase_hook

        # The core's own clock hooks; the other apps register theirs in their ready()
        # (orders: the missed turns on leaving the move phase, the reveal on entering the
        # tactical one).
        register_phase_hook("leave", Phase.TACTICAL, notifications.results_in, order=10)
        register_phase_hook("leave", Phase.TACTICAL, snapshots.snapshot_turn, order=20)
        for phase in PHASE_ORDER:  # the record of deadlines, and the stand-in's seats
            register_phase_hook("leave", phase, absence.record_deadlines, order=50)
            register_phase_hook("enter", phase, absence.stand_in_plays, order=90)
        task_postrun.connect(_outbox_job_finished, weak=False)


def _outbox_job_finished(task_id: str | None = None, state: str | None = None,
                         **_kwargs: object) -> None:
    """A worker finished a job the outbox sent (a retry is not finished)."""
    if state == "RETRY":
        return
    from campaign.services import outbox

    outbox.mark_done(task_id)
