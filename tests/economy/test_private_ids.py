"""Issue 19.9 (R-SEC-1): ids of units, operatives, weapons, trades, shipments and kits
count nothing. With sequential ids alice, buying twice, could count what bob bought or
traded in between."""

from __future__ import annotations

from economy.models import BuildingKit, Operative, Shipment, Trade, Unit, Weapon


def test_ids_of_private_rows_are_random(world, api):
    base = f"/api/campaigns/{world.campaign.pk}/purchases/"
    world.build(world.alpha, "warehouse")
    world.build(world.beta, "warehouse")

    def buy(who, territory, item):
        answer = api[who].post(base, {"territory": territory.pk, "item": item}, format="json")
        assert answer.status_code == 201, answer.json()
        return answer.json()

    first = buy("alice", world.alpha, {"kind": "vehicle", "model": "golem"})["unit"]
    for _ in range(3):
        buy("bob", world.beta, {"kind": "vehicle", "model": "golem"})
        buy("bob", world.beta, {"kind": "operative", "class": "soldier"})
    second = buy("alice", world.alpha, {"kind": "vehicle", "model": "golem"})["unit"]
    assert abs(second - first) > 1000  # no count of bob's three purchases to read
    for model in (Unit, Operative, Weapon, Trade, Shipment, BuildingKit):
        assert model._meta.pk.default.__name__ == "random_id", model
    ids = list(Unit.objects.values_list("pk", flat=True))
    assert len(set(ids)) == len(ids) and all(0 < i < 2**53 for i in ids)
