"""`GET/PATCH /api/profile/`: the signed-in user's time zone and e-mail opt-out."""

from __future__ import annotations

import pytest

from campaign.models import Profile

pytestmark = pytest.mark.django_db


def test_get_returns_defaults_for_a_new_user(client_for, alice) -> None:
    response = client_for(alice).get("/api/profile/")
    assert response.status_code == 200
    assert response.json() == {"username": "alice", "time_zone": "UTC",
                               "email_notifications": True}


def test_patch_changes_only_what_is_given(client_for, alice) -> None:
    api = client_for(alice)
    response = api.patch("/api/profile/", {"time_zone": "Europe/Paris"}, format="json")
    assert response.status_code == 200
    assert response.json()["time_zone"] == "Europe/Paris"
    assert response.json()["email_notifications"] is True
    response = api.patch("/api/profile/", {"email_notifications": False}, format="json")
    assert response.json() == {"username": "alice", "time_zone": "Europe/Paris",
                               "email_notifications": False}
    profile = Profile.objects.get(user=alice)
    assert (profile.time_zone, profile.email_notifications) == ("Europe/Paris", False)


def test_an_unknown_time_zone_is_refused_and_changes_nothing(client_for, alice) -> None:
    api = client_for(alice)
    api.patch("/api/profile/", {"time_zone": "Asia/Tokyo"}, format="json")
    response = api.patch("/api/profile/", {"time_zone": "Mars/Olympus",
                                           "email_notifications": False}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] and body["detail"] and "time_zone" in body["fields"]
    profile = Profile.objects.get(user=alice)
    assert (profile.time_zone, profile.email_notifications) == ("Asia/Tokyo", True)


def test_each_user_sees_only_their_own_profile(client_for, alice, bob) -> None:
    client_for(alice).patch("/api/profile/", {"time_zone": "Europe/Rome"}, format="json")
    assert client_for(bob).get("/api/profile/").json()["time_zone"] == "UTC"


def test_anonymous_is_refused(anon_client) -> None:
    assert anon_client.get("/api/profile/").status_code in (401, 403)
    assert anon_client.patch("/api/profile/", {"time_zone": "UTC"},
                             format="json").status_code in (401, 403)


def test_the_service_refuses_unknown_zones_too(alice) -> None:
    from campaign.errors import InvalidInput
    from campaign.services.profiles import profile_update

    with pytest.raises(InvalidInput):
        profile_update(user=alice, time_zone="Nowhere/Land")
    assert profile_update(user=alice, time_zone="America/New_York").time_zone == \
        "America/New_York"
