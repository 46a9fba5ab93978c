"""Issue 18, verifiable dice (API.md "Trust"): each phase's seed is committed (SHA-256)
when the phase opens and revealed when it is over; every roll of a finished phase
(explorations, battles) is recomputed from it; an open phase's seed never leaves the
server."""

from __future__ import annotations

import hashlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.models import Battle
from campaign.models import Event, PhaseSeed
from campaign.services import clock
from territories.models import Exploration, Territory

pytestmark = pytest.mark.django_db(transaction=False)


def test_seeds_are_committed_then_revealed(league, client_for, alice, uma):
    url = f"/api/campaigns/{league.pk}/dice/"
    rows = client_for(alice).get(url).json()
    assert [(r["turn"], r["phase"]) for r in rows] == [(0, "setup"), (1, "commercial")]
    setup, commercial = rows
    assert setup["seed"] is not None  # the start is over: its seed is public
    assert hashlib.sha256(setup["seed"].encode()).hexdigest() == setup["commitment"]
    assert commercial["seed"] is None  # the commercial phase is still open
    secret = PhaseSeed.objects.get(campaign=league, phase="commercial").secret
    # The open phase's seed appears in no answer of any route a member or the umpire
    # reads, the journal included.
    for who in (alice, uma):
        api = client_for(who)
        for path in ("", "dice/", "events/", "territories/", "battles/", "me/",
                     "orders/", "messages/"):
            assert secret not in api.get(f"/api/campaigns/{league.pk}/{path}").content.decode()
    assert Event.objects.filter(campaign=league, kind="dice_committed").count() == 2
    clock.advance(campaign_id=league.pk, by="umpire")
    revealed = {(r["turn"], r["phase"]): r for r in client_for(alice).get(url).json()}
    assert revealed[(1, "commercial")]["seed"] == secret
    assert revealed[(1, "activity")]["seed"] is None


def test_the_starts_explorations_verify_and_a_tampered_roll_does_not(league, client_for,
                                                                     alice):
    url = f"/api/campaigns/{league.pk}/verify/?turn=0&phase=setup"
    report = client_for(alice).get(url).json()
    assert report == {"verified": True, "rolls": report["rolls"], "mismatches": []}
    assert report["rolls"] >= 6  # two starting territories, 3d8 each at least
    explored = Exploration.objects.filter(campaign=league).first()
    Exploration.objects.filter(pk=explored.pk).update(
        active_die=explored.active_die % 8 + 1)
    tampered = client_for(alice).get(url).json()
    assert tampered["verified"] is False
    assert tampered["mismatches"][0]["what"] == "exploration"
    with pytest.raises(CommandError):
        call_command("verify_dice", str(league.pk), "--turn", "0", "--phase", "setup")
    still_open = client_for(alice).get(
        f"/api/campaigns/{league.pk}/verify/?turn=1&phase=commercial")
    assert still_open.status_code == 409 and still_open.json()["code"] == "phase_not_over"


def test_a_played_tactical_phase_verifies_every_battle(league, client_for, alice,
                                                       django_capture_on_commit_callbacks):
    from economy.models import Operative, Unit, Weapon

    alice_home = Territory.objects.get(campaign=league, owner__user__username="alice")
    bob_home = Territory.objects.get(campaign=league, owner__user__username="bob")
    for owner, where in (("alice", bob_home), ("bob", bob_home)):
        player = league.players.get(user__username=owner)
        pilot = Operative.objects.create(player=player, territory=where, klass="soldier")
        unit = Unit.objects.create(player=player, territory=where, model="golem", pilot=pilot)
        Weapon.objects.create(player=player, weapon="machine_gun", unit=unit, slot=0)
    assert alice_home != bob_home
    clock.advance(campaign_id=league.pk, by="umpire")
    clock.advance(campaign_id=league.pk, by="umpire")
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=league.pk, by="umpire")  # -> tactical: the battle
    battle = Battle.objects.get(campaign=league)
    assert battle.status == "finished"
    clock.advance(campaign_id=league.pk, by="umpire")  # tactical over: seed revealed
    report = client_for(alice).get(
        f"/api/campaigns/{league.pk}/verify/?turn=1&phase=tactical").json()
    assert report["verified"] is True and report["rolls"] > 0
    Battle.objects.filter(pk=battle.pk).update(winner=None)
    assert client_for(alice).get(
        f"/api/campaigns/{league.pk}/verify/?turn=1&phase=tactical").json()["verified"] \
        is False


def test_the_dice_page_shows_verified_per_phase(league, alice):
    from django.test import Client

    page = Client()
    page.force_login(alice)
    html = page.get(f"/campaigns/{league.pk}/dice/?verify=all").content.decode()
    assert "verified" in html and "secret until the phase is over" in html
    secret = PhaseSeed.objects.get(campaign=league, phase="commercial").secret
    assert secret[:16] not in html  # the open phase's seed is not on the page
