"""Trades between players (seed "Commercial phase": "you can also trade resources or
services with your different opponents")."""

from __future__ import annotations

from economy.models import LedgerEntry, Stock, Trade, Unit, Weapon
from economy.services import ledger
from tests.economy.conftest import snapshot


def offer(api, world, give, receive, who="alice", to=None):
    to = to or world.bob
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/trades/",
                         {"to_player": to.pk, "give": give, "receive": receive},
                         format="json")


def act(api, world, trade_id, action, who="bob"):
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/trades/{trade_id}/{action}/")


def test_an_accepted_trade_settles_both_sides(world, api):
    world.build(world.alpha, "warehouse")
    world.build(world.beta, "warehouse")
    world.stock(world.beta, "water", 15)
    gun = world.weapon(world.alice, world.alpha, "cannon")
    golem = world.unit(world.alice, world.alpha, "golem")
    r = offer(api, world, {"credits": 100, "weapons": [gun.pk], "units": [golem.pk],
                           "deliver_to": world.beta.pk},
              {"resources": [{"territory": world.beta.pk, "resource": "water",
                              "units": 15}], "deliver_to": world.alpha.pk})
    assert r.status_code == 201, r.json()
    tid = r.json()["id"]
    r = act(api, world, tid, "accept")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "accepted"
    assert (world.credits(world.alice), world.credits(world.bob)) == (900, 1100)
    assert Stock.objects.get(territory=world.alpha, resource="water").units == 15
    assert not Stock.objects.filter(territory=world.beta).exists()
    gun.refresh_from_db()
    golem.refresh_from_db()
    assert (gun.player_id, gun.territory_id) == (world.bob.pk, world.beta.pk)
    assert (golem.player_id, golem.territory_id) == (world.bob.pk, world.beta.pk)
    assert ledger.balance_from_ledger(world.alice) == 900
    # Issue 19.9: each side's ledger entry names the trade it settles.
    entries = LedgerEntry.objects.filter(reason="trade").order_by("player_id")
    assert [(e.player_id, e.amount, e.related_kind, e.related_id) for e in entries] == [
        (world.alice.pk, -100, "trade", tid), (world.bob.pk, 100, "trade", tid)]


def test_only_the_recipient_accepts_and_only_once(world, api):
    r = offer(api, world, {"credits": 10}, {})
    tid = r.json()["id"]
    before = snapshot()
    assert act(api, world, tid, "accept", who="alice").status_code == 403
    assert snapshot() == before
    assert act(api, world, tid, "accept").status_code == 200
    before = snapshot()
    r = act(api, world, tid, "accept")
    assert r.status_code == 409 and r.json()["code"] == "trade_not_open"
    assert snapshot() == before


def test_a_giver_who_no_longer_has_the_goods_fails_cleanly(world, api):
    """"acceptance settles both sides in one transaction or not at all"."""
    world.build(world.alpha, "warehouse")
    world.build(world.beta, "warehouse")
    world.stock(world.alpha, "minerals", 10)
    r = offer(api, world, {"resources": [{"territory": world.alpha.pk, "resource": "minerals",
                                          "units": 10}], "deliver_to": world.beta.pk},
              {"credits": 50})
    tid = r.json()["id"]
    Stock.objects.filter(territory=world.alpha).update(units=4)
    before = snapshot()
    r = act(api, world, tid, "accept")
    assert r.status_code == 409 and r.json()["code"] == "goods_unavailable"
    assert "minerals" in r.json()["detail"]
    assert snapshot() == before
    assert Trade.objects.get(pk=tid).status == "open"


def test_a_recipient_who_cannot_pay_fails_cleanly(world, api):
    r = offer(api, world, {"credits": 10}, {"credits": 1020})
    tid = r.json()["id"]
    before = snapshot()
    r = act(api, world, tid, "accept")
    assert r.status_code == 409 and r.json()["code"] == "goods_unavailable"
    assert snapshot() == before


def test_offers_are_checked_when_made(world, api):
    before = snapshot()
    gun = world.weapon(world.bob, world.beta, "cannon")
    before = snapshot()
    assert offer(api, world, {"weapons": [gun.pk], "deliver_to": world.beta.pk},
                 {}).status_code == 400
    assert offer(api, world, {"credits": 5000}, {}).json()["code"] == "insufficient_credits"
    assert offer(api, world, {"credits": 5}, {}, to=world.alice).status_code == 400
    assert offer(api, world, {}, {}).json()["code"] == "empty_trade"
    assert snapshot() == before


def test_decline_and_visibility(world, api, charlie, client_for):
    """Both parties and the umpire see a trade; nobody else does."""
    from campaign.models import Player

    carl = Player.objects.create(campaign=world.campaign, user=charlie)
    r = offer(api, world, {"credits": 10}, {})
    tid = r.json()["id"]
    base = f"/api/campaigns/{world.campaign.pk}/trades/"
    for who in ("alice", "bob", "uma"):
        assert api[who].get(f"{base}{tid}/").status_code == 200
        assert [t["id"] for t in api[who].get(base).json()] == [tid]
    c = client_for(charlie)
    assert c.get(f"{base}{tid}/").status_code == 404
    assert c.get(base).json() == []
    assert c.post(f"{base}{tid}/accept/").status_code == 404
    assert carl.pk
    assert act(api, world, tid, "decline").json()["status"] == "declined"
    assert act(api, world, tid, "accept").status_code == 409


def test_trades_only_in_the_commercial_phase(world, api):
    world.phase("activity")
    before = snapshot()
    assert offer(api, world, {"credits": 10}, {}).status_code == 409
    assert snapshot() == before


def test_a_fitted_weapon_travels_only_with_its_unit(world, api):
    world.build(world.beta, "warehouse")
    golem = world.unit(world.alice, world.alpha, "golem")
    Weapon.objects.create(player=world.alice, territory=world.alpha, weapon="cannon",
                          unit=golem, slot=0)
    fitted = Weapon.objects.get()
    r = offer(api, world, {"weapons": [fitted.pk], "deliver_to": world.beta.pk}, {})
    assert r.status_code == 400 and r.json()["code"] == "goods_unavailable"
    r = offer(api, world, {"units": [golem.pk], "deliver_to": world.beta.pk}, {})
    assert act(api, world, r.json()["id"], "accept").status_code == 200
    fitted.refresh_from_db()
    assert fitted.player_id == world.bob.pk and Unit.objects.get().player_id == world.bob.pk


def test_an_offer_whose_goods_have_no_room_is_refused_when_made(world, api):
    """R-ECO-15 (issue 19.11): "An offer is checked when made" — room included. Bob's Beta
    has no warehouse, so alice's loose cannon (a container's worth) cannot be delivered
    there: the offer is refused with `no_room` at once, not left open to fail at
    acceptance; nothing changes."""
    gun = world.weapon(world.alice, world.alpha, "cannon")
    before = snapshot()
    refused = offer(api, world, {"weapons": [gun.pk], "deliver_to": world.beta.pk}, {})
    assert refused.status_code == 400 and refused.json()["code"] == "no_room"
    assert "Beta" in refused.json()["detail"]
    assert snapshot() == before
    world.build(world.beta, "warehouse")
    assert offer(api, world, {"weapons": [gun.pk], "deliver_to": world.beta.pk},
                 {}).status_code == 201
