"""The embedded clock: `runserver_with_clock` sweeps deadlines without Celery beat."""

from __future__ import annotations

import threading
import time
from unittest import mock

from campaign.management.commands import runserver_with_clock as cmd


def test_the_clock_thread_sweeps_repeatedly_and_survives_errors():
    calls: list[int] = []

    def sweep() -> int:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("database hiccup")
        return 0

    with mock.patch("campaign.services.clock.sweep_deadlines", side_effect=sweep), \
            mock.patch.object(cmd, "close_old_connections"):
        thread, stop = cmd.start_clock_thread(interval=0.01)
        deadline = time.monotonic() + 5
        while len(calls) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        stop.set()
        thread.join(timeout=2)
    assert len(calls) >= 3 and not thread.is_alive()


def test_the_command_starts_one_clock_thread_in_the_serving_process(monkeypatch):
    monkeypatch.delenv("RUN_MAIN", raising=False)
    started = threading.Event()
    monkeypatch.setattr(cmd, "start_clock_thread", lambda: started.set())
    monkeypatch.setattr(cmd.RunserverCommand, "inner_run", lambda self, *a, **k: None)
    command = cmd.Command()
    command.inner_run(use_reloader=True)  # the reloader's parent: no thread
    assert not started.is_set()
    command.inner_run(use_reloader=False)
    assert started.is_set()
