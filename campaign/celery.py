"""The Celery application (`celery -A campaign worker`, `celery -A campaign beat`).

Database connections in a worker follow Django's request rules, not Celery's: Celery's
Django fix-up closes every connection before and after every task unless
`CELERY_DB_REUSE_MAX` is set, so each battle job paid a new PostgreSQL connection (a
backend started, authenticated and its caches warmed: about as much CPU as the job's own
queries; issue 32). The settings set `CELERY_DB_REUSE_MAX` (the fix-up then closes them
only every that many tasks) and the handlers below do around each task what Django does
around each request: `close_if_unusable_or_obsolete` closes a connection past its
`CONN_MAX_AGE` (0 still means one connection per task: the outage drill's workers), or
one an error left unusable, and re-arms the health check that the next task's first
query runs (`conn_health_checks`), so a database that went away costs a retry, not a
stale connection.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready
from django.db import connections

from campaign.startup import settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

app = Celery("campaign")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _recycle_connections(task: Any = None, **_kwargs: Any) -> None:
    """Django's request boundary around a worker's task (not an eager task: it runs
    inside its caller's request and transaction)."""
    request = getattr(task, "request", None)
    if request is not None and getattr(request, "is_eager", False):
        return
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


task_prerun.connect(_recycle_connections, weak=False)
task_postrun.connect(_recycle_connections, weak=False)


def _settle(**_kwargs: Any) -> None:
    """Once the worker has loaded the project (a solo worker when ready, each prefork
    child when it starts): see campaign/startup.py."""
    settle()


worker_ready.connect(_settle, weak=False)
worker_process_init.connect(_settle, weak=False)
