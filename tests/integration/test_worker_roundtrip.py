"""A real Celery task goes through Redis to a worker process and changes PostgreSQL."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from campaign.models import Campaign, PhaseChange
from campaign.tasks import sweep_deadlines
from tests.integration.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_on_postgresql():
    assert connection.vendor == "postgresql"


def test_a_worker_advances_a_campaign_past_its_deadline(celery_process, uma):
    campaign = Campaign.objects.create(
        name="Deadline league", umpire=uma, status=Campaign.Status.RUNNING, turn=1,
        phase="commercial", phase_deadline=timezone.now() - dt.timedelta(seconds=5),
    )
    PhaseChange.objects.create(campaign=campaign, turn=1, phase="commercial", opened_by="start")
    celery_process("worker")

    sweep_deadlines.delay()

    def moved() -> bool:
        campaign.refresh_from_db()
        return campaign.phase == "activity"

    wait_for(moved, what="the worker to open the activity phase")
    assert PhaseChange.objects.filter(campaign=campaign, turn=1, phase="activity").count() == 1
