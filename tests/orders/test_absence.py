"""Absence and the stand-in (issue 27, item 4; API.md "Reach and absence (wave 3)").

Rulings: R-AWAY-1 (an allowance of days per seat), R-AWAY-2 (the stand-in after
`stand_in_after` missed deadlines in a row), R-AWAY-3 (a minimum record to join), R-AWAY-4
(what counts as a deadline met or missed)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from campaign.models import Campaign, Event, Phase, Player
from campaign.services import clock
from orders.models import Order

pytestmark = pytest.mark.django_db


def away_url(world) -> str:
    return f"/api/campaigns/{world.campaign.pk}/away/"


def later(**delta) -> str:
    return (timezone.now() + dt.timedelta(**delta)).isoformat()


def seat(world, name: str) -> Player:
    return Player.objects.get(campaign=world.campaign, user__username=name)


def test_a_player_declares_an_absence_and_the_stand_in_marks_the_seat_ready(
        world, client_for):
    r = client_for(world.users["alice"]).post(away_url(world), {"until": later(days=3)},
                                              format="json")
    assert r.status_code == 200, r.content
    assert r.json()["days_left"] == 14 and r.json()["away_until"]
    alice = seat(world, "alice")
    assert alice.ready and alice.away_until is not None
    entry = Event.objects.get(campaign=world.campaign, kind="away_started")
    assert entry.visibility == Event.Visibility.PUBLIC
    players = {p["username"]: p for p in client_for(world.users["bob"]).get(
        f"/api/campaigns/{world.campaign.pk}/").json()["players"]}
    assert players["alice"]["stand_in"] is True and players["alice"]["away_until"]
    assert players["bob"]["stand_in"] is False and players["bob"]["away_until"] is None
    assert players["bob"]["deadlines"] == {"met": 0, "missed": 0}


def test_an_absence_longer_than_the_allowance_is_refused_and_changes_nothing(
        world, client_for):
    events = Event.objects.count()
    r = client_for(world.users["alice"]).post(away_url(world), {"until": later(days=15)},
                                              format="json")
    assert r.status_code == 400 and r.json()["code"] == "away_allowance"
    assert "14 days of absence left" in r.json()["detail"]
    alice = seat(world, "alice")
    assert alice.away_until is None and not alice.ready and alice.away_days_used == 0
    assert Event.objects.count() == events


@pytest.mark.parametrize("until", ["yesterday", "", None])
def test_a_bad_until_is_a_clear_400(world, client_for, until):
    body = {"until": until} if until != "yesterday" else {"until": later(days=-1)}
    r = client_for(world.users["alice"]).post(away_url(world), body, format="json")
    assert r.status_code == 400 and r.json()["detail"]
    assert seat(world, "alice").away_until is None


def test_the_umpire_and_strangers_cannot_declare_an_absence(world, client_for):
    assert client_for(world.users["uma"]).post(
        away_url(world), {"until": later(days=1)}, format="json").status_code == 403
    assert client_for(world.users["charlie"]).post(
        away_url(world), {"until": later(days=1)}, format="json").status_code == 404


def test_ending_an_absence_counts_the_days_it_used(world, client_for):
    alice = client_for(world.users["alice"])
    alice.post(away_url(world), {"until": later(days=5)}, format="json")
    r = alice.delete(away_url(world))
    assert r.status_code == 200 and r.json()["stand_in"] is False
    assert r.json()["days_left"] == 13  # the day it started counts
    assert Event.objects.filter(campaign=world.campaign, kind="away_ended").exists()
    # What is left is what may be declared next.
    r = alice.post(away_url(world), {"until": later(days=14)}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "away_allowance"


def test_the_players_first_action_hands_the_seat_back(world, client_for):
    alice = client_for(world.users["alice"])
    alice.post(away_url(world), {"until": later(days=3)}, format="json")
    # reading changes nothing...
    assert alice.get(f"/api/campaigns/{world.campaign.pk}/me/").status_code == 200
    assert seat(world, "alice").away_until is not None
    # ...an order is an action: the seat is the player's again, and the order stands
    r = alice.post(f"/api/campaigns/{world.campaign.pk}/orders/",
                   {"unit": world.a1.pk, "destination": world.t["Gamma"].pk}, format="json")
    assert r.status_code == 201
    back = seat(world, "alice")
    assert back.away_until is None and not back.stand_in and not back.ready
    assert Order.objects.filter(player=back).count() == 1
    assert Event.objects.filter(campaign=world.campaign, kind="away_ended",
                                data__why="back").exists()


def _miss_deadline(world) -> None:
    """The phase's deadline passes; the clock moves on."""
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    Campaign.objects.filter(pk=campaign.pk).update(
        phase_deadline=timezone.now() - dt.timedelta(minutes=1))
    result = clock.advance(campaign_id=campaign.pk, by="deadline",
                           expected=(campaign.turn, campaign.phase))
    assert result.changed


def test_two_missed_deadlines_in_a_row_bring_the_stand_in(build_world, client_for):
    world = build_world(phase=Phase.COMMERCIAL)
    Player.objects.filter(pk=world.alice.pk).update(ready=True)
    _miss_deadline(world)  # bob misses the commercial deadline, alice met it
    bob, alice = seat(world, "bob"), seat(world, "alice")
    assert (bob.deadlines_missed, bob.missed_in_row, bob.stand_in) == (1, 1, False)
    assert (alice.deadlines_met, alice.deadlines_missed) == (1, 0)
    Player.objects.filter(pk=world.alice.pk).update(ready=True)
    _miss_deadline(world)  # and the activity one
    bob = seat(world, "bob")
    assert bob.stand_in and bob.deadlines_missed == 2
    assert Event.objects.filter(campaign=world.campaign, kind="stand_in_started").count() == 1
    # In the move phase that opened, the stand-in has marked bob ready already.
    assert bob.ready
    record = {p["username"]: p for p in client_for(world.users["alice"]).get(
        f"/api/campaigns/{world.campaign.pk}/").json()["players"]}["bob"]
    assert record["stand_in"] is True and record["deadlines"] == {"met": 0, "missed": 2}
    # alice marks ready: everyone is, the league moves on without waiting for bob
    client_for(world.users["alice"]).post(f"/api/campaigns/{world.campaign.pk}/ready/")
    assert Campaign.objects.get(pk=world.campaign.pk).phase == Phase.TACTICAL
    # bob's first action takes the seat back
    client_for(world.users["bob"]).post(f"/api/campaigns/{world.campaign.pk}/ready/")
    bob = seat(world, "bob")
    assert not bob.stand_in and bob.missed_in_row == 0
    assert Event.objects.filter(campaign=world.campaign, kind="stand_in_ended").exists()


def test_stand_in_after_zero_never_brings_the_stand_in(build_world):
    world = build_world(phase=Phase.COMMERCIAL, options={"stand_in_after": 0})
    for _ in range(3):
        _miss_deadline(world)
    assert not seat(world, "bob").stand_in and seat(world, "bob").deadlines_missed == 3


def test_a_phase_closed_before_its_deadline_counts_for_nobody(build_world):
    world = build_world(phase=Phase.COMMERCIAL)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        phase_deadline=timezone.now() + dt.timedelta(hours=3))
    clock.advance(campaign_id=world.campaign.pk, by="umpire")
    bob = seat(world, "bob")
    assert (bob.deadlines_met, bob.deadlines_missed) == (0, 0)


def test_an_absence_that_is_over_ends_when_the_next_phase_opens(world, client_for):
    client_for(world.users["alice"]).post(away_url(world), {"until": later(days=2)},
                                          format="json")
    Player.objects.filter(pk=world.alice.pk).update(
        away_from=timezone.now() - dt.timedelta(days=2, hours=1),
        away_until=timezone.now() - dt.timedelta(minutes=1))
    clock.advance(campaign_id=world.campaign.pk, by="umpire")
    alice = seat(world, "alice")
    assert alice.away_until is None and alice.away_days_used == 3 and not alice.ready


def test_a_league_may_ask_a_record_of_deadlines_to_join(make_campaign, uma, alice, bob,
                                                       client_for):
    other = make_campaign(uma)
    Player.objects.create(campaign=other, user=alice, deadlines_met=1, deadlines_missed=3)
    league = make_campaign(uma, options={"min_deadline_record": 50, "invite_only": False})
    r = client_for(alice).post(f"/api/campaigns/{league.pk}/join/", {}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "record_too_low"
    assert "met 1 of 4" in r.json()["detail"]
    assert not Player.objects.filter(campaign=league, user=alice).exists()
    # a newcomer without a record may join
    assert client_for(bob).post(f"/api/campaigns/{league.pk}/join/", {},
                                format="json").status_code == 201


# --- the umpire's grace period (issue 27: pause, extend or grant a grace, journaled) ---


def test_the_umpire_grants_everyone_a_grace_period_journaled(world, client):
    deadline = timezone.now() + dt.timedelta(hours=2)
    Campaign.objects.filter(pk=world.campaign.pk).update(phase_deadline=deadline)
    client.force_login(world.users["uma"])
    r = client.post(f"/campaigns/{world.campaign.pk}/umpire/grace/",
                    {"hours": "24", "reason": "a holiday weekend"}, follow=True)
    assert "Everyone has 24 more hours" in r.content.decode()
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert campaign.phase_deadline == deadline + dt.timedelta(hours=24)
    entry = Event.objects.get(campaign=campaign, kind="grace_granted")
    assert entry.visibility == Event.Visibility.PUBLIC
    assert entry.data["hours"] == 24 and entry.data["reason"] == "a holiday weekend"


@pytest.mark.parametrize("hours", ["0", "-3", "400", "x", ""])
def test_a_bad_grace_is_refused_and_changes_nothing(world, client, hours):
    deadline = timezone.now() + dt.timedelta(hours=2)
    Campaign.objects.filter(pk=world.campaign.pk).update(phase_deadline=deadline)
    client.force_login(world.users["uma"])
    r = client.post(f"/campaigns/{world.campaign.pk}/umpire/grace/", {"hours": hours},
                    follow=True)
    assert "A grace period is a whole number of hours" in r.content.decode()
    assert Campaign.objects.get(pk=world.campaign.pk).phase_deadline == deadline
    assert not Event.objects.filter(kind="grace_granted").exists()


def test_a_phase_without_a_deadline_has_no_grace_to_give(world):
    Campaign.objects.filter(pk=world.campaign.pk).update(phase_deadline=None)
    from campaign.errors import Conflict

    with pytest.raises(Conflict) as refused:
        clock.grant_grace(campaign=world.campaign, hours=5)
    assert refused.value.code == "no_deadline"


def test_players_cannot_grant_grace(world, client):
    client.force_login(world.users["alice"])
    r = client.post(f"/campaigns/{world.campaign.pk}/umpire/grace/", {"hours": "5"})
    assert r.status_code in (403, 404)
    assert not Event.objects.filter(kind="grace_granted").exists()
