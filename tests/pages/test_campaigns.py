"""Campaign list, creation with a generated meta-map, joining by invitation, the
dashboard and the ready button."""

from __future__ import annotations

import datetime as dt

import pytest

from campaign.models import Campaign, Player, Profile

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_log_in(client, setup_campaign) -> None:
    response = client.get(f"/campaigns/{setup_campaign.pk}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_create_a_campaign_with_a_hex_map(web_client, alice) -> None:
    client = web_client(alice)
    assert client.get("/campaigns/new/").status_code == 200
    response = client.post("/campaigns/new/", {"name": "Rim war", "generator": "hex",
                                                "territories": 9, "seed": 3})
    campaign = Campaign.objects.get(name="Rim war")
    assert response.status_code == 302
    assert response["Location"] == f"/campaigns/{campaign.pk}/"
    assert campaign.umpire == alice
    assert campaign.territories.count() == 9
    assert b"Rim war" in client.get("/").content


def test_an_empty_seed_draws_a_random_one_and_says_it(web_client, alice) -> None:
    """Issue 17: an empty seed gave every campaign the same map."""
    client = web_client(alice)
    seeds = set()
    for name in ("First", "Second"):
        r = client.post("/campaigns/new/", {"name": name, "generator": "hex",
                                            "territories": 4}, follow=True)
        campaign = Campaign.objects.get(name=name)
        assert f"map seed {campaign.seed}" in r.content.decode()
        assert campaign.map_spec["seed"] == campaign.seed
        seeds.add(campaign.seed)
    assert len(seeds) == 2


def test_a_refused_map_is_shown_not_crashed(web_client, alice) -> None:
    response = web_client(alice).post("/campaigns/new/", {
        "name": "Tiny", "generator": "random", "territories": 1})
    assert response.status_code == 200
    assert not Campaign.objects.filter(name="Tiny").exists()


def test_join_by_invitation_while_in_setup(web_client, make_campaign, uma, charlie) -> None:
    campaign = make_campaign(uma)
    client = web_client(charlie)
    page = client.get(f"/campaigns/{campaign.pk}/join/?invite={campaign.invite_code}")
    assert page.status_code == 200 and campaign.name.encode() in page.content
    assert campaign.invite_code.encode() in page.content  # the form carries the code
    # The campaign's number alone admits nobody (issue 17): a 403 that seats no one.
    refused = client.post(f"/campaigns/{campaign.pk}/join/")
    assert not Player.objects.filter(campaign=campaign, user=charlie).exists()
    assert b"invitation" in refused.content
    response = client.post(f"/campaigns/{campaign.pk}/join/",
                           {"invite": campaign.invite_code})
    assert response.status_code == 302
    assert Player.objects.filter(campaign=campaign, user=charlie).exists()
    lookup = client.post("/campaigns/join/", {"campaign": campaign.pk})
    assert lookup["Location"] == f"/campaigns/{campaign.pk}/join/"


def test_a_running_campaign_does_not_exist_for_outsiders(web_client, running_campaign,
                                                         charlie) -> None:
    client = web_client(charlie)
    assert client.get(f"/campaigns/{running_campaign.pk}/join/").status_code == 404
    assert client.get(f"/campaigns/{running_campaign.pk}/").status_code == 404
    assert client.get("/campaigns/99999/join/").status_code == 404


def test_umpire_starts_the_campaign_from_the_dashboard(web_client, setup_campaign,
                                                       uma) -> None:
    client = web_client(uma)
    page = client.get(f"/campaigns/{setup_campaign.pk}/")
    assert b"Start the campaign" in page.content
    client.post(f"/campaigns/{setup_campaign.pk}/start/")
    setup_campaign.refresh_from_db()
    assert setup_campaign.status == "running" and setup_campaign.phase == "commercial"


def test_players_cannot_start_the_campaign(web_client, setup_campaign, alice) -> None:
    assert web_client(alice).post(f"/campaigns/{setup_campaign.pk}/start/").status_code == 404
    setup_campaign.refresh_from_db()
    assert setup_campaign.status == "setup"


def test_dashboard_shows_credits_and_deadline_in_the_users_zone(web_client, running_campaign,
                                                                alice) -> None:
    Profile.objects.update_or_create(user=alice, defaults={"time_zone": "Asia/Tokyo"})
    deadline = dt.datetime(2031, 5, 1, 12, 0, tzinfo=dt.UTC)
    Campaign.objects.filter(pk=running_campaign.pk).update(phase_deadline=deadline)
    page = web_client(alice).get(f"/campaigns/{running_campaign.pk}/")
    text = page.content.decode()
    assert "1000 SC" in text
    assert "21:00" in text  # 12:00 UTC is 21:00 in Tokyo
    assert deadline.isoformat() in text


def test_ready_button_marks_the_player_ready(web_client, running_campaign, alice) -> None:
    client = web_client(alice)
    client.post(f"/campaigns/{running_campaign.pk}/ready/",
                {"next": f"/campaigns/{running_campaign.pk}/"})
    assert Player.objects.get(campaign=running_campaign, user=alice).ready
    page = client.get(f"/campaigns/{running_campaign.pk}/", HTTP_HX_REQUEST="true")
    assert b"<html" not in page.content  # the htmx poll gets only the partial
    assert b"ready" in page.content


def test_ready_refuses_an_offsite_next(web_client, running_campaign, alice) -> None:
    response = web_client(alice).post(f"/campaigns/{running_campaign.pk}/ready/",
                                      {"next": "https://evil.example/"})
    assert response["Location"] == f"/campaigns/{running_campaign.pk}/"
