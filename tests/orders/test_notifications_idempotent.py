"""A redelivered `campaign.tasks.notify` (late acknowledgement, a worker lost) sends each
email and webhook call once: one `Notification` row per (campaign, turn, phase, kind,
recipient)."""

from __future__ import annotations

from unittest import mock

import pytest

from campaign import tasks
from campaign.models import Notification, Profile

pytestmark = pytest.mark.django_db


@pytest.fixture
def emails(world):
    for name in ("alice", "bob"):
        user = world.users[name]
        user.email = f"{name}@example.org"
        user.save()
        # the address is confirmed (the link mailed to it was opened): issue 17
        Profile.objects.update_or_create(user=user, defaults={"email_verified": user.email})
    return world


def notify(world):
    c = world.campaign
    return tasks.notify(c.pk, "phase_opened", c.turn, c.phase, None)


def test_a_task_delivered_twice_sends_each_email_once(emails, mailoutbox):
    assert notify(emails) == 2
    assert notify(emails) == 0
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.org", "bob@example.org"]
    assert Notification.objects.count() == 2


def test_the_webhook_is_called_once(emails, mailoutbox):
    emails.campaign.options = {**emails.campaign.options,
                               "webhook_url": "https://93.184.216.34/hook"}
    emails.campaign.save()
    with mock.patch("campaign.services.notifications.post_webhook",
                    return_value=True) as hook:
        notify(emails)
        notify(emails)
    assert hook.call_count == 1


def test_a_failed_mail_may_be_sent_by_a_later_delivery(emails, mailoutbox):
    with mock.patch("campaign.services.mail.EmailMultiAlternatives.send", side_effect=OSError):
        assert notify(emails) == 0
    assert Notification.objects.count() == 0
    assert notify(emails) == 2


def test_another_phase_is_another_message(emails, mailoutbox):
    notify(emails)
    emails.campaign.phase = "activity"
    emails.campaign.save()
    notify(emails)
    assert len(mailoutbox) == 4
