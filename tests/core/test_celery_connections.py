"""A worker keeps its database connection between tasks (issue 32): around each task it
does what Django does around a request (`close_if_unusable_or_obsolete`: CONN_MAX_AGE,
a connection an error left unusable, the health check re-armed) instead of Celery's
close-every-time; an eager task (inside its caller's request and transaction) is left
alone."""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

from django.conf import settings

from campaign import celery as celery_module


def _connection(in_atomic_block: bool = False) -> mock.Mock:
    return mock.Mock(in_atomic_block=in_atomic_block)


def test_a_workers_task_recycles_connections_as_a_request_does():
    free, busy = _connection(), _connection(in_atomic_block=True)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    with mock.patch.object(celery_module.connections, "all", return_value=[free, busy]):
        celery_module._recycle_connections(task=task)
    free.close_if_unusable_or_obsolete.assert_called_once_with()
    busy.close_if_unusable_or_obsolete.assert_not_called()


def test_an_eager_task_leaves_its_callers_connection_alone():
    conn = _connection()
    task = SimpleNamespace(request=SimpleNamespace(is_eager=True))
    with mock.patch.object(celery_module.connections, "all", return_value=[conn]):
        celery_module._recycle_connections(task=task)
    conn.close_if_unusable_or_obsolete.assert_not_called()


def test_celerys_fixup_no_longer_closes_connections_around_every_task():
    assert settings.CELERY_DB_REUSE_MAX >= 100
    assert celery_module.app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX
