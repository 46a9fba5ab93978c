"""Production's plain-row writes (campaign/bulk.py, issue 32) leave the rows as
Django's bulk_create would, every column not given at its default, in one statement for
the query counters, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.bulk import insert_rows, json_value, update_rows
from campaign.models import Player
from economy.models import RandomIds, Stock, Unit, Weapon
from territories.models import Territory


@pytest.fixture
def seat(make_campaign, uma, alice):
    campaign = make_campaign(uma)
    return Player.objects.create(campaign=campaign, user=alice, color="#000000")


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
