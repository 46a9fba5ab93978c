"""API.md "History, spectators, people": sign-up takes an email; `GET /api/users/me/`
gives the username, email and a secret calendar address that answers `text/calendar`
with one event per deadline of the user's campaigns, without signing in."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from icalendar import Calendar
from rest_framework.test import APIClient

from campaign.models import Campaign, Player

pytestmark = pytest.mark.django_db


def test_sign_up_with_email_and_read_me(settings):
    settings.ALLOW_SIGNUP = True
    anon = APIClient()
    r = anon.post("/api/users/", {"username": "nia", "password": "a long pass phrase 9",
                                  "email": "nia@example.org"}, format="json")
    assert r.status_code == 201 and r.json()["username"] == "nia"
    bad = anon.post("/api/users/", {"username": "nib", "password": "a long pass phrase 9",
                                    "email": "not an email"}, format="json")
    assert bad.status_code == 400
    token = anon.post("/api/auth/token/", {"username": "nia",
                                           "password": "a long pass phrase 9"},
                      format="json").json()["token"]
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    data = me.get("/api/users/me/").json()
    assert data["username"] == "nia" and data["email"] == "nia@example.org"
    assert data["calendar_url"].startswith("http://testserver/calendar/")
    assert me.get("/api/users/me/").json()["calendar_url"] == data["calendar_url"]
    assert anon.get("/api/users/me/").status_code == 401


def test_the_calendar_lists_every_deadline_of_the_users_campaigns(client_for, alice, bob,
                                                                   uma):
    deadline = timezone.now() + dt.timedelta(days=2)
    mine = Campaign.objects.create(name="Rim war", umpire=uma, status="running", turn=3,
                                   phase="move", phase_deadline=deadline)
    Player.objects.create(campaign=mine, user=alice)
    Campaign.objects.create(name="Not hers", umpire=bob, status="running", turn=1,
                            phase="move", phase_deadline=deadline)
    url = client_for(alice).get("/api/users/me/").json()["calendar_url"]
    path = url.removeprefix("http://testserver")
    feed = APIClient().get(path)  # no sign-in: the address is the key
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    events = list(Calendar.from_ical(feed.content).walk("VEVENT"))
    assert [str(e["summary"]) for e in events] == ["Rim war: Move phase of turn 3 ends"]
    assert events[0].decoded("dtstart") == deadline.replace(microsecond=0) or \
        events[0].decoded("dtstart") == deadline
    assert APIClient().get("/calendar/not-a-token.ics").status_code == 404
