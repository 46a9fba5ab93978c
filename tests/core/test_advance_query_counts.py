"""Issue 15, target 1: every phase advance costs the same number of queries whatever
the size of the campaign. Two played campaigns (the fixture of
benchmarks/advance_bench.py: buildings, stock, piloted units, sealed orders onto own,
unowned and rivals' territories, battles), the second four times the first in
territories, players and units, go through a whole turn; each advance must issue
exactly as many queries in both."""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from campaign.models import Event
from campaign.services.clock import advance
from economy.models import Unit
from territories.models import Territory

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "advance_bench.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("advance_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _turn(bench: Any, territories: int, players: int) -> dict[str, Any]:
    """Queries (SQL) of each advance of turn 1, and what the turn did."""
    campaign = bench.build_campaign(territories, players, seed=7)
    state = bench.played_state(campaign, seed=7)
    queries: dict[str, list[str]] = {}
    did: dict[str, int] = {}
    for step in bench.ADVANCES:
        if step == "move->tactical":
            did["orders"] = bench.give_orders(campaign, state)
        if step == "tactical->commercial":
            did["battles"] = Battle.objects.filter(campaign=campaign).count()
            Battle.objects.filter(campaign=campaign).update(status=Battle.Status.FINISHED)
        with CaptureQueriesContext(connection) as captured:
            assert advance(campaign_id=campaign.pk, by="umpire").changed
        queries[step] = _statements([q["sql"] for q in captured.captured_queries])
    did["units"] = Unit.objects.filter(player__campaign=campaign).count()
    did["taken"] = Event.objects.filter(campaign=campaign, kind="territory_taken").count()
    did["produced"] = Event.objects.filter(campaign=campaign, kind="production").count()
    did["owned"] = Territory.objects.filter(campaign=campaign, owner__isnull=False).count()
    return {"queries": queries, "did": did}


def _statements(sqls: list[str]) -> list[str]:
    """The statements as the code issued them. SQLite takes at most 999 parameters a
    statement, so Django splits one bulk insert or update into batches there (on
    PostgreSQL it is one statement): a run of batches of one bulk write (the first with
    several rows) counts once. Anything else, a loop of single-row statements included,
    counts one by one."""
    result: list[str] = []
    for sql in sqls:
        if result and _shape(sql) == _shape(result[-1]) and (
                "), (" in result[-1] or " CASE WHEN " in result[-1]):
            continue  # the next batch (maybe of one row) of the same bulk write
        result.append(sql)
    return result


def _shape(sql: str) -> str:
    """A statement without its values and lists (to show which statement differs)."""
    sql = re.sub(r"'[^']*'|\b\d+\b", "?", sql)
    sql = re.sub(r"\((\?, )*\?\)(, \((\?, )*\?\))*", "(...)", sql)
    return sql[:120]


@pytest.mark.django_db(transaction=True)
def test_every_advance_costs_the_same_queries_at_two_sizes() -> None:
    bench = _bench()
    small = _turn(bench, 60, 3)
    large = _turn(bench, 240, 12)
    # The larger turn really did more: more territories held, units, orders, battles,
    # territories taken and players' production.
    for what in ("owned", "units", "orders", "battles", "taken", "produced"):
        assert large["did"][what] >= 3 * small["did"][what] > 0, what
    for step in bench.ADVANCES:
        a, b = small["queries"][step], large["queries"][step]
        if len(a) != len(b):
            extra = Counter(map(_shape, b))
            extra.subtract(Counter(map(_shape, a)))
            extra = +extra
            pytest.fail(f"{step}: {len(a)} queries at 60/3, {len(b)} at 240/12: {extra}")
    # And a turn is a few dozen statements per advance, not one per row.
    assert all(len(q) < 150 for q in large["queries"].values()), {
        step: len(q) for step, q in large["queries"].items()}
