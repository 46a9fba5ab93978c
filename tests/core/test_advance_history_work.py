"""Issue 32, target 3: a league's journal must not slow a turn. Counted, not timed: each
advance of turn 2 of the advance bench's played campaign (benchmarks/advance_bench.py,
`with_history`) issues the same statements, writes the same rows and (on SQLite) runs
the same number of virtual-machine steps after more turns of journal as without them."""

from __future__ import annotations

import pytest
from django.db import connection

from battles.models import Battle
from campaign.models import Event
from campaign.services.clock import advance
from tests.core.advance_bench_module import load_advance_bench


@pytest.mark.django_db(transaction=True)
def test_an_advance_does_the_same_work_with_a_longer_journal(monkeypatch) -> None:
    bench = load_advance_bench()
    monkeypatch.setattr(bench, "HISTORY_TURNS", 6)  # the journal of 5 more turns
    monkeypatch.setattr(bench, "HISTORY_RUNS", (True,))  # one timed run: the counts matter
    campaign = bench.build_campaign(60, 3, seed=7)
    state = bench.played_state(campaign, seed=7)
    for step in bench.ADVANCES:  # turn 1
        if step == "move->tactical":
            bench.give_orders(campaign, state)
        if step == "tactical->commercial":
            Battle.objects.filter(campaign=campaign).update(status=Battle.Status.FINISHED)
        assert advance(campaign_id=campaign.pk, by="umpire").changed
    last = Event.objects.filter(campaign=campaign).order_by("-pk").values_list("pk", flat=True)[0]
    measured = bench.with_history(campaign)

    assert list(measured) == list(bench.ADVANCES)
    for step, m in measured.items():
        without, with_history = m["work"][False], m["work"][True]
        assert without.key() == with_history.key(), step
        assert len(bench.statements(without.sqls)) > 5, step
        assert (without.vm_steps > 0) == (connection.vendor == "sqlite")
    # The history (copies of turn 1's entries) went with the runs that had it, even the
    # entries a rollback keeps: the runs without history had none.
    assert not Event.objects.filter(campaign=campaign, turn=1, pk__gt=last).exists()
