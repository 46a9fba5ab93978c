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


def _invite_path(campaign) -> str:
    from urllib.parse import urlencode

    return f"/campaigns/{campaign.pk}/join/?" + urlencode({"invite": campaign.invite_code})


def test_an_invited_stranger_signs_up_and_lands_on_the_join_page(setup_campaign) -> None:
    from urllib.parse import quote

    from django.contrib.auth import get_user_model

    stranger = Client()
    invite = _invite_path(setup_campaign)
    wall = stranger.get(invite)
    assert wall.status_code == 302 and wall["Location"].startswith("/accounts/login/")
    login_page = stranger.get(wall["Location"]).content.decode()
    assert "You were invited to a campaign" in login_page
    signup_link = f"/accounts/signup/?next={quote(invite, safe='')}"
    assert signup_link in login_page
    form = stranger.get(signup_link).content.decode()
    assert f'name="next" value="{invite.replace("&", "&amp;")}"' in form
    answer = stranger.post("/accounts/signup/", {
        "username": "dora", "password1": "a-long-unusual-pass-93",
        "password2": "a-long-unusual-pass-93", "next": invite})
    assert answer.status_code == 302 and answer["Location"] == invite
    join = stranger.get(invite)
    assert join.status_code == 200
    assert f'value="{setup_campaign.invite_code}"' in join.content.decode()
    assert get_user_model().objects.filter(username="dora").exists()


def test_an_invited_member_logs_in_and_lands_on_the_join_page(setup_campaign,
                                                              charlie) -> None:
    from tests.conftest import PASSWORD

    visitor = Client()
    invite = _invite_path(setup_campaign)
    answer = visitor.post("/accounts/login/", {"username": "charlie", "password": PASSWORD,
                                               "next": invite})
    assert answer.status_code == 302 and answer["Location"] == invite
    assert visitor.get(invite).status_code == 200


def test_sign_up_ignores_a_next_address_off_the_site(client: Client) -> None:
    answer = client.post("/accounts/signup/", {
        "username": "dora", "password1": "a-long-unusual-pass-93",
        "password2": "a-long-unusual-pass-93", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/profile/"
    assert "evil.example" not in Client().get(
        "/accounts/signup/?next=https://evil.example/").content.decode()


def test_the_headers_sign_up_link_carries_the_invitation_but_never_a_replay_step(
        setup_campaign) -> None:
    from urllib.parse import quote

    invite = _invite_path(setup_campaign)
    login_page = Client().get("/accounts/login/?next=" + quote(invite, safe="")).content
    assert login_page.decode().count(f"/accounts/signup/?next={quote(invite, safe='')}") == 2
    home = Client().get("/").content.decode()
    assert 'href="/accounts/signup/"' in home and "?next=" not in home
