"""Issue 30, item 6: services that touch the same rows take their locks in the documented
order (ARCHITECTURE.md, "Locks": players by id, then territories, then the trade, then
goods), so two of them racing queue instead of deadlocking. PostgreSQL only (SQLite has no
row locks): a transaction holding what an acceptance holds first (both players) makes a
cancellation, a declining and a correction wait before they take anything of their own."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from economy.models import Trade
from economy.services import ledger, trades

pytestmark = [
    pytest.mark.skipif("connection.vendor != 'postgresql'",
                       reason="row locks exist on PostgreSQL only"),
    pytest.mark.django_db(transaction=True),
]
assert connection  # the skipif condition reads it


def _hold_players(ids: list[int], held: threading.Event, release: threading.Event) -> None:
    """Another connection: an acceptance in flight, holding both players."""
    try:
        with transaction.atomic():
            for pk in sorted(ids):
                ledger.lock_player(pk)
            held.set()
            release.wait(10)
    finally:
        connections.close_all()


def _race(world, action) -> Trade:
    trade = Trade.objects.create(campaign=world.campaign, turn=1, from_player=world.alice,
                                 to_player=world.bob, give={"credits": 1},
                                 receive={"credits": 1})
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_players,
                              args=([world.alice.pk, world.bob.pk], held, release))
    holder.start()
    assert held.wait(10)
    done: dict[str, object] = {}

    def run() -> None:
        try:
            done["trade"] = action(trade)
        except Exception as exc:
            done["error"] = exc
        finally:
            connections.close_all()

    racer = threading.Thread(target=run)
    racer.start()
    time.sleep(0.5)
    try:
        assert racer.is_alive()  # waiting for the players, as the acceptance would
        with transaction.atomic():  # and holding nothing the acceptance needs after them
            Trade.objects.select_for_update(nowait=True).get(pk=trade.pk)
    finally:
        release.set()
        holder.join(10)
        racer.join(10)
    assert "error" not in done, done.get("error")
    trade.refresh_from_db()
    return trade


def test_a_cancellation_racing_an_acceptance_waits_for_the_players_first(world):
    trade = _race(world, lambda t: trades.trade_cancel(player=world.alice, trade_id=t.pk))
    assert trade.status == Trade.Status.CANCELLED


def test_a_declining_racing_an_acceptance_waits_for_the_players_first(world):
    trade = _race(world, lambda t: trades.trade_decline(player=world.bob, trade_id=t.pk))
    assert trade.status == Trade.Status.DECLINED
