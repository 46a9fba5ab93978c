"""Factory product lines (seed, "Factory": "One factory can produce elements for either one
building, two vehicles, or five kinds of exo-armor, weapons or equipment." "a factory can
only build up to 500 Credits worth of material each strategic turn." "For each 100
Credits needed ... 1 unit of common gas, 2 units of minerals, 2 units of common metal and
1 unit of precious metal"). R-ECO-10, R-ECO-18."""

from __future__ import annotations

import pytest

from campaign.errors import InvalidInput
from economy.models import Building, BuildingKit, LedgerEntry, Unit, Weapon
from economy.services.production import parse_product, production_run
from tests.economy.conftest import snapshot


def rich(world, sets=10, warehouses=2):
    for _ in range(warehouses):
        world.build(world.alpha, "warehouse")
    for r, n in {"common_gas": 1, "minerals": 2, "common_metal": 2,
                 "precious_metal": 1}.items():
        world.stock(world.alpha, r, n * sets, refined=True)


def put(api, world, factory, product):
    return api["alice"].put(f"/api/campaigns/{world.campaign.pk}/buildings/{factory.pk}/"
                            "product/", {"product": product}, format="json")


def test_a_line_may_list_two_vehicles_made_in_turn(world):
    """Golem 150 + Lycaon 100, alternately within 500 SC: golem, lycaon, golem (400),
    then a lycaon (500): two of each, 500 SC, five recipe sets."""
    rich(world)
    world.build(world.alpha, "factory", active=True, product="vehicle:golem;vehicle:lycaon")
    production_run(campaign=world.campaign)
    made = sorted(Unit.objects.values_list("model", flat=True))
    assert made == ["golem", "golem", "lycaon", "lycaon"]


def test_a_line_may_list_five_kinds_of_exo_armour_weapons_or_equipment(world, api):
    world.phase("activity")
    rich(world)
    factory = world.build(world.alpha, "factory", active=True)
    items = [{"kind": "weapon", "weapon": "cannon"},
             {"kind": "weapon", "weapon": "machine_gun", "templates": ["accurate"]},
             {"kind": "equipment", "equipment": "shield"},
             {"kind": "weapon", "weapon": "buster"},
             {"kind": "weapon", "weapon": "blaster"}]
    r = put(api, world, factory, {"items": items})
    assert r.status_code == 200, r.json()
    assert len(r.json()["product"]) == 5  # the line as a list of its items' codes
    production_run(campaign=world.campaign)
    kinds = set(Weapon.objects.values_list("weapon", flat=True))
    assert kinds == {"cannon", "machine_gun", "shield", "buster", "blaster"}


def test_exo_armour_counts_among_the_five_kinds_not_the_vehicles():
    from campaign.rules.tables import VEHICLES

    exo = next(k for k, v in VEHICLES.items() if v.category == "exo_armor")
    line = parse_product([{"kind": "vehicle", "model": exo},
                          {"kind": "weapon", "weapon": "cannon"}])
    assert line.group == "kinds"
    with pytest.raises(InvalidInput):
        parse_product([{"kind": "vehicle", "model": exo},
                       {"kind": "vehicle", "model": "golem"}])


@pytest.mark.parametrize("product", [
    [{"kind": "vehicle", "model": "golem"}, {"kind": "vehicle", "model": "lycaon"},
     {"kind": "vehicle", "model": "hellound"}],  # three vehicles
    [{"kind": "weapon", "weapon": w} for w in
     ("cannon", "machine_gun", "buster", "blaster", "beamer", "shot_gun")],  # six kinds
    [{"kind": "vehicle", "model": "golem"}, {"kind": "weapon", "weapon": "cannon"}],  # mix
    [{"kind": "building", "building": "turret"}, {"kind": "building", "building": "radar"}],
    [{"kind": "weapon", "weapon": "cannon"}, {"kind": "weapon", "weapon": "cannon"}],
    [], {"kind": "spaceship"}, {"kind": "building", "building": "castle"},
])
def test_lines_the_seed_does_not_allow_are_refused_and_change_nothing(world, api, product):
    world.phase("activity")
    factory = world.build(world.alpha, "factory", active=True, product="vehicle:golem")
    before = snapshot()
    r = put(api, world, factory, product)
    assert r.status_code == 400 and r.json()["code"] == "invalid_product"
    assert snapshot() == before


def test_a_building_line_makes_kits_placed_for_free(world, api):
    """Turret 200 SC: two kits a turn from 500 SC (four recipe sets); a kit is placed in the
    commercial phase at no cost, once."""
    rich(world)
    world.build(world.alpha, "factory", active=True, product="building:turret")
    production_run(campaign=world.campaign)
    kits = list(BuildingKit.objects.filter(player=world.alice))
    assert [k.kind for k in kits] == ["turret", "turret"]
    assert api["alice"].get(f"/api/campaigns/{world.campaign.pk}/kits/").json()[0]["kind"] \
        == "turret"
    credits = world.credits(world.alice)
    body = {"territory": world.alpha.pk, "kind": "turret", "x": 15, "y": 15,
            "kit": kits[0].pk}
    r = api["alice"].post(f"/api/campaigns/{world.campaign.pk}/buildings/", body,
                          format="json")
    assert r.status_code == 201, r.json()
    assert world.credits(world.alice) == credits
    assert not LedgerEntry.objects.filter(reason="building").exists()
    kits[0].refresh_from_db()
    assert kits[0].used_turn == 1 and kits[0].building_id == r.json()["id"]
    before = snapshot()
    body["x"] = 14
    r = api["alice"].post(f"/api/campaigns/{world.campaign.pk}/buildings/", body,
                          format="json")
    assert r.status_code == 404  # used already
    body.update(kit=kits[1].pk, kind="radar")
    r = api["alice"].post(f"/api/campaigns/{world.campaign.pk}/buildings/", body,
                          format="json")
    assert r.status_code == 400 and r.json()["code"] == "kit_mismatch"
    r = api["bob"].post(f"/api/campaigns/{world.campaign.pk}/buildings/",
                        {**body, "territory": world.beta.pk, "kind": "turret"},
                        format="json")
    assert r.status_code == 404
    assert snapshot() == before
    assert Building.objects.filter(kind="turret").count() == 1
