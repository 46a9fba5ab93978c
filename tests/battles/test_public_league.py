"""API.md "History, spectators, people": a campaign with the setting "public" is read by
anyone, signed in or not: the campaign, its map, its finished battles and their reports;
never orders, private journal entries, deposits or credits. A spectator learns nothing a
player of that campaign could not."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from battles.models import Battle
from campaign.models import Campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob"}, options={"deposits_public": True,
                                                                 "webhook_url": ""})
    finished = Battle.objects.create(campaign=w.campaign, turn=1, territory=w.t["Beta"],
                                     order=1, sides=[], input={}, seed=1, status="finished")
    queued = Battle.objects.create(campaign=w.campaign, turn=1, territory=w.t["Alpha"],
                                   order=2, sides=[], input={}, seed=2)
    return w, finished, queued


def _urls(w, finished, queued):
    c = f"/api/campaigns/{w.campaign.pk}/"
    return {"campaign": c, "territories": c + "territories/", "battles": c + "battles/",
            "battle": c + f"battles/{finished.pk}/", "unfinished": c + f"battles/{queued.pk}/",
            "orders": c + "orders/", "journal": c + "events/", "me": c + "me/"}


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user(username="dora", password="x" * 12)


def test_a_private_campaign_does_not_exist_for_outsiders(league, client_for, outsider):
    w, finished, queued = league
    urls = _urls(w, finished, queued)
    for who in (APIClient(), client_for(outsider)):
        for name in ("campaign", "territories", "battles", "battle"):
            assert who.get(urls[name]).status_code in (401, 403, 404), name


def test_a_public_league_is_read_by_anyone_and_never_shows_private_things(
        league, client_for, outsider, bob):
    w, finished, queued = league
    Campaign.objects.filter(pk=w.campaign.pk).update(
        options={**w.campaign.options, "public": True, "webhook_url": "https://x.example/h"})
    urls = _urls(w, finished, queued)
    player = client_for(bob)
    for who in (APIClient(), client_for(outsider)):
        campaign = who.get(urls["campaign"])
        assert campaign.status_code == 200
        assert "webhook_url" not in campaign.json()["settings"]
        assert all("credits" not in p for p in campaign.json()["players"])
        mine = {t["id"]: t for t in player.get(urls["territories"]).json()}
        seen = who.get(urls["territories"]).json()
        for t in seen:
            assert t["deposit"] is None and t["units"] == 0 and "buildings" not in t
            if not mine[t["id"]]["mine"]:  # what bob sees of a territory not his
                expected = {**mine[t["id"]], "deposit": None}
                assert t == expected
        assert [b["id"] for b in who.get(urls["battles"]).json()] == [finished.pk]
        assert who.get(urls["battle"]).status_code == 200
        assert who.get(urls["unfinished"]).status_code == 404
        for private in ("orders", "journal", "me"):
            assert who.get(urls[private]).status_code in (401, 403, 404), private
