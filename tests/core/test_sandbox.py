"""Issue 18, sandboxes (API.md "Trust": `POST /api/campaigns/{id}/sandbox/`): a member
clones the campaign as it stood at a kept phase start, holding only what they could see,
and plays on alone as every seat, with new dice; the sandbox never notifies, cannot be
joined or made public, and the original is untouched (R-DICE-2, R-DICE-3)."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, Event, OutboxMessage, PhaseSeed, Player
from campaign.services import clock
from campaign.services.export import export_campaign
from economy.models import Building, LedgerEntry, Unit
from territories.models import Exploration, Territory

pytestmark = pytest.mark.django_db


def _played(league, client_for, alice, bob):
    """Both players buy something, then the phase moves on: the commercial start is kept."""
    for who, model in ((alice, "golem"), (bob, "arakne")):
        home = Territory.objects.get(campaign=league, owner__user=who)
        r = client_for(who).post(f"/api/campaigns/{league.pk}/purchases/",
                                 {"territory": home.pk,
                                  "item": {"kind": "vehicle", "model": model}}, format="json")
        assert r.status_code == 201, r.content
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity


def _doc(campaign_id):
    doc = export_campaign(Campaign.objects.get(pk=campaign_id), complete=True)
    doc.pop("exported_at")
    return doc


def test_a_player_clones_what_they_could_see_and_plays_every_seat(
        league, client_for, alice, bob):
    _played(league, client_for, alice, bob)
    before = _doc(league.pk)
    outbox_before = OutboxMessage.objects.count()
    api = client_for(alice)
    r = api.post(f"/api/campaigns/{league.pk}/sandbox/", {"turn": 1, "phase": "activity"},
                 format="json")
    assert r.status_code == 201, r.content
    copy = Campaign.objects.get(pk=r.json()["id"])
    assert copy.is_sandbox and copy.sandbox_of_id == league.pk and copy.umpire == alice
    assert copy.name.startswith("Sandbox: ")
    assert (copy.turn, copy.phase) == (1, "activity")
    # Only alice's own holdings came along; bob's are unknown (absent).
    units = Unit.objects.filter(player__campaign=copy)
    assert [u.model for u in units] == ["golem"]
    bob_seat = Player.objects.get(campaign=copy, user__username__startswith="bob (sandbox ")
    alice_seat = Player.objects.get(campaign=copy, user__username__startswith="alice (sandbox ")
    bob_land = Territory.objects.filter(campaign=copy, owner=bob_seat)
    assert bob_land.exists()
    assert not Building.objects.filter(territory__in=bob_land).exists()
    assert not Exploration.objects.filter(campaign=copy, territory__in=bob_land).exists()
    # bob's credits are what every player started with, his spending unknown
    assert bob_seat.credits == 1000 and LedgerEntry.objects.filter(player=bob_seat).count() == 1
    real_alice = Player.objects.get(campaign=league, user=alice)
    assert alice_seat.credits == real_alice.credits
    # private journal entries of bob's do not come along
    bobs_private = Event.objects.filter(campaign=league, visibility="private").exclude(
        viewers__user=alice).count()
    assert bobs_private > 0
    assert not Event.objects.filter(campaign=copy, visibility="private").exclude(
        viewers=alice_seat).exists()
    # new dice, and no way for anyone else in
    assert PhaseSeed.objects.filter(campaign=copy).values_list("secret", flat=True).first() \
        not in set(PhaseSeed.objects.filter(campaign=league).values_list("secret", flat=True))
    assert client_for(bob).get(f"/api/campaigns/{copy.pk}/").status_code == 404

    # alice plays bob's seat: she sees as bob, buys as bob
    shown = api.get(f"/api/campaigns/{copy.pk}/").json()
    assert shown["sandbox"] == {"of": league.pk, "seat": alice_seat.pk}
    took = api.post(f"/api/campaigns/{copy.pk}/sandbox/seat/", {"player": bob_seat.pk},
                    format="json")
    assert took.status_code == 200, took.content
    mine = [t for t in api.get(f"/api/campaigns/{copy.pk}/territories/").json() if t["mine"]]
    assert {t["id"] for t in mine} == set(bob_land.values_list("pk", flat=True))
    assert api.post(f"/api/campaigns/{copy.pk}/advance/",
                    {"turn": 1, "phase": "activity"}, format="json").status_code == 200
    # the sandbox told nobody, and the original did not change at all
    assert OutboxMessage.objects.count() == outbox_before
    assert _doc(league.pk) == before


def test_the_umpire_clones_everything_but_sealed_orders(league, client_for, uma, alice, bob):
    _played(league, client_for, alice, bob)
    r = client_for(uma).post(f"/api/campaigns/{league.pk}/sandbox/",
                             {"turn": 1, "phase": "activity"}, format="json")
    assert r.status_code == 201, r.content
    copy = r.json()["id"]
    assert sorted(Unit.objects.filter(player__campaign_id=copy)
                  .values_list("model", flat=True)) == ["arakne", "golem"]
    bob_seat = Player.objects.get(campaign_id=copy, user__username__startswith="bob (sandbox ")
    assert bob_seat.credits == Player.objects.get(campaign=league, user=bob).credits


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"turn": 1, "phase": "move"}, 409, "invalid_sandbox"),
    ({"turn": "one", "phase": "commercial"}, 400, "invalid_turn"),
    ({}, 400, "invalid_turn"),
])
def test_a_sandbox_from_a_phase_not_kept_is_refused_and_makes_nothing(
        league, client_for, alice, body, status, code):
    before = Campaign.objects.count()
    r = client_for(alice).post(f"/api/campaigns/{league.pk}/sandbox/", body, format="json")
    assert r.status_code == status and r.json()["code"] == code
    assert Campaign.objects.count() == before


def test_a_sandbox_stays_private(league, client_for, alice, charlie):
    r = client_for(alice).post(f"/api/campaigns/{league.pk}/sandbox/",
                               {"turn": 1, "phase": "commercial"}, format="json")
    copy = Campaign.objects.get(pk=r.json()["id"])
    api = client_for(alice)
    made_public = api.patch(f"/api/campaigns/{copy.pk}/settings/", {"public": True},
                            format="json")
    assert made_public.status_code == 409 and made_public.json()["code"] == "sandbox_private"
    joined = client_for(charlie).post(f"/api/campaigns/{copy.pk}/join/",
                                      {"invite": copy.invite_code}, format="json")
    assert joined.status_code in (404, 409)
    again = api.post(f"/api/campaigns/{copy.pk}/sandbox/", {"turn": 1, "phase": "commercial"},
                     format="json")
    assert again.status_code == 409
    outsider = client_for(charlie).post(f"/api/campaigns/{league.pk}/sandbox/",
                                        {"turn": 1, "phase": "commercial"}, format="json")
    assert outsider.status_code == 404
    seat = client_for(alice).post(f"/api/campaigns/{league.pk}/sandbox/seat/",
                                  {"player": 1}, format="json")
    assert seat.status_code == 409 and seat.json()["code"] == "not_sandbox"
