"""Concurrency of the economy against PostgreSQL (issue 4, "Done when"): parallel
purchases cannot overspend, and two trades racing over the same goods settle once.

Each thread uses its own database connection (Django opens one per thread) and calls
the same services the API views call (one call = one request's work); a barrier
releases them together. Results are HTTP-like (status, code) pairs from the domain
errors' status codes.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Sum

from campaign.errors import GameError
from campaign.models import Campaign, Player
from campaign.rules.tables import BUILDINGS
from economy.models import Building, LedgerEntry, Operative, Stock, Trade
from economy.services import ledger
from economy.services.commerce import purchase
from economy.services.trades import trade_accept, trade_create
from territories.models import Territory

pytestmark = pytest.mark.django_db(transaction=True)


def _setup(uma, users, credits: int) -> tuple[Campaign, list[Player], list[Territory]]:
    campaign = Campaign.objects.create(name="Race", umpire=uma, status="running", turn=1,
                                       phase="commercial", seed=5)
    players, territories = [], []
    for i, user in enumerate(users):
        p = Player.objects.create(campaign=campaign, user=user)
        with transaction.atomic():
            ledger.post(player=p, amount=credits, reason="starting_credits")
        t = Territory.objects.create(campaign=campaign, name=f"T{i}", owner=p)
        for n, kind in enumerate(["station", "radar", "landing_pad", "warehouse",
                                  "warehouse"]):
            Building.objects.create(territory=t, kind=kind, x=n, y=0,
                                    hit_points=BUILDINGS[kind].hit_points)
        players.append(p)
        territories.append(t)
    return campaign, players, territories


def _race(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def _call(service: Callable[..., Any], player_id: int, **kwargs: Any) -> tuple[int, str]:
    """One request's work: load the caller, call the service, answer (status, code)."""
    player = Player.objects.select_related("campaign", "user").get(pk=player_id)
    try:
        service(player=player, **kwargs)
    except GameError as exc:
        return exc.status_code, exc.code
    return 200, ""


def _ledger_adds_up(player: Player) -> None:
    player.refresh_from_db()
    assert player.credits >= 0
    assert player.credits == ledger.balance_from_ledger(player)
    last = LedgerEntry.objects.filter(player=player).last()
    assert last.balance_after == player.credits
    running = 0
    for entry in LedgerEntry.objects.filter(player=player).order_by("id"):
        running += entry.amount
        assert entry.balance_after == running >= 0


def test_fifty_parallel_purchases_cannot_overspend(uma, alice):
    """50 soldiers at 5 SC each (250 SC) against a balance of 123 SC: 24 are hired, the
    rest refused with insufficient_credits; the balance and the ledger add up."""
    campaign, (player,), (home,) = _setup(uma, [alice], 123)
    item = {"kind": "operative", "class": "soldier"}
    results = _race([lambda: _call(purchase, player.pk, territory_id=home.pk, item=item)
                     for _ in range(50)])
    assert Counter(results) == {(200, ""): 24, (400, "insufficient_credits"): 26}, results
    assert Operative.objects.filter(player=player).count() == 24
    _ledger_adds_up(player)
    player.refresh_from_db()
    assert player.credits == 3
    assert campaign.pk


def test_two_trades_racing_over_the_same_goods_settle_once(uma, alice, bob, charlie):
    """Alice offers the same 10 minerals to Bob and to Charlie; both accept at once:
    exactly one trade settles, the other fails cleanly with goods_unavailable."""
    campaign, players, homes = _setup(uma, [alice, bob, charlie], 100)
    pa, pb, pc = players
    Stock.objects.create(territory=homes[0], resource="minerals", units=10)
    alice_player = Player.objects.select_related("campaign", "user").get(pk=pa.pk)
    ids = []
    for to, home in ((pb, homes[1]), (pc, homes[2])):
        trade = trade_create(player=alice_player, to_player=to.pk,
                             give={"resources": [{"territory": homes[0].pk,
                                                  "resource": "minerals", "units": 10}],
                                   "deliver_to": home.pk},
                             receive={"credits": 30})
        ids.append(trade.pk)
    results = _race([lambda: _call(trade_accept, pb.pk, trade_id=ids[0]),
                     lambda: _call(trade_accept, pc.pk, trade_id=ids[1])])
    assert sorted(results) == [(200, ""), (409, "goods_unavailable")], results
    assert Stock.objects.aggregate(s=Sum("units"))["s"] == 10
    assert Trade.objects.filter(status="accepted").count() == 1
    assert Trade.objects.filter(status="open").count() == 1
    for p in players:
        _ledger_adds_up(p)
    total = Player.objects.filter(campaign=campaign).aggregate(s=Sum("credits"))["s"]
    assert total == 300
    pa.refresh_from_db()
    assert pa.credits == 130


def test_one_trade_accepted_eight_times_at_once_settles_once(uma, alice, bob):
    campaign, (pa, pb), _homes = _setup(uma, [alice, bob], 100)
    alice_player = Player.objects.select_related("campaign", "user").get(pk=pa.pk)
    trade = trade_create(player=alice_player, to_player=pb.pk, give={"credits": 60},
                         receive={})
    results = _race([lambda: _call(trade_accept, pb.pk, trade_id=trade.pk)
                     for _ in range(8)])
    assert Counter(results) == {(200, ""): 1, (409, "trade_not_open"): 7}, results
    for p in (pa, pb):
        _ledger_adds_up(p)
    pa.refresh_from_db()
    assert pa.credits == 40
    assert campaign.pk


def test_fifty_parallel_purchase_requests_over_http_cannot_overspend(uma, alice, client_for):
    """The same race through the real API: 50 POST /purchases/ requests, each with its
    own client, token and connection, against 123 SC: 24 answer 201, 26 answer 400
    insufficient_credits, and the ledger adds up."""
    from django.urls import resolve

    campaign, (player,), (home,) = _setup(uma, [alice], 123)
    url = f"/api/campaigns/{campaign.pk}/purchases/"
    body = {"territory": home.pk, "item": {"kind": "operative", "class": "soldier"}}
    clients = [client_for(alice) for _ in range(50)]
    resolve(url).func  # noqa: B018 -- import the views before the threads start
    results = _race([(lambda c=c: c.post(url, body, format="json")) for c in clients])
    statuses = Counter(
        (r.status_code, r.json().get("code", "")) if r.status_code >= 400 else (r.status_code, "")
        for r in results
    )
    assert statuses == {(201, ""): 24, (400, "insufficient_credits"): 26}, statuses
    assert Operative.objects.filter(player=player).count() == 24
    _ledger_adds_up(player)
    player.refresh_from_db()
    assert player.credits == 3


def test_purchases_racing_trade_acceptances_never_deadlock(uma, alice, bob):
    """Issue 19.3: alice buys on her territory while bob accepts her trade whose goods are
    delivered there. Before one global lock order (player, then territory, then goods) the
    two locked the same rows in opposite orders and PostgreSQL killed one with a deadlock
    (a 500). Now every pair settles: 201/200 or a clear 4xx, never a database error, and
    credits are conserved."""
    from economy.models import Weapon

    campaign, (pa, pb), (ta, tb) = _setup(uma, [alice, bob], credits=5000)
    pairs = 20
    trades = []
    for _ in range(pairs):
        w = Weapon.objects.create(player=pb, territory=tb, weapon="machine_gun")
        trades.append(trade_create(player=Player.objects.get(pk=pa.pk), to_player=pb.pk,
                                   give={"credits": 5},
                                   receive={"weapons": [w.pk], "deliver_to": ta.pk}))
    start = (LedgerEntry.objects.filter(player__campaign=campaign)
             .aggregate(total=Sum("amount"))["total"])
    calls: list[Callable[[], Any]] = []
    for trade in trades:
        calls.append(lambda: _call(purchase, pa.pk, territory_id=ta.pk,
                                   item={"kind": "operative", "class": "soldier"}))
        calls.append(lambda t=trade: _call(trade_accept, pb.pk, trade_id=t.pk))
    results = []
    for i in range(0, len(calls), 8):  # eight requests at a time: four pairs
        results += _race(calls[i:i + 8])
    errors = [r for r in results if isinstance(r, Exception)]
    assert not errors, errors[:3]
    assert Counter(r[0] for r in results) == Counter({200: 2 * pairs})
    assert Trade.objects.filter(status="accepted").count() == pairs
    total = (LedgerEntry.objects.filter(player__campaign=campaign)
             .aggregate(total=Sum("amount"))["total"])
    assert total == start - pairs * 5  # soldiers bought; trade credits only moved
    assert Operative.objects.filter(player=pa).count() == pairs
