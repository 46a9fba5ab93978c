"""Time zones (issue 27, item 3; API.md "Reach and absence (wave 3)"): each user has one,
taken from the browser at sign-up and editable; the calendar shows deadlines in it; an
umpire may keep every deadline at a local hour that stays right across daylight saving
changes (R-ORD-12)."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from campaign.models import Campaign, Profile
from campaign.services.clock import deadline_after

pytestmark = pytest.mark.django_db
UTC = dt.UTC


def test_sign_up_takes_the_browsers_time_zone(client, settings):
    settings.ALLOW_SIGNUP = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    r = client.post("/accounts/signup/", {"username": "zoe", "password1": "a-long-pass-9x",
                                          "password2": "a-long-pass-9x",
                                          "time_zone": "America/Sao_Paulo"}, follow=True)
    assert r.status_code == 200
    assert Profile.objects.get(user__username="zoe").time_zone == "America/Sao_Paulo"
    assert "Times are shown in America/Sao_Paulo" in r.content.decode()


def test_a_zone_the_site_does_not_know_falls_back_to_utc_at_sign_up(client, settings):
    settings.ALLOW_SIGNUP = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client.post("/accounts/signup/", {"username": "zed", "password1": "a-long-pass-9x",
                                      "password2": "a-long-pass-9x",
                                      "time_zone": "Mars/Olympus_Mons"})
    assert Profile.objects.get(user__username="zed").time_zone == "UTC"


def test_the_api_reads_and_changes_the_time_zone(client_for, alice):
    me = client_for(alice)
    assert me.get("/api/users/me/").json()["time_zone"] == "UTC"
    r = me.patch("/api/users/me/", {"time_zone": "Europe/Paris"}, format="json")
    assert r.status_code == 200 and r.json()["time_zone"] == "Europe/Paris"
    assert me.get("/api/users/me/").json()["time_zone"] == "Europe/Paris"


@pytest.mark.parametrize("body", [{"time_zone": "Europe/Atlantis"}, {"time_zone": ""},
                                  {"time_zone": "x" * 300},
                                  {"time_zone": "Europe/Paris", "email": "not an address"}])
def test_a_bad_change_is_a_400_that_changes_nothing(client_for, alice, body):
    me = client_for(alice)
    r = me.patch("/api/users/me/", body, format="json")
    assert r.status_code == 400 and r.json()["detail"]
    assert me.get("/api/users/me/").json()["time_zone"] == "UTC"
    alice.refresh_from_db()
    assert alice.email == ""


def test_the_email_changes_and_is_mailed_a_link(client_for, alice, mailoutbox):
    r = client_for(alice).patch("/api/users/me/", {"email": "alice@example.org"},
                                format="json")
    assert r.status_code == 200 and r.json()["email"] == "alice@example.org"
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["alice@example.org"]


# --- deadlines at a local hour ------------------------------------------------------


class _Campaign:
    def __init__(self, **options):
        from campaign.options import CampaignOptions

        self.settings = CampaignOptions(options)


PARIS_20 = {"deadline_time": "20:00", "deadline_time_zone": "Europe/Paris"}


def test_without_a_local_hour_the_deadline_is_the_phases_length():
    start = dt.datetime(2026, 10, 22, 12, 0, tzinfo=UTC)
    assert deadline_after(_Campaign(), start, dt.timedelta(hours=48)) == \
        start + dt.timedelta(hours=48)


def test_a_deadline_at_20_00_paris_is_18_00_utc_in_summer_time():
    start = dt.datetime(2026, 10, 22, 12, 0, tzinfo=UTC)  # CEST, UTC+2
    assert deadline_after(_Campaign(**PARIS_20), start, dt.timedelta(hours=24)) == \
        dt.datetime(2026, 10, 23, 18, 0, tzinfo=UTC)


def test_after_the_change_to_winter_time_it_is_19_00_utc():
    """Paris leaves summer time on 25 October 2026 at 03:00 local: a phase of 48 hours
    opened on the 23rd ends at 20:00 Paris on the 25th, which is now 19:00 UTC."""
    start = dt.datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
    assert deadline_after(_Campaign(**PARIS_20), start, dt.timedelta(hours=48)) == \
        dt.datetime(2026, 10, 25, 19, 0, tzinfo=UTC)


def test_when_the_hour_has_passed_that_day_the_deadline_is_the_next_day():
    start = dt.datetime(2027, 3, 27, 19, 30, tzinfo=UTC)  # 20:30 in Paris (CET)
    # 28 March 2027: Paris goes to summer time, 20:00 is 18:00 UTC
    assert deadline_after(_Campaign(**PARIS_20), start, dt.timedelta(minutes=1)) == \
        dt.datetime(2027, 3, 28, 18, 0, tzinfo=UTC)


def test_the_clock_opens_phases_with_deadlines_at_the_local_hour(make_campaign, uma):
    from zoneinfo import ZoneInfo

    from campaign.services import clock
    from tests.orders.conftest import set_phase

    campaign = make_campaign(uma, options={**PARIS_20, "activity_seconds": 3600})
    set_phase(campaign, "commercial")
    clock.advance(campaign_id=campaign.pk, by="umpire")
    campaign = Campaign.objects.get(pk=campaign.pk)
    local = campaign.phase_deadline.astimezone(ZoneInfo("Europe/Paris"))
    assert (local.hour, local.minute) == (20, 0)
    assert campaign.phase_deadline - campaign.phase_started_at >= dt.timedelta(hours=1)


@pytest.mark.parametrize("options", [{"deadline_time": "25:00"}, {"deadline_time": "8pm"},
                                     {"deadline_time_zone": "Europe/Atlantis"},
                                     {"deadline_time_zone": "../../etc/passwd"}])
def test_a_bad_local_hour_is_refused_with_a_sentence(options):
    from campaign.options import clean_options

    with pytest.raises(ValueError, match="deadline_time"):
        clean_options(options)


# --- the calendar ----------------------------------------------------------------------


def test_the_calendar_shows_deadlines_in_the_readers_zone(client_for, make_campaign, uma,
                                                          alice):
    from campaign.models import Player
    from tests.orders.conftest import set_phase

    campaign = make_campaign(uma)
    Player.objects.create(campaign=campaign, user=alice)
    set_phase(campaign, "move")
    Campaign.objects.filter(pk=campaign.pk).update(
        phase_deadline=dt.datetime(2026, 12, 1, 19, 0, tzinfo=UTC))
    me = client_for(alice)
    me.patch("/api/users/me/", {"time_zone": "Europe/Paris"}, format="json")
    url = me.get("/api/users/me/").json()["calendar_url"].removeprefix("http://testserver")
    feed = APIClient().get(url).content.decode()
    assert "DTSTART;TZID=Europe/Paris:20261201T200000" in feed
    assert "BEGIN:VTIMEZONE" in feed and "TZID:Europe/Paris" in feed
    assert "(Europe/Paris)" in feed and f"/campaigns/{campaign.pk}/" in feed
