"""Mails people act on (issue 27, item 1): each names the campaign, the phase, the
deadline in the reader's time zone and what happened (who is still not ready, the
battle's winner and losses), links to the page to act on, comes as plain text and HTML,
and carries a `List-Unsubscribe` header whose address stops the mails."""

from __future__ import annotations

import datetime as dt

import pytest

from campaign.models import Campaign, Player, Profile
from campaign.services import clock, notifications

pytestmark = pytest.mark.django_db


@pytest.fixture
def emails(world):
    for name in ("alice", "bob", "uma"):
        user = world.users[name]
        user.email = f"{name}@example.org"
        user.save()
        Profile.objects.update_or_create(user=user, defaults={"email_verified": user.email})
    return world


def test_a_phase_mail_is_text_and_html_with_a_link_and_an_unsubscribe_header(
        emails, mailoutbox, django_capture_on_commit_callbacks, settings):
    settings.SITE_URL = "https://league.example"
    Profile.objects.filter(user=emails.users["alice"]).update(time_zone="Europe/Paris")
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=emails.campaign.pk, by="umpire")
    campaign = Campaign.objects.get(pk=emails.campaign.pk)
    Campaign.objects.filter(pk=campaign.pk).update(
        phase_deadline=dt.datetime(2026, 12, 1, 19, 0, tzinfo=dt.UTC))
    mailoutbox.clear()
    notifications.deliver(campaign_id=campaign.pk, kind="reminder", turn=campaign.turn,
                          phase=campaign.phase,
                          player_ids=[emails.alice.pk])
    (mail,) = mailoutbox
    assert campaign.name in mail.subject
    assert "2026-12-01 20:00 (Europe/Paris)" in mail.body  # the reader's own time
    assert f"https://league.example/campaigns/{campaign.pk}/" in mail.body
    html, kind = mail.alternatives[0]
    assert kind == "text/html" and f'href="https://league.example/campaigns/{campaign.pk}/' \
        in html
    stop = mail.extra_headers["List-Unsubscribe"].strip("<>")
    assert stop.startswith("https://league.example/accounts/unsubscribe/")
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert stop in mail.body


def test_a_reminder_says_who_is_still_not_ready(emails):
    Player.objects.filter(pk=emails.alice.pk).update(ready=True)
    _subject, body = notifications.message(emails.campaign, "reminder",
                                          emails.campaign.turn, emails.campaign.phase)
    assert "1 of 2 players are ready; still not ready: bob." in body


def test_a_nudge_when_nobody_is_ready_does_not_say_everyone_else_is_done(emails):
    _subject, body = notifications.message(emails.campaign, "nudge", emails.campaign.turn,
                                           emails.campaign.phase)
    assert "everyone else may be done" not in body.lower()
    assert "0 of 2 players are ready; still not ready: alice, bob." in body


def test_a_phase_without_a_deadline_says_so_in_words(emails):
    Campaign.objects.filter(pk=emails.campaign.pk).update(phase_deadline=None)
    campaign = Campaign.objects.get(pk=emails.campaign.pk)
    _subject, body = notifications.message(campaign, "phase_opened", campaign.turn,
                                           campaign.phase)
    assert "Deadline: none: the umpire moves the campaign on." in body
    assert "no deadline" not in body


def test_the_results_mail_names_the_winner_and_the_losses(emails):
    from campaign.services.journal import record_event

    t = emails.t["Delta"]
    record_event(campaign=emails.campaign, kind="battle_result", data={
        "battle": 1, "territory": t.pk, "name": "Delta", "winner": emails.alice.pk,
        "owner_changed": True,
        "units": [{"unit": 1, "player": emails.alice.pk, "fate": "survived"},
                  {"unit": 2, "player": emails.bob.pk, "fate": "destroyed"},
                  {"unit": 3, "player": emails.bob.pk, "fate": "destroyed"}]})
    _subject, body = notifications.message(emails.campaign, "results", emails.campaign.turn,
                                           emails.campaign.phase)
    assert "Battle of Delta: alice wins, and takes it. bob loses 2 units." in body


def test_the_unsubscribe_link_asks_then_stops_the_mails(emails, client):
    from campaign.services.mail import unsubscribe_url

    path = unsubscribe_url(emails.users["alice"]).split("testserver")[-1]
    path = path[path.index("/accounts/"):]
    page = client.get(path)
    assert page.status_code == 200 and "Stop the mails?" in page.content.decode()
    assert Profile.objects.get(user=emails.users["alice"]).email_notifications
    done = client.post(path)
    assert "No more mails" in done.content.decode()
    assert not Profile.objects.get(user=emails.users["alice"]).email_notifications
    assert Profile.objects.get(user=emails.users["bob"]).email_notifications


def test_a_mail_programs_one_click_unsubscribe_needs_no_page(emails, client):
    from campaign.services.mail import unsubscribe_url

    path = unsubscribe_url(emails.users["bob"])
    path = path[path.index("/accounts/"):]
    client.enforce_csrf_checks = True
    r = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200
    assert not Profile.objects.get(user=emails.users["bob"]).email_notifications


def test_a_forged_unsubscribe_token_is_a_404_and_changes_nothing(emails, client):
    from campaign.services.mail import unsubscribe_token

    token = unsubscribe_token(emails.users["alice"])
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    assert client.post(f"/accounts/unsubscribe/{forged}/").status_code == 404
    assert Profile.objects.get(user=emails.users["alice"]).email_notifications
