"""Issue 31, item 7: a factory's product line is stored as a list of its items' codes
(`Building.product`, `Building.next_product`), no longer as text joined by ";". Export
documents and phase starts written before are read (and migrated) both ways."""

from __future__ import annotations

import importlib

import pytest

from economy.models import Building
from economy.services.export import imported_building, stored_line

MIGRATION = importlib.import_module("economy.migrations.0008_product_lines_as_lists")


def test_a_line_written_as_text_is_read_as_its_codes():
    assert stored_line("vehicle:golem;vehicle:lycaon") == ["vehicle:golem", "vehicle:lycaon"]
    assert stored_line("") == [] and stored_line(None) == []
    assert stored_line(["weapon:cannon:heavy"]) == ["weapon:cannon:heavy"]


def test_the_migration_converts_both_ways():
    for text, line in (("", []), ("building:turret", ["building:turret"]),
                       ("weapon:cannon:heavy,accurate;weapon:machine_gun",
                        ["weapon:cannon:heavy,accurate", "weapon:machine_gun"])):
        assert MIGRATION._as_list(text) == line
        assert MIGRATION._as_text(line) == text
        assert MIGRATION._as_list(line) == line and MIGRATION._as_text(text) == text


def test_an_imported_building_row_of_an_older_document_gets_lists():
    row = imported_building({"kind": "factory", "product": "vehicle:golem;vehicle:lycaon",
                             "next_product": ""}, {})
    assert (row["product"], row["next_product"]) == (["vehicle:golem", "vehicle:lycaon"], [])


@pytest.mark.django_db
def test_a_factory_stores_its_line_as_a_list(world, api):
    factory = world.build(world.alpha, "factory", active=True)
    world.phase("activity")
    r = api["alice"].put(f"/api/campaigns/{world.campaign.pk}/buildings/{factory.pk}/product/",
                         {"product": [{"kind": "vehicle", "model": "golem"},
                                      {"kind": "vehicle", "model": "lycaon"}]}, format="json")
    assert r.status_code == 200, r.json()
    stored = Building.objects.get(pk=factory.pk)
    assert stored.product == ["vehicle:golem", "vehicle:lycaon"] and stored.next_product == []
    assert r.json()["product"] == ["vehicle:golem", "vehicle:lycaon"]
