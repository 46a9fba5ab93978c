"""What a rollback keeps. Issue 30 item 5 (R-DICE-4): a seed once committed is never
discarded, so a phase entered again after a rollback rolls with the seed it committed the
first time (an umpire cannot roll back until the dice please them), and the journal and
the dice show it. Issue 26 item 2: administration — who plays which seat, the settings,
the clock — survives a rollback; the confirmation page lists, in sentences, what is
undone."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import Client

from battles.models import Battle
from campaign.models import Campaign, Event, PhaseSeed, Player
from campaign.services import clock
from campaign.services.rollback import rollback
from campaign.services.seats import seat_handover
from economy.models import Operative, Unit, Weapon
from territories.models import Territory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(league, charlie):
    """The core's started two-player league (tests/core/conftest.py), charlie also signed up."""
    return league


def _armed(league, owner, where):
    player = league.players.get(user__username=owner)
    pilot = Operative.objects.create(player=player, territory=where, klass="soldier")
    unit = Unit.objects.create(player=player, territory=where, model="golem", pilot=pilot)
    Weapon.objects.create(player=player, weapon="machine_gun", unit=unit, slot=0)
    return unit


def test_a_tactical_phase_entered_again_after_a_rollback_keeps_its_committed_seed(
        league, client_for, alice, uma, django_capture_on_commit_callbacks):
    bob_home = Territory.objects.get(campaign=league, owner__user__username="bob")
    _armed(league, "alice", bob_home)
    _armed(league, "bob", bob_home)
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity
    clock.advance(campaign_id=league.pk, by="umpire")  # -> move
    with django_capture_on_commit_callbacks(execute=False):
        clock.advance(campaign_id=league.pk, by="umpire")  # -> tactical: the battle opens
    first = PhaseSeed.objects.get(campaign=league, turn=1, phase="tactical")
    first_battle_seed = Battle.objects.get(campaign=league).seed

    rollback(campaign_id=league.pk, turn=1, phase="move", by="uma", reason="a mistake")
    assert not Battle.objects.filter(campaign=league).exists()
    # The tactical commitment survives the rollback, still secret, on /dice/ and in the
    # journal (its entry and the rollback's).
    rows = {(r["turn"], r["phase"]): r
            for r in client_for(alice).get(f"/api/campaigns/{league.pk}/dice/").json()}
    assert rows[(1, "tactical")] == {"turn": 1, "phase": "tactical",
                                     "commitment": first.commitment, "seed": None}
    assert Event.objects.filter(campaign=league, kind="dice_committed",
                                data__phase="tactical").count() == 1
    rolled = Event.objects.get(campaign=league, kind="campaign_rolled_back")
    assert rolled.data["seeds_kept"] == [{"turn": 1, "phase": "tactical",
                                          "commitment": first.commitment}]
    assert first.secret not in str(rolled.data)

    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=league.pk, by="umpire")  # -> tactical again
    again = PhaseSeed.objects.get(campaign=league, turn=1, phase="tactical")
    assert (again.secret, again.commitment) == (first.secret, first.commitment)
    battle = Battle.objects.get(campaign=league)
    assert battle.seed == first_battle_seed  # the same dice: no second throw
    kept = Event.objects.filter(campaign=league, kind="dice_committed",
                                data__phase="tactical").order_by("id").last()
    assert kept.data["kept"] is True and kept.data["commitment"] == first.commitment
    assert battle.status == "finished"
    clock.advance(campaign_id=league.pk, by="umpire")  # tactical over: the seed revealed
    report = client_for(alice).get(
        f"/api/campaigns/{league.pk}/verify/?turn=1&phase=tactical").json()
    assert report["verified"] is True and report["rolls"] > 0
    html = _page(alice).get(f"/campaigns/{league.pk}/dice/").content.decode()
    assert "kept through a rollback" in html
    journal = _page(alice).get(f"/campaigns/{league.pk}/history/").content.decode()
    assert ("uma rolls the campaign back to the start of turn 1, move phase (a mistake). "
            "The dice committed since keep their seeds: turn 1, tactical phase.") in journal
    assert "keep the seed committed before the rollback" in journal


def test_a_revealed_seed_stays_revealed_through_a_rollback(league, client_for, alice):
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity: commercial revealed
    commercial = PhaseSeed.objects.get(campaign=league, turn=1, phase="commercial")
    assert commercial.revealed_at is not None
    rollback(campaign_id=league.pk, turn=1, phase="commercial", by="uma")
    rows = {(r["turn"], r["phase"]): r
            for r in client_for(alice).get(f"/api/campaigns/{league.pk}/dice/").json()}
    assert rows[(1, "commercial")]["seed"] == commercial.secret
    assert rows[(1, "activity")]["seed"] is None
    assert Event.objects.filter(campaign=league, kind="dice_revealed",
                                data__phase="commercial").exists()


def test_a_rollback_keeps_a_seat_handed_over_since(league, alice, charlie):
    start = Player.objects.get(campaign=league, user=alice).credits
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity
    seat = Player.objects.get(campaign=league, user=alice)
    Player.objects.filter(pk=seat.pk).update(credits=start - 5)
    seat_handover(campaign=league, player_id=seat.pk, username="charlie")
    rollback(campaign_id=league.pk, turn=1, phase="commercial", by="uma", reason="oops")
    seat.refresh_from_db()
    assert seat.user_id == charlie.pk  # administration stays
    assert seat.credits == start  # game state goes back
    assert Event.objects.filter(campaign=league, kind="seat_handed_over",
                                data__to="charlie").exists()
    assert Campaign.objects.get(pk=league.pk).phase == "commercial"


def test_a_rollback_puts_the_credits_back_but_not_the_settings_nor_the_clock(league):
    start = Player.objects.get(campaign=league, user__username="bob").credits
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity
    bob = Player.objects.get(campaign=league, user__username="bob")
    Player.objects.filter(pk=bob.pk).update(credits=start + 40)
    from campaign.services.campaigns import campaign_update_settings

    campaign_update_settings(campaign=Campaign.objects.get(pk=league.pk),
                             changes={"advance_when_all_ready": False})
    clock.pause(campaign=Campaign.objects.get(pk=league.pk))
    rollback(campaign_id=league.pk, turn=1, phase="commercial", by="uma")
    campaign = Campaign.objects.get(pk=league.pk)
    assert Player.objects.get(pk=bob.pk).credits == start
    assert campaign.settings.advance_when_all_ready is False
    assert campaign.paused and campaign.phase_deadline is None
    assert Event.objects.filter(campaign=league, kind__in=("settings_changed",
                                                           "clock_paused")).count() == 2


def _items(html: str, list_id: str) -> list[str]:
    """The lines of one list of the page, as a person reads them."""
    import html as html_lib
    import re

    block = html.split(f'<ul id="{list_id}">', 1)[1].split("</ul>", 1)[0]
    return [html_lib.unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in block.split("<li>")[1:]]


def _page(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_confirmation_lists_in_sentences_what_will_be_undone_and_changes_nothing(
        league, uma, alice, client_for):
    home = Territory.objects.get(campaign=league, owner__user=alice)
    bought = client_for(alice).post(
        f"/api/campaigns/{league.pk}/purchases/",
        {"territory": home.pk, "item": {"kind": "vehicle", "model": "golem"}}, format="json")
    assert bought.status_code == 201, bought.content
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity
    seat = Player.objects.get(campaign=league, user=alice)
    seat_handover(campaign=league, player_id=seat.pk, username="charlie")
    url = f"/campaigns/{league.pk}/umpire/rollback/"
    html = _page(uma).get(url, {"point": "1:commercial"}).content.decode()
    # Names and sentences, no id: exactly these lines.
    undone = _items(html, "rollback-undone")
    assert undone[:3] == ["The credits of 1 player (charlie): back to what they held then.",
                          "Charlie's 1 new unit.", undone[2]]
    assert undone[2].endswith("journal entries written since then.")
    assert len(undone) == 3
    kept = _items(html, "rollback-kept")
    assert kept[0] == "Charlie keeps the seat alice held then."
    assert kept[2].startswith("The dice committed since (turn 1 activity)")
    assert Campaign.objects.get(pk=league.pk).phase == "activity"  # GET changes nothing
    # A point the rollback would refuse: a sentence, 400, nothing changed.
    bad = _page(uma).get(url, {"point": "7:move"})
    assert bad.status_code == 400 and "rolls back to the start" in bad.content.decode()
    bob = Player.objects.get(campaign=league, user__username="bob").user
    assert _page(bob).get(url, {"point": "1:commercial"}).status_code == 403
    assert Campaign.objects.get(pk=league.pk).phase == "activity"
    # Confirmed, it rolls back; the seat stays with charlie.
    r = _page(uma).post(url, {"point": "1:commercial", "reason": "wrong purchase",
                              "confirm": "1"}, follow=True)
    assert "Rolled back" in r.content.decode()
    assert Campaign.objects.get(pk=league.pk).phase == "commercial"
    assert Player.objects.get(pk=seat.pk).user.username == "charlie"


def _in_move_with_an_order(league, alice):
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity
    home = Territory.objects.get(campaign=league, owner__user=alice)
    _armed(league, "alice", home)
    clock.advance(campaign_id=league.pk, by="umpire")  # -> move
    from orders.services.sealing import order_submit
    from territories.models import Adjacency

    edge = Adjacency.objects.filter(campaign=league).filter(
        Q(a=home) | Q(b=home)).first()
    there = edge.b_id if edge.a_id == home.pk else edge.a_id
    unit = Unit.objects.get(player__user=alice)
    order_submit(player=Player.objects.get(campaign=league, user=alice), unit_id=unit.pk,
                 destination_id=there)


def test_the_confirmation_counts_sealed_orders_only_for_an_umpire_who_may_read_them(
        league, uma, alice):
    _in_move_with_an_order(league, alice)
    url = f"/campaigns/{league.pk}/umpire/rollback/"
    undone = _items(_page(uma).get(url, {"point": "1:move"}).content.decode(),
                    "rollback-undone")
    assert "Every order given in the move phase (sealed: not counted here)." in undone
    assert not any("alice" in line.lower() for line in undone)  # no count, no name
    from campaign.services.campaigns import campaign_update_settings

    campaign_update_settings(campaign=Campaign.objects.get(pk=league.pk),
                             changes={"umpire_sees_orders": True})
    undone = _items(_page(uma).get(url, {"point": "1:move"}).content.decode(),
                    "rollback-undone")
    assert "Alice's 1 order for this turn." in undone


def test_a_deadline_the_umpire_set_survives_a_rollback_to_the_start_of_its_phase(league):
    import datetime as dt

    from django.utils import timezone

    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity
    friday = (timezone.now() + dt.timedelta(days=3)).replace(microsecond=0)
    clock.set_deadline(campaign=Campaign.objects.get(pk=league.pk), deadline=friday)
    rollback(campaign_id=league.pk, turn=1, phase="activity", by="uma")
    campaign = Campaign.objects.get(pk=league.pk)
    assert (campaign.phase, campaign.phase_deadline) == ("activity", friday)
    assert Event.objects.filter(campaign=league, kind="deadline_set").exists()
    # Back to the previous phase, that phase gets its own full time again.
    rollback(campaign_id=league.pk, turn=1, phase="commercial", by="uma")
    campaign = Campaign.objects.get(pk=league.pk)
    assert campaign.phase == "commercial" and campaign.phase_deadline != friday
