"""The turn clock: umpire advance, deadlines, pause/resume, the sweep, ready."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from campaign.models import Campaign, Phase, PhaseChange
from campaign.services import clock

pytestmark = pytest.mark.django_db


def base(world) -> str:
    return f"/api/campaigns/{world.campaign.pk}/"


def test_deadline_set_extend_clear_by_umpire_only(world, client_for):
    umpire, alice = client_for(world.users["uma"]), client_for(world.users["alice"])
    when = (timezone.now() + dt.timedelta(hours=5)).replace(microsecond=0)
    iso = when.astimezone(dt.timezone(dt.timedelta(hours=2))).isoformat()
    r = alice.post(base(world) + "deadline/", {"deadline": iso}, format="json")
    assert r.status_code == 403
    r = umpire.post(base(world) + "deadline/", {"deadline": iso}, format="json")
    assert r.status_code == 200, r.json()
    world.campaign.refresh_from_db()
    assert world.campaign.phase_deadline == when
    # ISO 8601 with a time zone on the way out.
    out = dt.datetime.fromisoformat(r.json()["phase_deadline"].replace("Z", "+00:00"))
    assert out.tzinfo is not None and out == when
    r = umpire.post(base(world) + "deadline/", {"deadline": None}, format="json")
    assert r.status_code == 200 and r.json()["phase_deadline"] is None


def test_deadline_in_the_past_or_naive_is_400(world, client_for):
    umpire = client_for(world.users["uma"])
    past = (timezone.now() - dt.timedelta(minutes=1)).isoformat()
    r = umpire.post(base(world) + "deadline/", {"deadline": past}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "deadline_past"
    r = umpire.post(base(world) + "deadline/", {"deadline": "tomorrow"}, format="json")
    assert r.status_code == 400


def test_pause_keeps_the_remaining_time_and_resume_restores_it(world, client_for):
    umpire = client_for(world.users["uma"])
    now = timezone.now()
    clock.set_deadline(campaign=world.campaign, deadline=now + dt.timedelta(hours=3), now=now)
    r = umpire.post(base(world) + "pause/")
    assert r.status_code == 200 and r.json()["paused"] is True
    assert r.json()["phase_deadline"] is None
    assert 3 * 3600 - 60 < r.json()["remaining_seconds"] <= 3 * 3600
    # A paused campaign does not advance on the sweep, even long after.
    assert clock.sweep_deadlines(now=now + dt.timedelta(days=3)) == 0
    later = now + dt.timedelta(days=2)
    campaign = clock.resume(campaign=world.campaign, now=later)
    assert not campaign.paused
    assert (later + dt.timedelta(hours=3) - campaign.phase_deadline) < dt.timedelta(minutes=1)
    assert umpire.post(base(world) + "resume/").status_code == 200  # idempotent


def test_deadline_while_paused_sets_the_time_left(world):
    now = timezone.now()
    clock.pause(campaign=world.campaign, now=now)
    campaign = clock.set_deadline(campaign=world.campaign,
                                  deadline=now + dt.timedelta(hours=1), now=now)
    assert campaign.paused and campaign.phase_deadline is None
    assert campaign.paused_remaining == dt.timedelta(hours=1)


def test_sweep_advances_a_campaign_past_its_deadline_once(world):
    now = timezone.now()
    clock.set_deadline(campaign=world.campaign, deadline=now + dt.timedelta(minutes=1), now=now)
    assert clock.sweep_deadlines(now=now) == 0
    later = now + dt.timedelta(minutes=2)
    assert clock.sweep_deadlines(now=later) == 1
    world.campaign.refresh_from_db()
    assert world.campaign.phase == Phase.TACTICAL
    # tactical has no default deadline: a second sweep changes nothing
    assert clock.sweep_deadlines(now=later) == 0
    assert PhaseChange.objects.filter(campaign=world.campaign, phase=Phase.TACTICAL).count() == 1


def test_phase_opening_sets_the_default_deadline_from_settings(build_world):
    world = build_world(options={"move_seconds": 3600}, phase=Phase.ACTIVITY)
    before = timezone.now()
    clock.advance(campaign_id=world.campaign.pk, by="umpire")
    world.campaign.refresh_from_db()
    assert world.campaign.phase == Phase.MOVE
    delta = world.campaign.phase_deadline - before
    assert dt.timedelta(minutes=59) < delta <= dt.timedelta(hours=1, seconds=5)


def test_repeated_advance_from_the_same_phase_changes_once(world, client_for):
    """API.md: advance takes the phase being left; "a stale or repeated request changes
    nothing" and answers 409 when the campaign is no longer at that phase."""
    umpire = client_for(world.users["uma"])
    body = {"turn": 1, "phase": "move"}
    first = umpire.post(base(world) + "advance/", body, format="json")
    second = umpire.post(base(world) + "advance/", body, format="json")
    assert first.status_code == 200 and first.json()["changed"] is True
    assert first["ETag"] == '"1-tactical"'
    assert second.status_code == 409 and second.json()["code"] == "phase_moved_on"
    assert "turn 1, tactical" in second.json()["detail"]
    assert PhaseChange.objects.filter(campaign=world.campaign, turn=1,
                                      phase="tactical").count() == 1


def test_an_advance_that_names_no_phase_is_refused_with_428(world, client_for):
    """API.md: advance without {"turn", "phase"} answers 428 (issue 19.2: 200 bodiless
    requests advanced 101 phases); nothing changes."""
    umpire = client_for(world.users["uma"])
    changes = PhaseChange.objects.count()
    for body in (None, {}):
        response = umpire.post(base(world) + "advance/", body, format="json")
        assert response.status_code == 428
        assert response.json()["code"] == "precondition_required"
    half = umpire.post(base(world) + "advance/", {"turn": 1}, format="json")
    assert half.status_code == 400
    world.campaign.refresh_from_db()
    assert (world.campaign.turn, world.campaign.phase) == (1, "move")
    assert PhaseChange.objects.count() == changes


def test_advance_accepts_the_campaigns_etag_as_if_match(world, client_for):
    """The ETag of GET /api/campaigns/{id}/ names the clock position; If-Match with it is
    the same precondition as the body; a stale one is refused with 409."""
    umpire = client_for(world.users["uma"])
    etag = umpire.get(base(world))["ETag"]
    assert etag == '"1-move"'
    first = umpire.post(base(world) + "advance/", HTTP_IF_MATCH=etag)
    again = umpire.post(base(world) + "advance/", HTTP_IF_MATCH=etag)
    assert first.status_code == 200 and again.status_code == 409
    assert umpire.post(base(world) + "advance/", HTTP_IF_MATCH="junk").status_code == 400
    assert PhaseChange.objects.filter(campaign=world.campaign, turn=1,
                                      phase="tactical").count() == 1


def test_a_deadline_advance_racing_an_umpire_advance_changes_once(world):
    now = timezone.now()
    Campaign.objects.filter(pk=world.campaign.pk).update(phase_deadline=now)
    clock.advance(campaign_id=world.campaign.pk, by="umpire", expected=(1, "move"))
    result = clock.advance(campaign_id=world.campaign.pk, by="deadline",
                           expected=(1, "move"), now=now + dt.timedelta(seconds=1))
    assert result.changed is False
    assert PhaseChange.objects.filter(campaign=world.campaign).count() == 2  # move, tactical


def test_all_ready_advances_early_and_others_see_only_who_is_ready(world, client_for):
    alice, bob = client_for(world.users["alice"]), client_for(world.users["bob"])
    r = alice.post(base(world) + "ready/")
    assert r.status_code == 200 and r.json()["ready"] is True
    players = {p["id"]: p["ready"] for p in bob.get(base(world)).json()["players"]}
    assert players == {world.alice.pk: True, world.bob.pk: False}
    world.campaign.refresh_from_db()
    assert world.campaign.phase == Phase.MOVE
    bob.post(base(world) + "ready/")
    world.campaign.refresh_from_db()
    assert world.campaign.phase == Phase.TACTICAL
    assert PhaseChange.objects.get(campaign=world.campaign, phase="tactical").opened_by \
        == "all_ready"


def test_all_ready_does_not_advance_when_the_setting_is_off(build_world, client_for):
    world = build_world(options={"advance_when_all_ready": False})
    for name in ("alice", "bob"):
        client_for(world.users[name]).post(base(world) + "ready/")
    world.campaign.refresh_from_db()
    assert world.campaign.phase == Phase.MOVE


def test_clock_endpoints_are_404_for_non_members(world, client_for, anon_client):
    charlie = client_for(world.users["charlie"])
    for path in ("deadline/", "pause/", "resume/"):
        assert charlie.post(base(world) + path, {}, format="json").status_code == 404
        assert anon_client.post(base(world) + path, {}, format="json").status_code in (401, 404)


def test_clock_actions_are_journaled(world):
    now = timezone.now()
    clock.set_deadline(campaign=world.campaign, deadline=now + dt.timedelta(hours=1), now=now)
    clock.pause(campaign=world.campaign, now=now)
    clock.resume(campaign=world.campaign, now=now)
    kinds = list(world.campaign.events.values_list("kind", flat=True))
    assert kinds[-3:] == ["deadline_set", "clock_paused", "clock_resumed"]
