"""The Celery application (`celery -A campaign worker`, `celery -A campaign beat`)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

app = Celery("campaign")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
