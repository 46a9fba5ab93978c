"""Notifications: a phase opens, a deadline is near, results are in -- by email and by
an optional webhook; players may turn them off; never anything sealed."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.utils import timezone

from campaign.models import Phase, Profile
from campaign.services import clock, notifications
from orders.services import sealing as orders

pytestmark = pytest.mark.django_db


@pytest.fixture
def emails(world):
    for name in ("alice", "bob", "uma"):
        user = world.users[name]
        user.email = f"{name}@example.org"
        user.save()
        # the address is confirmed (the link mailed to it was opened): issue 17
        Profile.objects.update_or_create(user=user, defaults={"email_verified": user.email})
    return world


def advance(world, capture) -> None:
    with capture(execute=True):
        clock.advance(campaign_id=world.campaign.pk, by="umpire")


def test_players_are_told_when_a_phase_opens(emails, mailoutbox,
                                            django_capture_on_commit_callbacks):
    world = emails
    advance(world, django_capture_on_commit_callbacks)
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.org", "bob@example.org"]
    assert "tactical phase has begun" in mailoutbox[0].subject


def test_nothing_is_sent_before_the_advance_commits(emails, mailoutbox,
                                                    django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        clock.advance(campaign_id=emails.campaign.pk, by="umpire")
    assert mailoutbox == [] and len(callbacks) == 1


def test_players_can_turn_notifications_off(emails, mailoutbox, client_for,
                                            django_capture_on_commit_callbacks):
    world = emails
    Profile.objects.filter(user=world.users["alice"]).update(email_notifications=False)
    r = client_for(world.users["bob"]).patch(
        f"/api/campaigns/{world.campaign.pk}/notifications/", {"notifications": False},
        format="json")
    assert r.status_code == 200 and r.json() == {"notifications": False}
    advance(world, django_capture_on_commit_callbacks)
    assert mailoutbox == []


def test_notifications_never_carry_sealed_orders(emails, mailoutbox,
                                                 django_capture_on_commit_callbacks):
    world = emails
    orders.order_submit(player=world.alice, unit_id=world.a1.pk,
                        destination_id=world.t["Gamma"].pk)
    advance(world, django_capture_on_commit_callbacks)
    for mail in mailoutbox:
        text = mail.subject + mail.body
        assert "Gamma" not in text and "Golem" not in text and "order" not in text.lower()


def test_reminder_before_the_deadline_goes_once_to_players_not_ready(
        emails, mailoutbox, django_capture_on_commit_callbacks):
    world = emails
    now = timezone.now()
    clock.set_deadline(campaign=world.campaign, deadline=now + dt.timedelta(hours=8), now=now)
    world.alice.ready = True
    world.alice.save()
    with django_capture_on_commit_callbacks(execute=True):
        assert notifications.send_due_reminders(now=now) == 0  # 8 h > 6 h
        soon = now + dt.timedelta(hours=3)
        assert notifications.send_due_reminders(now=soon) == 1
        assert notifications.send_due_reminders(now=soon) == 0
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    assert "ends soon" in mailoutbox[0].subject


def test_deadline_shown_in_the_players_time_zone(emails, mailoutbox,
                                                 django_capture_on_commit_callbacks):
    world = emails
    Profile.objects.filter(user=world.users["bob"]).update(time_zone="Asia/Tokyo")
    Campaign = type(world.campaign)
    deadline = dt.datetime(2030, 1, 1, 12, 0, tzinfo=dt.UTC)
    Campaign.objects.filter(pk=world.campaign.pk).update(phase_deadline=deadline)
    world.campaign.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        notifications.phase_opened(campaign=world.campaign)
    bob_mail = next(m for m in mailoutbox if m.to == ["bob@example.org"])
    assert "2030-01-01 21:00 (Asia/Tokyo)" in bob_mail.body


def test_webhook_gets_a_json_post(build_world, mailoutbox, django_capture_on_commit_callbacks):
    """The clock's notification reaches the webhook sender with the phase news (the
    network path itself, with its address checks, is in tests/core/test_webhook_ssrf.py)."""
    world = build_world(options={"webhook_url": "https://93.184.216.34/hook"})
    with mock.patch("campaign.webhooks.post_json", return_value=204) as post_json:
        advance(world, django_capture_on_commit_callbacks)
    url, payload = post_json.call_args.args
    assert url == "https://93.184.216.34/hook"
    assert post_json.call_args.kwargs["timeout"] == notifications.WEBHOOK_TIMEOUT_SECONDS
    assert payload["kind"] == "phase_opened" and payload["phase"] == Phase.TACTICAL
    # Slack ("text") and Discord ("content") post the same sentence as they are
    assert payload["text"] == payload["content"] and "tactical phase" in payload["text"]


def test_a_failing_webhook_never_breaks_the_clock(build_world,
                                                  django_capture_on_commit_callbacks):
    world = build_world(options={"webhook_url": "https://93.184.216.34/hook"})
    with mock.patch("campaign.webhooks.post_json", side_effect=OSError("down")):
        advance(world, django_capture_on_commit_callbacks)
    world.campaign.refresh_from_db()
    assert world.campaign.phase == Phase.TACTICAL


def test_results_are_announced_when_the_tactical_phase_ends(
        emails, mailoutbox, django_capture_on_commit_callbacks):
    world = emails
    advance(world, django_capture_on_commit_callbacks)
    mailoutbox.clear()
    advance(world, django_capture_on_commit_callbacks)
    subjects = {m.subject for m in mailoutbox}
    assert any("results are in" in s for s in subjects)
