"""Issue 15, target 1: every phase advance costs the same number of queries whatever
the size of the campaign. Two played campaigns (the fixture of
benchmarks/advance_bench.py: buildings, stock, piloted units, sealed orders onto own,
unowned and rivals' territories, battles), the second four times the first in
territories, players and units, go through a whole turn; each advance must issue
exactly as many queries in both."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from campaign.models import Event
from campaign.services.clock import advance
from economy.models import Unit
from territories.models import Territory
from tests.core.advance_bench_module import load_advance_bench


def _turn(bench: Any, territories: int, players: int, mode: str = "tabletop"
          ) -> dict[str, Any]:
    """Queries (SQL) of each advance of turn 1, and what the turn did."""
    campaign = bench.build_campaign(territories, players, seed=7)
    if mode != "tabletop":
        from campaign.models import Campaign

        Campaign.objects.filter(pk=campaign.pk).update(
            options={**campaign.options, "battle_mode": mode})
        campaign.refresh_from_db()
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
        # A bulk write split into batches by SQLite's limit of parameters counts once.
        queries[step] = bench.statements([q["sql"] for q in captured.captured_queries])
    did["units"] = Unit.objects.filter(player__campaign=campaign).count()
    did["taken"] = Event.objects.filter(campaign=campaign, kind="territory_taken").count()
    did["produced"] = Event.objects.filter(campaign=campaign, kind="production").count()
    did["owned"] = Territory.objects.filter(campaign=campaign, owner__isnull=False).count()
    return {"queries": queries, "did": did}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mode", ["tabletop", "engine"])
def test_every_advance_costs_the_same_queries_at_two_sizes(mode: str, monkeypatch) -> None:
    """In the engine mode the turn's battle jobs are committed to the outbox in one
    statement; sending them after commit is the jobs' business, not the advance's (here
    they stay unsent, as when the broker is away)."""
    from campaign.services import outbox

    waiting: list[int] = []
    monkeypatch.setattr(outbox, "dispatch", lambda ids: waiting.extend(ids) or 0)
    bench = load_advance_bench()
    small = _turn(bench, 60, 3, mode)
    large = _turn(bench, 240, 12, mode)
    if mode == "engine":
        assert len(waiting) >= large["did"]["battles"] + small["did"]["battles"]
    # The larger turn really did more: more territories held, units, orders, battles,
    # territories taken and players' production.
    for what in ("owned", "units", "orders", "battles", "taken", "produced"):
        assert large["did"][what] >= 3 * small["did"][what] > 0, what
    for step in bench.ADVANCES:
        a, b = small["queries"][step], large["queries"][step]
        if len(a) != len(b):
            extra = Counter(map(bench.shape, b))
            extra.subtract(Counter(map(bench.shape, a)))
            extra = +extra
            pytest.fail(f"{step}: {len(a)} queries at 60/3, {len(b)} at 240/12: {extra}")
    # And a turn is a few dozen statements per advance, not one per row.
    assert all(len(q) < 150 for q in large["queries"].values()), {
        step: len(q) for step, q in large["queries"].items()}
