"""Issue 32: the deadlock that held a tactical phase for a whole lease.

Two recordings of one campaign run side by side (their neighbourhoods apart). Each first
writes its journal -- `xp_awarded` entries whose foreign keys take a KEY SHARE lock on
the campaign row and on their viewers' player rows until the transaction ends -- and
then credits the winner's discovery (`ledger.post`), which locked the player and its
campaign row FOR UPDATE (`select_related` without `of`). FOR UPDATE conflicts with KEY
SHARE: each recording waited for the other's KEY SHARE on the campaign row, and
PostgreSQL killed one with a deadlock (40P01, "while locking tuple ... in relation
campaign_campaign", as this test reported before the fix) -- its job came back only
after its lease. The ledger now locks FOR NO KEY UPDATE, which KEY SHARE does not block,
while two postings to one balance still queue. This runs that interleaving, step by
step, on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections, transaction

from campaign.models import Campaign, Event, Player
from campaign.services.journal import Entry, record_many
from economy.models import LedgerEntry
from economy.services import ledger
from economy.services.discoveries import discoveries_found
from territories.models import Exploration, Territory

pytestmark = pytest.mark.django_db(transaction=True)


def _two_recordings(name: str, pay) -> tuple[Campaign, Player, Player]:
    """Two recordings side by side: each writes its journal (KEY SHARE on both players),
    waits for the other to have done so, then pays its winner 10 credits with `pay`
    (winner). Fails on a deadlock or a recording still waiting."""
    users = [get_user_model().objects.create_user(username=n, password="x" * 12)
             for n in ("uma", "alice", "bob")]
    campaign = Campaign.objects.create(name=name, umpire=users[0],
                                       status=Campaign.Status.RUNNING, turn=1,
                                       phase="tactical")
    alice, bob = (Player.objects.create(campaign=campaign, user=u) for u in users[1:])
    journal_written = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def recording(winner: Player, loser: Player) -> None:
        try:
            with transaction.atomic():
                # The recording's journal: both sides see their units' XP.
                record_many(campaign=campaign, entries=[
                    Entry(kind="xp_awarded", data={}, visibility=Event.Visibility.PRIVATE,
                          viewers=(winner.pk,)),
                    Entry(kind="xp_awarded", data={}, visibility=Event.Visibility.PRIVATE,
                          viewers=(loser.pk,))])
                journal_written.wait()  # both hold KEY SHARE on both players now
                pay(campaign, Player(pk=winner.pk))
        except BaseException as exc:  # a deadlock (40P01) lands here
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=recording, args=pair)
               for pair in ((alice, bob), (bob, alice))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a recording is still waiting"
    assert errors == [], errors
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.credits, bob.credits) == (10, 10)
    return campaign, alice, bob


def test_two_recordings_crediting_their_winners_do_not_deadlock():
    campaign, _alice, _bob = _two_recordings(
        "Deadlock", lambda campaign, winner: ledger.post(player=winner, amount=10,
                                                         reason="discovery"))
    assert LedgerEntry.objects.filter(player__campaign=campaign,
                                      reason="discovery").count() == 2


def test_two_recordings_paying_their_winners_discoveries_do_not_deadlock():
    """The same interleaving through a discovery's credits (`discoveries_found`), which
    locked the paid players FOR UPDATE: phase_bench's 1-in-10 deadlock ("while locking
    tuple ... in relation campaign_player", issue 32)."""
    _two_recordings("Discoveries", lambda campaign, winner: discoveries_found(
        campaign, [(Territory(name="Found"), winner, Exploration(credits_awarded=10))]))


def test_two_postings_to_one_balance_still_queue():
    """The narrower lock still serialises a balance: two concurrent postings of 10
    leave 20, never 10."""
    users = [get_user_model().objects.create_user(username=n, password="x" * 12)
             for n in ("uma", "alice")]
    campaign = Campaign.objects.create(name="Queue", umpire=users[0],
                                       status=Campaign.Status.RUNNING, turn=1,
                                       phase="tactical")
    alice = Player.objects.create(campaign=campaign, user=users[1])
    locked = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                ledger.post(player=Player(pk=alice.pk), amount=10, reason="discovery")
                locked.wait()  # the second posting starts while this one holds the row
                threading.Event().wait(0.5)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    def second() -> None:
        try:
            locked.wait()
            with transaction.atomic():
                ledger.post(player=Player(pk=alice.pk), amount=10, reason="discovery")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == [], errors
    alice.refresh_from_db()
    assert alice.credits == 20
    assert sorted(LedgerEntry.objects.filter(player=alice)
                  .values_list("balance_after", flat=True)) == [10, 20]
