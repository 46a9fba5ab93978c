"""Issue 26 and 27 on the pages: the invitation survives sign-up and login, the profile
shows the calendar address with a copy button and a button that renews it."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.models import Profile

pytestmark = pytest.mark.django_db


def test_the_profile_shows_the_calendar_address_with_a_copy_button(web_client, alice) -> None:
    page = web_client(alice).get("/accounts/profile/")
    token = Profile.objects.get(user=alice).calendar_token
    html = page.content.decode()
    assert token and f"http://testserver/calendar/{token}.ics" in html
    assert 'data-copy="#calendar-url"' in html and "Make a new address" in html


def test_the_profile_button_renews_the_calendar_address(web_client, alice) -> None:
    client = web_client(alice)
    client.get("/accounts/profile/")
    old = Profile.objects.get(user=alice).calendar_token
    answer = client.post("/accounts/profile/calendar/rotate/", follow=True)
    new = Profile.objects.get(user=alice).calendar_token
    assert answer.status_code == 200 and new != old
    assert f"/calendar/{new}.ics" in answer.content.decode()
    assert "the old one no longer works" in answer.content.decode()
    assert Client().get(f"/calendar/{old}.ics").status_code == 404
    assert Client().get(f"/calendar/{new}.ics").status_code == 200


def test_renewing_the_calendar_needs_a_post_and_a_sign_in(web_client, alice) -> None:
    client = web_client(alice)
    client.get("/accounts/profile/")
    token = Profile.objects.get(user=alice).calendar_token
    assert client.get("/accounts/profile/calendar/rotate/").status_code == 405
    assert Client().post("/accounts/profile/calendar/rotate/").status_code == 302
    assert Profile.objects.get(user=alice).calendar_token == token
