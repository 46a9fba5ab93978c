"""Sign up, log in, log out, password change and the profile's time zone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from campaign.models import Profile

pytestmark = pytest.mark.django_db


def test_signup_creates_an_account_and_logs_in(client: Client) -> None:
    response = client.post("/accounts/signup/", {
        "username": "dora", "password1": "a-long-unusual-pass-93", "password2":
        "a-long-unusual-pass-93"})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="dora").exists()
    assert client.get("/").context["user"].username == "dora"


def test_signup_is_a_404_when_the_site_closes_it(client: Client, settings) -> None:
    settings.ALLOW_SIGNUP = False
    assert client.get("/accounts/signup/").status_code == 404
    assert client.post("/accounts/signup/", {"username": "x"}).status_code == 404
    assert b"Sign up" not in client.get("/accounts/login/").content


def test_login_and_logout(client: Client, alice) -> None:
    from tests.conftest import PASSWORD

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert b"Signed in as" in client.get("/").content
    assert client.post("/accounts/logout/").status_code == 302
    assert b"Signed in as" not in client.get("/").content


def test_password_change(web_client, alice) -> None:
    from tests.conftest import PASSWORD

    client = web_client(alice)
    assert client.get("/accounts/password_change/").status_code == 200
    response = client.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": "another-long-pass-71",
        "new_password2": "another-long-pass-71"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another-long-pass-71")


def test_profile_sets_the_time_zone_that_deadlines_are_shown_in(web_client, alice) -> None:
    client = web_client(alice)
    response = client.post("/accounts/profile/", {"time_zone": "Europe/Paris"})
    assert response.status_code == 302
    assert Profile.objects.get(user=alice).time_zone == "Europe/Paris"
    assert client.post("/accounts/profile/", {"time_zone": "Mars/Olympus"}).status_code == 200
    assert Profile.objects.get(user=alice).time_zone == "Europe/Paris"
