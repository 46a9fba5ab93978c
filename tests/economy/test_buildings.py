"""Buildings and upgrades bought in the commercial phase (API.md "Economy actions")."""

from __future__ import annotations

import pytest

from economy.models import Building, LedgerEntry
from tests.economy.conftest import snapshot

URL = "/api/campaigns/{}/buildings/"


def post(api, world, who="alice", **body):
    return api[who].post(URL.format(world.campaign.pk), body, format="json")


def test_it_builds_on_an_owned_territory_and_pays(world, api):
    """Seed: "You can build any structure on any territory you own, if you pay the price,
    and if you have already built the required buildings on the same territory."
    Mine Shaft: cost 200, requirement Station."""
    r = post(api, world, territory=world.alpha.pk, kind="mine_shaft", x=5, y=5)
    assert r.status_code == 201, r.json()
    assert r.json()["kind"] == "mine_shaft" and r.json()["hit_points"] == 15
    assert world.credits(world.alice) == 800
    entry = LedgerEntry.objects.filter(player=world.alice).last()
    assert (entry.amount, entry.reason, entry.related_id) == (-200, "building", r.json()["id"])


def test_it_refuses_a_missing_requirement_and_changes_nothing(world, api):
    """Foundry: requirement Mine Shaft ("on the same territory")."""
    before = snapshot()
    r = post(api, world, territory=world.alpha.pk, kind="foundry", x=5, y=5)
    assert r.status_code == 400 and r.json()["code"] == "requirement", r.json()
    assert snapshot() == before


def test_the_requirement_must_stand_on_the_same_territory(world, api):
    """"if you have already built the required buildings on the same territory" — a mine
    shaft elsewhere does not count."""
    world.build(world.beta, "mine_shaft")
    r = post(api, world, territory=world.alpha.pk, kind="foundry", x=5, y=5)
    assert r.json()["code"] == "requirement"


def test_another_players_territory_is_forbidden_not_hidden(world, api):
    """API.md: 403 for a forbidden action on something the caller may see (the meta-map
    is public), 404 for what they may not see."""
    before = snapshot()
    r = post(api, world, territory=world.beta.pk, kind="warehouse", x=5, y=5)
    assert r.status_code == 403
    r = post(api, world, territory=999999, kind="warehouse", x=5, y=5)
    assert r.status_code == 404
    r = post(api, world, territory=world.gamma.pk, kind="warehouse", x=5, y=5)
    assert r.status_code == 403
    assert snapshot() == before


@pytest.mark.parametrize("x,y,code", [(16, 0, "outside_grid"), (0, 0, "square_taken")])
def test_it_places_buildings_on_free_squares_of_the_16x16_map(world, api, x, y, code):
    """Seed: "The Territorial Map is divided into 16x16 squares." One building a square."""
    before = snapshot()
    r = post(api, world, territory=world.alpha.pk, kind="warehouse", x=x, y=y)
    assert r.status_code == 400 and r.json()["code"] == code
    assert snapshot() == before


def test_it_refuses_what_the_player_cannot_pay(world, api):
    """"if you pay the price": a 500 SC factory with 400 SC is refused."""
    from django.db import transaction

    from economy.services import ledger
    with transaction.atomic():
        ledger.post(player=world.alice, amount=-600, reason="umpire_take")
    before = snapshot()
    r = post(api, world, territory=world.alpha.pk, kind="factory", x=5, y=5)
    assert r.status_code == 400 and r.json()["code"] == "insufficient_credits"
    assert snapshot() == before


def test_it_builds_only_in_the_commercial_phase(world, api):
    """Seed, "Commercial phase": "You can also purchase Buildings"."""
    world.phase("activity")
    before = snapshot()
    r = post(api, world, territory=world.alpha.pk, kind="warehouse", x=5, y=5)
    assert r.status_code == 409 and r.json()["code"] == "wrong_phase"
    assert snapshot() == before


def test_unknown_kind_is_a_400(world, api):
    r = post(api, world, territory=world.alpha.pk, kind="castle", x=5, y=5)
    assert r.status_code == 400 and r.json()["code"] == "unknown_kind"


def upgrade(api, world, building, name, who="alice"):
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/buildings/{building.pk}/upgrades/",
                         {"upgrade": name}, format="json")


@pytest.mark.parametrize("kind,key,cost", [
    ("factory", "power_efficiency", 100), ("factory", "extension_of_production", 50),
    ("power_plant", "enhanced_generators", 200), ("power_plant", "extended_power_grid", 100),
    ("concrete_barricade", "ablative_armor", 20), ("command_center", "tactic_control", 50),
    ("command_center", "turret", 100), ("bunker", "turret", 100),
    ("refinery", "power_efficiency", 100), ("foundry", "power_efficiency", 100),
])
def test_upgrades_cost_what_the_seed_says(world, api, kind, key, cost):
    """Seed upgrade lists, e.g. "Enhanced generators (cost : 200)", "Tactic Control (cost
    50)", "Turret (cost 100)", "Upgrade Ablative armor (20)"."""
    building = world.build(world.alpha, kind)
    r = upgrade(api, world, building, key)
    assert r.status_code == 201, r.json()
    assert key in r.json()["upgrades"]
    assert world.credits(world.alice) == 1000 - cost


def test_an_upgrade_is_fitted_once_and_refused_cleanly(world, api):
    plant = Building.objects.get(territory=world.alpha, kind="power_plant")
    assert upgrade(api, world, plant, "extended_power_grid").status_code == 201
    before = snapshot()
    r = upgrade(api, world, plant, "extended_power_grid")
    assert r.status_code == 409 and r.json()["code"] == "already_fitted"
    r = upgrade(api, world, plant, "ablative_armor")
    assert r.status_code == 400 and r.json()["code"] == "unknown_upgrade"
    assert snapshot() == before


def test_enhanced_generators_one_per_territory(world, api):
    """"It can only be fitted on one power plant"."""
    plant = Building.objects.get(territory=world.alpha, kind="power_plant")
    second = world.build(world.alpha, "power_plant")
    assert upgrade(api, world, plant, "enhanced_generators").status_code == 201
    before = snapshot()
    r = upgrade(api, world, second, "enhanced_generators")
    assert r.status_code == 409 and r.json()["code"] == "one_per_territory"
    assert snapshot() == before


def test_another_players_building_is_not_visible(world, api):
    plant = Building.objects.get(territory=world.beta, kind="power_plant")
    assert upgrade(api, world, plant, "extended_power_grid").status_code == 404
