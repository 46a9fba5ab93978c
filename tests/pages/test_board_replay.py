"""The battle page replays every ruleset's battle on its board (issue 26, item 8),
without a browser: the board, the rounds stated in the ruleset's word, each step
reachable by the step buttons (htmx), a turn that does not exist shows the deployment,
and Unlimit3d 8's full log is grouped by the rounds the report counts."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_replays import RULESETS, _finished_battle

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_the_battle_page_shows_the_board_and_every_step_of_any_ruleset(
        web_client, make_campaign, uma, alice, bob, ruleset_name) -> None:
    battle = _finished_battle(make_campaign, uma, alice, bob, ruleset_name)
    client = web_client(alice)
    url = f"/campaigns/{battle.campaign_id}/battles/{battle.pk}/"
    page = client.get(url).content.decode()
    assert 'class="battlefield"' in page and "Deployment" in page
    rounds = battle.result["rounds"]
    assert f'data-rounds="{rounds}"' in page
    turns = [int(t) for t in re.findall(r'\?turn=(\d+)#replay"', page)]
    assert turns, "the step buttons"
    last = max(turns)
    step = client.get(f"{url}?turn={last}", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in step and 'class="battlefield"' in step
    assert re.search(rf"(Round|Turn) {rounds} of {rounds}", step)
    assert 'data-replay="next"' not in step
    for wrong in ("nonsense", "999999", "-1"):
        odd = client.get(f"{url}?turn={wrong}", HTTP_HX_REQUEST="true")
        assert odd.status_code == 200 and "Deployment" in odd.content.decode()
    assert not re.search(r">unit \d+", step), "units by their names, never their ids"


def test_the_full_log_of_an_unlimit3d8_battle_counts_rounds_like_the_report(
        web_client, make_campaign, uma, alice, bob) -> None:
    battle = _finished_battle(make_campaign, uma, alice, bob, "unlimit3d8")
    page = web_client(alice).get(
        f"/campaigns/{battle.campaign_id}/battles/{battle.pk}/").content.decode()
    rounds = battle.result["rounds"]
    summaries = re.findall(r"<summary>(Round \d+|Deployment|Turn \d+)", page)
    assert summaries[-1] == f"Round {rounds}" and not any(s.startswith("Turn") for s in summaries)
    assert f"lasted <strong>{rounds} rounds</strong>" in page


@pytest.mark.parametrize("ruleset_name", ["unlimit3d8", "onepage"])
def test_a_battle_played_on_the_table_has_no_steps_to_replay_and_says_so(
        web_client, make_campaign, uma, alice, bob, ruleset_name) -> None:
    battle = _finished_battle(make_campaign, uma, alice, bob, ruleset_name)
    battle.mode, battle.log = "tabletop", []
    battle.result = {**battle.result, "log": []}
    battle.save(update_fields=["mode", "log", "result"])
    res = web_client(alice).get(f"/campaigns/{battle.campaign_id}/battles/{battle.pk}/")
    page = res.content.decode()
    assert res.status_code == 200
    assert 'class="battlefield"' not in page and "data-rounds" not in page
    assert "Nothing to replay." in page or "replays as its own log" in page
