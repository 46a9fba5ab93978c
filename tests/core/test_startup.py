"""A long-lived process settles once it has loaded the project (campaign/startup.py):
what survives a full collection is frozen, so a later full collection inside an advance
walks only what the advance made."""

from __future__ import annotations

import gc

from celery.signals import worker_process_init, worker_ready

from campaign import celery as celery_app
from campaign.startup import settle


def test_settle_freezes_what_the_process_has_loaded() -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        settle()
        assert gc.get_freeze_count() > 10_000  # Django and the apps, at least
        assert not gc.garbage
    finally:
        gc.unfreeze()


def test_the_web_and_celery_workers_settle_after_loading() -> None:
    source = (celery_app.__file__ or "").replace("celery.py", "wsgi.py")
    with open(source) as wsgi:
        assert "settle()" in wsgi.read().split("get_wsgi_application()", 1)[1]
    for signal in (worker_ready, worker_process_init):
        assert celery_app._settle in [receiver for _key, receiver in signal.receivers]
