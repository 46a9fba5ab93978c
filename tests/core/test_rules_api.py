"""GET /api/rules/ serves every table in the shape API.md writes, to anyone."""

from __future__ import annotations

import pytest

from campaign.rules import tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules(anon_client) -> dict:
    response = anon_client.get("/api/rules/")
    assert response.status_code == 200
    return response.json()


def test_it_serves_every_table_of_the_contract(rules):
    assert set(rules) >= {"buildings", "resources", "pilot_classes", "xp_levels", "weapons",
                          "templates", "vehicles"}


def test_buildings_have_the_contract_fields(rules):
    assert set(rules["buildings"]) == set(tables.BUILDINGS)
    station = rules["buildings"]["station"]
    assert {"name", "cost", "energy", "armor", "hit_points", "requires", "upgrades"} <= set(station)
    # 003 "Station": Cost 20, Energy None (served as 0), Armor 0, Hit points 10, no requirement.
    assert (station["cost"], station["energy"], station["armor"], station["hit_points"],
            station["requires"]) == (20, 0, 0, 10, None)
    efficiency = rules["buildings"]["factory"]["upgrades"]["power_efficiency"]
    assert {"name", "cost", "effect"} <= set(efficiency)
    assert efficiency["cost"] == 100


def test_resources_weapons_templates_vehicles_and_pilots(rules):
    water = rules["resources"][0]
    assert water["scores"] == [3, 8] and water["raw_value"] == 20
    assert rules["weapons"]["machine_gun"]["base_cooldown"] == 6
    assert rules["weapons"]["beamer"]["misfire"] is None  # "-" in the seed is null
    assert rules["templates"]["heavy"]["applies_to"]
    assert rules["vehicles"]["golem"]["hit_points"] == 25
    soldier = rules["pilot_classes"]["soldier"]
    assert soldier["hiring_cost"] == 5 and len(soldier["levels"]) == 8
    assert {"level", "pilot", "fight", "tech", "will", "init"} == set(soldier["levels"][0])
    assert rules["xp_levels"][0] == {"level": 1, "xp": 5}
