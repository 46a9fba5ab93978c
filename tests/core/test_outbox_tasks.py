"""The outbox finds every task by name in a fresh process, as a gunicorn worker that has
imported no `tasks` module yet (otherwise every job would wait for the sweeper)."""

import subprocess
import sys

from tests.integration.conftest import ROOT

CODE = """
import django
django.setup()
from campaign.celery import app
from campaign.services.outbox import _task
for name in ("battles.tasks.run_battle", "battles.tasks.estimate_odds",
             "campaign.tasks.notify", "campaign.tasks.drain_outbox",
             "battles.tasks.sweep_battles", "battles.tasks.odds_chunk"):
    assert _task(name).name == name, name
print("ok")
"""


def test_a_fresh_process_finds_every_outbox_task():
    done = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
