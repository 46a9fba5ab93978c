"""API.md "Reach and absence": `POST /api/users/me/calendar/rotate/` gives a new secret
`calendar_url`; the old address answers 404 from then on (issue 27)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _path(url: str) -> str:
    return url.removeprefix("http://testserver")


def test_rotating_the_calendar_retires_the_old_address(client_for, alice) -> None:
    me = client_for(alice)
    old = me.get("/api/users/me/").json()["calendar_url"]
    assert APIClient().get(_path(old)).status_code == 200
    answer = me.post("/api/users/me/calendar/rotate/")
    assert answer.status_code == 200
    new = answer.json()["calendar_url"]
    assert new != old and new.startswith("http://testserver/calendar/")
    assert me.get("/api/users/me/").json()["calendar_url"] == new
    assert APIClient().get(_path(old)).status_code == 404
    feed = APIClient().get(_path(new))
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")


def test_rotating_needs_a_signed_in_user(client_for, alice) -> None:
    before = client_for(alice).get("/api/users/me/").json()["calendar_url"]
    answer = APIClient().post("/api/users/me/calendar/rotate/")
    assert answer.status_code == 401 and set(answer.json()) >= {"code", "detail"}
    assert client_for(alice).get("/api/users/me/").json()["calendar_url"] == before


def test_one_users_rotation_leaves_anothers_address_alone(client_for, alice, bob) -> None:
    bobs = client_for(bob).get("/api/users/me/").json()["calendar_url"]
    client_for(alice).post("/api/users/me/calendar/rotate/")
    assert APIClient().get(_path(bobs)).status_code == 200
