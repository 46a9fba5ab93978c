"""Odds on the worker pool (issue 15): a large estimate is one job per chunk of
simulations; the last chunk merges them into the answer a single process gives."""

from __future__ import annotations

import pytest

from battles.models import OddsRequest
from battles.rulesets.unlimit3d8.engine import montecarlo
from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.services import odds as odds_service
from campaign.models import OutboxMessage

N = 2 * montecarlo.CHUNK + 5  # three chunks


def ask(w, client_for, alice, capture):
    mine = w.unit("alice", "Alpha")
    body = {"territory": w.t["Beta"].pk, "units": [mine.pk], "simulations": N,
            "enemy": [{"model": "golem", "pilot_class": "soldier", "pilot_level": 1,
                       "weapons": ["machine_gun"]}]}
    with capture(execute=True):
        response = client_for(alice).post(f"/api/campaigns/{w.campaign.pk}/odds/", body,
                                          format="json")
    assert response.status_code == 202, response.json()
    return OddsRequest.objects.get(pk=response.json()["id"])


@pytest.mark.parametrize("chunk_jobs", [True, False])
def test_a_split_estimate_gives_the_single_process_answer(
        world, client_for, alice, settings, django_capture_on_commit_callbacks, chunk_jobs):
    settings.ODDS_CHUNK_JOBS = chunk_jobs
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    odds = ask(w, client_for, alice, django_capture_on_commit_callbacks)
    assert odds.status == "finished", odds.error
    expected = montecarlo.estimate_odds(BattleInput.from_dict(odds.input), N, odds.seed)
    assert {k: v for k, v in odds.result.items() if k != "seconds"} == expected
    chunk_messages = OutboxMessage.objects.filter(task="battles.tasks.odds_chunk")
    if chunk_jobs:
        assert sorted(m.args[1:] for m in chunk_messages) == [
            [s, c] for s, c in montecarlo.chunks(N)]
        assert sorted(odds.partials) == sorted(str(s) for s, _ in montecarlo.chunks(N))
    else:
        assert not chunk_messages.exists() and odds.partials == {}


def test_a_chunk_delivered_again_changes_nothing(
        world, client_for, alice, settings, django_capture_on_commit_callbacks):
    settings.ODDS_CHUNK_JOBS = True
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    odds = ask(w, client_for, alice, django_capture_on_commit_callbacks)
    before = (odds.result, odds.partials, odds.finished_at)
    assert odds_service.run_odds_chunk(odds_id=odds.pk, start=0,
                                       count=montecarlo.CHUNK) == "skipped"
    assert odds_service.run_odds_job(odds_id=odds.pk) == "skipped"
    odds.refresh_from_db()
    assert (odds.result, odds.partials, odds.finished_at) == before
    # A request left running with one chunk counted: only the missing chunks are sent.
    OddsRequest.objects.filter(pk=odds.pk).update(
        status="running", result=None, partials={"0": odds.partials["0"]})
    OutboxMessage.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        assert odds_service.run_odds_job(odds_id=odds.pk) == "split"
    assert sorted(m.args[1] for m in OutboxMessage.objects.all()) == [
        s for s, _ in montecarlo.chunks(N)[1:]]
    odds.refresh_from_db()
    assert odds.status == "finished" and odds.result["win_probability"] == \
        before[0]["win_probability"]
