"""Shipping and purchases in the commercial phase."""

from __future__ import annotations

import pytest

from economy.models import Building, LedgerEntry, Operative, Stock, Unit, Weapon
from tests.economy.conftest import snapshot


def ship(api, world, containers, territory=None, who="alice"):
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/shipments/",
                         {"territory": (territory or world.alpha).pk,
                          "containers": containers}, format="json")


def buy(api, world, item, territory=None, who="alice"):
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/purchases/",
                         {"territory": (territory or world.alpha).pk, "item": item},
                         format="json")


@pytest.fixture
def port(world):
    Building.objects.filter(territory=world.alpha, kind__in=["radar", "landing_pad"]).update(
        active=True)
    world.build(world.alpha, "warehouse")
    return world


def test_shipping_pays_raw_refined_and_pure_prices(port, api):
    """Resource table: Minerals raw 10 refined 15; Water raw 20; pure: "sell said resources
    at 150% (rounded down) of their raw price without refining them"."""
    w = port
    w.stock(w.alpha, "minerals", 10)
    w.stock(w.alpha, "minerals", 10, refined=True)
    w.stock(w.alpha, "water", 5, pure=True)
    r = ship(api, w, [{"resource": "minerals", "units": 10, "refined": False},
                      {"resource": "minerals", "units": 10, "refined": True},
                      {"resource": "water", "units": 5, "refined": False}])
    assert r.status_code == 201, r.json()
    assert r.json()["value"] == 100 + 150 + 5 * 30
    assert w.credits(w.alice) == 1000 + 400
    assert LedgerEntry.objects.filter(player=w.alice, reason="shipping").get().amount == 400
    assert Stock.objects.filter(territory=w.alpha).count() == 0


def test_five_containers_per_landing_pad_per_turn(port, api):
    """"You can ship five containers each commercial turn for each landing pad you own.\""""
    w = port
    w.stock(w.alpha, "minerals", 60)
    one = {"resource": "minerals", "units": 10, "refined": False}
    assert ship(api, w, [one] * 4).status_code == 201
    before = snapshot()
    r = ship(api, w, [one] * 2)
    assert r.status_code == 409 and r.json()["code"] == "shipping_capacity"
    assert snapshot() == before
    assert ship(api, w, [one]).status_code == 201


def test_a_container_holds_at_most_ten_units(port, api):
    """"Each container may contain up to ten units of one single resource.\""""
    w = port
    w.stock(w.alpha, "minerals", 20)
    before = snapshot()
    r = ship(api, w, [{"resource": "minerals", "units": 11, "refined": False}])
    assert r.status_code == 400 and r.json()["code"] == "container_size"
    assert snapshot() == before


def test_shipping_needs_an_active_radar(port, api):
    """"Radars allow the landing pads and missile silos on their territory to operate.\""""
    w = port
    w.stock(w.alpha, "minerals", 10)
    Building.objects.filter(territory=w.alpha, kind="radar").update(active=False)
    before = snapshot()
    r = ship(api, w, [{"resource": "minerals", "units": 10, "refined": False}])
    assert r.status_code == 409 and r.json()["code"] == "no_active_radar"
    assert snapshot() == before


def test_shipping_what_is_not_stored_is_refused(port, api):
    w = port
    w.stock(w.alpha, "minerals", 5)
    before = snapshot()
    r = ship(api, w, [{"resource": "minerals", "units": 6, "refined": False}])
    assert r.status_code == 400 and r.json()["code"] == "insufficient_goods"
    r = ship(api, w, [{"resource": "minerals", "units": 5}], territory=w.beta)
    assert r.status_code == 403
    w.phase("activity")
    r = ship(api, w, [{"resource": "minerals", "units": 5}])
    assert r.status_code == 409
    assert snapshot() == before


@pytest.mark.parametrize("item,field,cost", [
    ({"kind": "vehicle", "model": "Golem"}, "unit", 150),
    ({"kind": "vehicle", "model": "heavy_charger"}, "unit", 120),
    ({"kind": "operative", "class": "soldier"}, "pilot", 5),
    ({"kind": "operative", "class": "scientist"}, "pilot", 10),
    ({"kind": "weapon", "weapon": "machine_gun", "templates": ["heavy"]}, "weapon", 12),
    ({"kind": "weapon", "weapon": "cannon"}, "weapon", 16),
    ({"kind": "equipment", "equipment": "shield", "templates": ["light"]}, "weapon", 5),
    ({"kind": "equipment", "equipment": "designator"}, "weapon", 20),
    ({"kind": "vehicle", "model": "shark"}, "unit", 20),
])
def test_purchases_cost_the_seeds_price(port, api, item, field, cost):
    """Vehicles, weapons (with templates: "it must have the different templates applied
    on it and paid for"), equipment and operatives (hiring cost) on a landing pad."""
    w = port
    r = buy(api, w, item)
    assert r.status_code == 201, r.json()
    assert set(r.json()) >= {field}
    assert w.credits(w.alice) == 1000 - cost
    model = {"unit": Unit, "pilot": Operative, "weapon": Weapon}[field]
    assert model.objects.get(pk=r.json()[field]).territory_id == w.alpha.pk


def test_purchases_only_on_a_territory_with_a_landing_pad(port, api):
    """"The other elements may only appear in a territory with a landing pad.\""""
    w = port
    w.gamma.owner = w.alice
    w.gamma.save()
    w.build(w.gamma, "station")
    before = snapshot()
    r = buy(api, w, {"kind": "operative", "class": "soldier"}, territory=w.gamma)
    assert r.status_code == 409 and r.json()["code"] == "no_landing_pad"
    assert snapshot() == before
    r = buy(api, w, {"kind": "building", "building": "warehouse", "x": 3, "y": 3},
            territory=w.gamma)
    assert r.status_code == 201 and "building" in r.json()


def test_invalid_templates_are_refused(port, api):
    """"A weapon can have up to three different templates ..., only one of which can
    induce passive effects"; "Low Quality cannot be combined with Accurate"."""
    w = port
    before = snapshot()
    for templates in (["low_quality", "accurate"], ["concussion", "corrosive"],
                      ["heavy", "accurate", "hardpoint", "rof_up"], ["nonsense"]):
        r = buy(api, w, {"kind": "weapon", "weapon": "machine_gun", "templates": templates})
        assert r.status_code == 400 and r.json()["code"] == "invalid_item", templates
    assert snapshot() == before


def test_a_weapon_needs_a_container_on_arrival(world, api):
    """"any weapon not attached to a vehicle ... must be stored in a container and placed
    in a warehouse" — R-ECO-13: no room, no purchase."""
    before = snapshot()
    r = buy(api, world, {"kind": "weapon", "weapon": "cannon"})
    assert r.status_code == 400 and r.json()["code"] == "no_room"
    assert snapshot() == before


def test_a_purchase_beyond_the_balance_is_refused(port, api):
    w = port
    for _ in range(6):
        assert buy(api, w, {"kind": "vehicle", "model": "golem"}).status_code == 201
    before = snapshot()
    r = buy(api, w, {"kind": "vehicle", "model": "golem"})
    assert r.status_code == 400 and r.json()["code"] == "insufficient_credits"
    assert snapshot() == before
    assert w.credits(w.alice) == 100


def test_the_hellound_extension(port, api):
    """"Extension : for 25 credits, the Blood Hound can see one of its M slots turned into
    a H slot" (R-TAB-14: the Hellound)."""
    w = port
    r = buy(api, w, {"kind": "vehicle", "model": "hellound"})
    uid = r.json()["unit"]
    r = buy(api, w, {"kind": "equipment", "equipment": "extension", "unit": uid})
    assert r.status_code == 201
    assert Unit.objects.get(pk=uid).extension
    golem = buy(api, w, {"kind": "vehicle", "model": "golem"}).json()["unit"]
    before = snapshot()
    r = buy(api, w, {"kind": "equipment", "equipment": "extension", "unit": golem})
    assert r.status_code == 400
    assert snapshot() == before
