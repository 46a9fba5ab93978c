"""The many-row writes of the clock's hooks (campaign/bulk.py, issues 15 and 32) leave the
rows exactly as Django's own bulk_create/bulk_update do, on SQLite and on PostgreSQL:
model instances (`bulk_set`, `bulk_insert`) and production's plain rows (`insert_rows`,
`update_rows`: every column not given at its default), each in one statement for the
query counters."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.bulk import bulk_insert, bulk_set, insert_rows, json_value, update_rows
from campaign.models import Player
from economy.models import RandomIds, Stock, Unit, Weapon
from territories.models import Territory


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


def test_insert_rows_fills_the_defaults_in_one_statement(seat) -> None:
    ids = RandomIds()
    rows = [(next(ids), seat.pk, None, "golem", f"Golem 'N{i}'") for i in range(1200)]
    with CaptureQueriesContext(connection) as captured:
        insert_rows(Unit, ["id", "player_id", "territory_id", "model", "name"], rows)
        insert_rows(Unit, ["id", "player_id", "territory_id", "model", "name"], [])
    assert len(captured.captured_queries) == 1
    stored = {u.pk: u for u in Unit.objects.filter(player=seat)}
    assert len(stored) == 1200
    for pk, _player, _territory, model, name in rows:
        row = stored[pk]
        assert (row.model, row.name, row.profile, row.state, row.pilot_id,
                row.damage_repairable, row.damage_unrepairable, row.extension, row.status,
                row.locked_until_turn) == (model, name, {}, {}, None, 0, 0, False, "ready",
                                           0)
    weapons = [(next(ids), seat.pk, "cannon", json_value(t)) for t in ([], ["long_barrel"])]
    insert_rows(Weapon, ["id", "player_id", "weapon", "templates"], weapons)
    assert sorted(Weapon.objects.filter(player=seat).values_list("templates", flat=True),
                  key=len) == [[], ["long_barrel"]]
    assert list(Weapon.objects.filter(player=seat).values_list("name", "unit_id", "slot")
                ) == [("", None, None)] * 2


def test_insert_rows_needs_a_random_id(seat) -> None:
    with pytest.raises(ValueError, match="primary key"):
        insert_rows(Unit, ["player_id", "model"], [(seat.pk, "golem")])


def test_update_rows_sets_by_id_in_one_statement(seat) -> None:
    territory = Territory.objects.filter(campaign=seat.campaign).first()
    if territory is None:
        territory = Territory.objects.create(campaign=seat.campaign, name="T", x=0, y=0)
    insert_rows(Stock, ["territory_id", "resource", "refined", "pure", "units"],
                [(territory.pk, r, refined, False, 5) for r in ("minerals", "common_gas")
                 for refined in (False, True)])
    rows = list(Stock.objects.filter(territory=territory).order_by("pk"))
    assert [s.units for s in rows] == [5, 5, 5, 5]
    with CaptureQueriesContext(connection) as captured:
        update_rows(Stock, ["units"], [(s.pk, 7 + i) for i, s in enumerate(rows[:3])])
        update_rows(Stock, ["units"], [])
    assert len(captured.captured_queries) == 1
    assert list(Stock.objects.filter(territory=territory).order_by("pk")
                .values_list("units", flat=True)) == [7, 8, 9, 5]
    update_rows(Player, ["credits", "research_points"], [(seat.pk, 123, 4)])
    seat.refresh_from_db()
    assert (seat.credits, seat.research_points) == (123, 4)
