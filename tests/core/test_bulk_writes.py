"""The many-row writes of the clock's hooks (campaign/bulk.py, issue 15) leave the rows
exactly as Django's own bulk_create/bulk_update do, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.bulk import bulk_insert, bulk_set
from campaign.models import Player
from economy.models import RandomIds, Unit, Weapon


@pytest.fixture
def seat(make_campaign, uma, alice):
    campaign = make_campaign(uma)
    return Player.objects.create(campaign=campaign, user=alice, color="#000000")


def test_bulk_insert_writes_every_column_in_one_statement(seat) -> None:
    ids = RandomIds()
    units = [Unit(id=next(ids), player_id=seat.pk, model="golem", name=f"u{i}",
                  profile={"k": [i, None]}, damage_repairable=i, extension=i % 2 == 0)
             for i in range(300)]
    weapons = [Weapon(id=next(ids), player_id=seat.pk, weapon="cannon",
                      templates=["long_barrel"] if i else []) for i in range(3)]
    with CaptureQueriesContext(connection) as captured:
        bulk_insert(units)
    bulk_insert(weapons)
    bulk_insert([])
    if connection.vendor == "postgresql":
        assert len(captured.captured_queries) == 1
    stored = {u.pk: u for u in Unit.objects.filter(player=seat)}
    assert len(stored) == 300
    for unit in units:
        row = stored[unit.pk]
        assert (row.name, row.profile, row.state, row.damage_repairable, row.extension,
                row.status, row.territory_id, row.pilot_id) == (
            unit.name, unit.profile, {}, unit.damage_repairable, unit.extension, "ready",
            None, None)
    assert sorted(Weapon.objects.filter(player=seat).values_list("templates", flat=True),
                  key=len) == [[], ["long_barrel"], ["long_barrel"]]


def test_bulk_set_writes_only_the_fields_named(seat) -> None:
    ids = RandomIds()
    units = [Unit(id=next(ids), player_id=seat.pk, model="golem", name=f"u{i}")
             for i in range(50)]
    Unit.objects.bulk_create(units)
    for i, unit in enumerate(units):
        unit.status = "off_map" if i % 2 else "ready"
        unit.damage_repairable = i
        unit.name = "not saved"
    with CaptureQueriesContext(connection) as captured:
        assert bulk_set(units, ["status", "damage_repairable"]) == 50
    assert bulk_set([], ["status"]) == 0
    assert len(captured.captured_queries) == 1  # SQLite too (UPDATE .. FROM)
    for status, damage, name in Unit.objects.filter(player=seat).values_list(
            "status", "damage_repairable", "name"):
        assert name != "not saved"
        assert (status, damage) == (("off_map" if damage % 2 else "ready"), damage)
    assert sorted(Unit.objects.filter(player=seat).values_list("damage_repairable",
                                                                flat=True)) == list(range(50))


def test_bulk_set_writes_json_booleans_and_nulls_as_bulk_update_does(seat) -> None:
    ids = RandomIds()
    units = [Unit(id=next(ids), player_id=seat.pk, model="golem", name=f"u{i}",
                  profile={"was": i}, extension=True) for i in range(6)]
    Unit.objects.bulk_create(units)
    for i, unit in enumerate(units):
        unit.profile = {"k": [i, None], "s": "é\"'"} if i % 2 else {}
        unit.extension = i % 3 == 0
    twice = Unit(id=units[0].pk, player_id=seat.pk, model="golem", name="u0",
                 profile={"second": True}, extension=False)
    assert bulk_set([*units, twice], ["profile", "extension"]) == 6
    stored = dict(Unit.objects.filter(player=seat).values_list("pk", "profile"))
    flags = dict(Unit.objects.filter(player=seat).values_list("pk", "extension"))
    for i, unit in enumerate(units):  # a row listed twice keeps its first values
        assert stored[unit.pk] == ({"k": [i, None], "s": "é\"'"} if i % 2 else {})
        assert flags[unit.pk] is (i % 3 == 0)
