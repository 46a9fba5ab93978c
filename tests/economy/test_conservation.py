"""Property test: random sequences of economy actions by several players conserve
credits and goods (issue 4, "Done when").

Credits are created only by shipping, discoveries and umpire grants and destroyed only
by purchases (buildings, upgrades, items, missiles) and umpire takes; trades move them.
Goods are never duplicated or lost except by the rules: shipping removes what it
ships, production adds what the journal says it mined and converts what it refined,
umpire corrections add or remove what they say. A refused action changes nothing.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaign.errors import GameError
from campaign.models import Campaign, Event, Player
from campaign.rules.tables import STARTING_BUILDINGS
from economy.models import Building, LedgerEntry, Shipment, Stock, Unit, Weapon
from economy.services import ledger
from economy.services.buildings import building_create
from economy.services.commerce import purchase, shipment_create
from economy.services.corrections import correction_create
from economy.services.production import production_run
from economy.services.trades import trade_accept, trade_create, trade_decline
from territories.models import Exploration, Territory
from tests.economy.conftest import World, snapshot

RESOURCES = ["minerals", "water"]
ITEMS = [{"kind": "vehicle", "model": "golem"}, {"kind": "operative", "class": "worker"},
         {"kind": "weapon", "weapon": "machine_gun", "templates": ["light"]},
         {"kind": "vehicle", "model": "shark"}, {"kind": "vehicle", "model": "paladin"}]
KINDS = ["warehouse", "mine_shaft", "factory", "laboratory"]

action = st.one_of(
    st.tuples(st.just("ship"), st.integers(0, 1), st.integers(0, 1), st.integers(1, 10)),
    st.tuples(st.just("buy"), st.integers(0, 1), st.integers(0, len(ITEMS) - 1)),
    st.tuples(st.just("build"), st.integers(0, 1), st.integers(0, len(KINDS) - 1)),
    st.tuples(st.just("trade"), st.integers(0, 1), st.integers(0, 1500),
              st.integers(0, 12), st.booleans()),
    st.tuples(st.just("correct"), st.integers(0, 1), st.integers(-300, 300)),
    st.tuples(st.just("produce")),
)


def make_world(uma, alice, bob) -> World:
    campaign = Campaign.objects.create(name="Prop", umpire=uma, status="running", turn=1,
                                       phase="commercial", seed=3)
    alpha = Territory.objects.create(campaign=campaign, name="Alpha")
    beta = Territory.objects.create(campaign=campaign, name="Beta")
    gamma = Territory.objects.create(campaign=campaign, name="Gamma")
    players = []
    for user in (alice, bob):
        p = Player.objects.create(campaign=campaign, user=user)
        p.campaign = campaign
        ledger.post(player=p, amount=1000, reason="starting_credits")
        players.append(p)
    alpha.owner, beta.owner = players
    alpha.save()
    beta.save()
    w = World(campaign, players[0], players[1], alpha, beta, gamma)
    for t, resource in ((alpha, "minerals"), (beta, "water")):
        for kind in STARTING_BUILDINGS:
            w.build(t, kind, active=kind in ("radar", "landing_pad"))
        w.build(t, "warehouse")
        w.build(t, "mine_shaft", active=True)
        w.build(t, "foundry" if resource == "minerals" else "refinery", active=False)
        w.explore(t, resource, units=4, unstable=resource == "water")
        w.stock(t, resource, 30)
    return w


def goods() -> Counter:
    total: Counter = Counter()
    for r, refined, pure, u in Stock.objects.values_list("resource", "refined", "pure",
                                                         "units"):
        total[(r, refined, pure)] += u
    return total


def check_credits(world: World) -> None:
    for p in Player.objects.filter(campaign=world.campaign):
        assert p.credits == ledger.balance_from_ledger(p) >= 0
    for reason, amount in LedgerEntry.objects.values_list("reason", "amount"):
        if reason in ledger.CREATING_REASONS:
            assert amount > 0, reason
        elif reason in ledger.DESTROYING_REASONS:
            assert amount < 0, reason
        else:
            assert reason in ledger.TRANSFER_REASONS, reason
    assert (LedgerEntry.objects.filter(reason="trade").aggregate(s=Sum("amount"))["s"]
            or 0) == 0
    total = Player.objects.filter(campaign=world.campaign).aggregate(s=Sum("credits"))["s"]
    created = LedgerEntry.objects.filter(reason__in=ledger.CREATING_REASONS).aggregate(
        s=Sum("amount"))["s"] or 0
    destroyed = LedgerEntry.objects.filter(reason__in=ledger.DESTROYING_REASONS).aggregate(
        s=Sum("amount"))["s"] or 0
    assert total == created + destroyed


def play(world: World, step: tuple) -> Counter:
    """Run one action; return the change of goods the rules say it makes."""
    players = [world.alice, world.bob]
    home = [world.alpha, world.beta]
    kind = step[0]
    expected: Counter = Counter()
    world.phase("activity" if kind == "produce" else "commercial")
    if kind == "ship":
        _, who, r, units = step
        shipment = shipment_create(player=players[who], territory_id=home[who].pk,
                                   containers=[{"resource": RESOURCES[r], "units": units,
                                                "refined": False}])
        for c in shipment.cargo:
            expected[(c["resource"], c["refined"], c["pure"])] -= c["units"]
    elif kind == "buy":
        purchase(player=players[step[1]], territory_id=home[step[1]].pk, item=ITEMS[step[2]])
    elif kind == "build":
        n = Building.objects.filter(territory=home[step[1]]).count()
        building_create(player=players[step[1]], territory_id=home[step[1]].pk,
                        kind=KINDS[step[2]], x=n % 16, y=8 + n // 16)
    elif kind == "trade":
        _, who, credits, units, accept = step
        other = 1 - who
        give = {"credits": credits}
        receive = {}
        if units:
            receive = {"resources": [{"territory": home[other].pk,
                                      "resource": RESOURCES[other], "units": units}],
                       "deliver_to": home[who].pk}
        trade = trade_create(player=players[who], to_player=players[other].pk, give=give,
                             receive=receive)
        if accept:
            trade_accept(player=players[other], trade_id=trade.pk)
        else:
            trade_decline(player=players[other], trade_id=trade.pk)
    elif kind == "correct":
        if step[2]:
            correction_create(campaign=world.campaign, player_id=players[step[1]].pk,
                              reason="property test", credits=step[2])
    elif kind == "produce":
        before_events = Event.objects.filter(kind="production").count()
        production_run(campaign=world.campaign)
        for event in Event.objects.filter(kind="production")[before_events:]:
            for line in event.data["lines"]:
                if line["kind"] == "mined":
                    expected[(line["resource"], False, line["pure"])] += line["produced"]
                elif line["kind"] == "refined":
                    for resource, n in line["units"].items():
                        expected[(resource, True, False)] += n
                        expected[(resource, False, False)] -= n
    return expected


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(steps=st.lists(action, min_size=1, max_size=12))
def test_random_economy_conserves_credits_and_goods(uma, alice, bob, steps):
    with transaction.atomic():
        world = make_world(uma, alice, bob)
        Exploration.objects.filter(campaign=world.campaign)  # deposits are in place
        for step in steps:
            before_goods = goods()
            before_items = (Unit.objects.count(), Weapon.objects.count())
            before = snapshot()
            try:
                with transaction.atomic():
                    expected = play(world, step)
            except GameError:
                world.campaign.refresh_from_db()
                after = snapshot()
                assert after == before, f"refused {step} changed something"
                event(f"{step[0]} refused")
                continue
            event(f"{step[0]} done")
            change = goods()
            change.subtract(before_goods)
            assert {k: v for k, v in change.items() if v} == \
                {k: v for k, v in expected.items() if v}, step
            if step[0] != "buy":
                assert (Unit.objects.count(), Weapon.objects.count()) == before_items
            check_credits(world)
        assert Shipment.objects.filter(player__campaign=world.campaign).count() >= 0
        transaction.set_rollback(True)
