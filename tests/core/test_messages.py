"""API.md "History, spectators, people": `POST /api/campaigns/{id}/messages/` from
players, to one player or to everyone; `GET` lists only what the caller may read."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, Message, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(uma, alice, bob, charlie):
    campaign = Campaign.objects.create(name="Chat", umpire=uma, status="running", turn=1,
                                       phase="commercial")
    seats = {u.username: Player.objects.create(campaign=campaign, user=u)
             for u in (alice, bob, charlie)}
    return campaign, seats


def test_private_messages_reach_only_their_reader(league, client_for, alice, bob, charlie,
                                                  uma):
    campaign, seats = league
    url = f"/api/campaigns/{campaign.pk}/messages/"
    a = client_for(alice)
    r = a.post(url, {"to": seats["bob"].pk, "text": "Alliance against charlie?"},
               format="json")
    assert r.status_code == 201 and r.json()["to_username"] == "bob"
    assert a.post(url, {"to": None, "text": "Good luck all"}, format="json").status_code == 201
    texts = {who.username: [m["text"] for m in client_for(who).get(url).json()]
             for who in (alice, bob, charlie, uma)}
    assert texts["alice"] == texts["bob"] == ["Alliance against charlie?", "Good luck all"]
    assert texts["charlie"] == ["Good luck all"]
    assert texts["uma"] == ["Alliance against charlie?", "Good luck all"]  # R-ORD-10


@pytest.mark.parametrize(("body", "code"), [
    ({"to": None, "text": "   "}, "invalid_text"),
    ({"to": None, "text": "x" * 2001}, "invalid"),
    ({"to": 999999, "text": "hi"}, "invalid_recipient"),
    ({"to": "bob", "text": "hi"}, "invalid"),
])
def test_bad_messages_are_refused_and_store_nothing(league, client_for, alice, body, code):
    campaign, _ = league
    r = client_for(alice).post(f"/api/campaigns/{campaign.pk}/messages/", body,
                               format="json")
    assert r.status_code == 400 and r.json()["code"].startswith(code)
    assert Message.objects.count() == 0


def test_the_umpire_who_does_not_play_cannot_post(league, client_for, uma):
    campaign, _ = league
    r = client_for(uma).post(f"/api/campaigns/{campaign.pk}/messages/",
                             {"to": None, "text": "hi"}, format="json")
    assert r.status_code == 403 and Message.objects.count() == 0


def test_joining_takes_the_invite_code_and_only_the_umpire_reads_it(client_for, uma, alice,
                                                                    bob, make_campaign):
    """API.md: the umpire reads "invite_code"; with "invite_only" (the default) POST join
    needs {"invite": code}, 403 otherwise; the setting off, anyone may take a seat."""
    campaign = make_campaign(uma)
    url = f"/api/campaigns/{campaign.pk}/"
    code = client_for(uma).get(url).json()["invite_code"]
    assert code == campaign.invite_code and len(code) >= 16
    for bad in ({}, {"invite": "guess"}, {"invite": 12}):
        r = client_for(alice).post(url + "join/", bad, format="json")
        assert r.status_code == 403 and r.json()["code"] == "invite_required"
    assert not Player.objects.filter(campaign=campaign).exists()
    assert client_for(alice).post(url + "join/", {"invite": code},
                                  format="json").status_code == 201
    assert "invite_code" not in client_for(alice).get(url).json()
    Campaign.objects.filter(pk=campaign.pk).update(options={"invite_only": False})
    assert client_for(bob).post(url + "join/").status_code == 201
