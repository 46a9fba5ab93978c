"""`manage.py runserver_with_clock`: Django's development server plus the deadline
sweep in a background thread -- the embedded default for deadlines when no Celery
beat runs (`make run`). Every CLOCK_SWEEP_SECONDS it calls
`campaign.services.clock.sweep_deadlines()`, which is idempotent, so running it next
to a real beat is harmless.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from django.conf import settings
from django.core.management.commands.runserver import Command as RunserverCommand
from django.db import close_old_connections

from campaign.services import clock

log = logging.getLogger(__name__)


def sweep_forever(stop: threading.Event, interval: float) -> None:
    """Sweep until `stop` is set; a failing sweep is logged and retried next time."""
    while not stop.wait(interval):
        close_old_connections()
        try:
            changed = clock.sweep_deadlines()
            if changed:
                log.info("clock: %s campaign(s) advanced past their deadline", changed)
        except Exception:
            log.exception("clock: deadline sweep failed")
        finally:
            close_old_connections()


def start_clock_thread(interval: float | None = None) -> tuple[threading.Thread, threading.Event]:
    stop = threading.Event()
    thread = threading.Thread(target=sweep_forever, name="deadline-clock", daemon=True,
                              args=(stop, float(interval or settings.CLOCK_SWEEP_SECONDS)))
    thread.start()
    return thread, stop


class Command(RunserverCommand):
    help = ("Run the development server and advance campaigns whose deadline has passed "
            "(every CLOCK_SWEEP_SECONDS), without Celery beat.")

    def inner_run(self, *args: Any, **options: Any) -> None:
        # With the autoreloader, inner_run runs in the serving child process only
        # (RUN_MAIN=true), so exactly one clock thread sweeps.
        if options.get("use_reloader") is False or os.environ.get("RUN_MAIN") == "true":
            start_clock_thread()
            self.stdout.write(f"Deadline clock: sweeping every "
                              f"{settings.CLOCK_SWEEP_SECONDS} s.")
        super().inner_run(*args, **options)
