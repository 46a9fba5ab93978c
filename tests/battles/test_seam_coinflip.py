"""The seam, proven with a toy ruleset (tests/rulesets/coinflip.py): a campaign created
with it buys the ruleset's units, orders them like any other, and its battle is opened by
the ruleset's `forces`, resolved by the job with the ruleset's dice and recorded by the
campaign from the neutral outcome (fates, state, veterancy, ownership) exactly once."""

from __future__ import annotations

import random

import pytest

from battles.apps import offer
from battles.models import Battle
from battles.rulesets import registry
from campaign import rulesets as core_rulesets
from campaign.models import Event, PhaseChange
from campaign.rules.dice import Dice
from campaign.services import clock
from economy.models import Unit
from economy.services import ledger
from tests.rulesets.coinflip import RULESET as COINFLIP

pytestmark = pytest.mark.django_db


@pytest.fixture
def coinflip():
    registry.register(COINFLIP)
    offer(COINFLIP)
    yield COINFLIP
    registry.unregister("coinflip")
    core_rulesets.unregister("coinflip")


def _buy(api, w, who, where):
    return api.post(f"/api/campaigns/{w.campaign.pk}/purchases/",
                    {"territory": w.t[where].pk, "item": {"kind": "unit", "key": "coin"}},
                    format="json")


def test_a_toy_ruleset_plays_a_whole_turn_through_the_real_pipeline(
        coinflip, world, client_for, alice, bob, django_capture_on_commit_callbacks):
    w = world(options={"ruleset": "coinflip"}, owners={"Alpha": "alice", "Beta": "bob"})
    for where in ("Alpha", "Beta"):
        w.building(where, "landing_pad")
    w.campaign.phase = "commercial"
    w.campaign.save()
    PhaseChange.objects.filter(campaign=w.campaign).update(phase="commercial")
    for who in ("alice", "bob"):
        ledger.post(player=w.players[who], amount=100, reason="umpire_grant")
    api_a, api_b = client_for(alice), client_for(bob)

    catalogue = api_a.get(f"/api/campaigns/{w.campaign.pk}/catalogue/").json()
    assert [e["key"] for e in catalogue] == ["coin"]
    # Unlimit3d 8's goods are not for sale in this campaign: a clear 400, nothing spent.
    refused = api_a.post(f"/api/campaigns/{w.campaign.pk}/purchases/",
                         {"territory": w.t["Alpha"].pk,
                          "item": {"kind": "vehicle", "model": "golem"}}, format="json")
    assert refused.status_code == 400 and "catalogue" in refused.json()["detail"]
    bought = _buy(api_a, w, "alice", "Alpha")
    assert bought.status_code == 201, bought.content
    mine = Unit.objects.get(pk=bought.json()["unit"])
    assert (mine.model, mine.pilot_id, mine.state) == ("coin", None, {"figures": 2, "wins": 0})
    w.players["alice"].refresh_from_db()
    assert w.players["alice"].credits == 93  # the catalogue's 7 SC
    theirs = Unit.objects.get(pk=_buy(api_b, w, "bob", "Beta").json()["unit"])

    clock.advance(campaign_id=w.campaign.pk, by="umpire")  # -> activity
    clock.advance(campaign_id=w.campaign.pk, by="umpire")  # -> move
    order = api_a.post(f"/api/campaigns/{w.campaign.pk}/orders/",
                       {"unit": mine.pk, "destination": w.t["Beta"].pk}, format="json")
    assert order.status_code == 201, order.content
    with django_capture_on_commit_callbacks(execute=True):  # the job runs in-process
        clock.advance(campaign_id=w.campaign.pk, by="umpire")  # -> tactical: battle, job

    battle = Battle.objects.get(campaign=w.campaign)
    assert (battle.ruleset_name, battle.status) == ("coinflip", "finished")
    # each unit fights under the name it was given when bought (issue 26)
    assert battle.input["sides"] == {str(w.players["bob"].pk): [{"id": theirs.pk,
                                                                 "name": theirs.name}],
                                     str(w.players["alice"].pk): [{"id": mine.pk,
                                                                   "name": mine.name}]}
    assert mine.name.startswith("Coin bearer '") and theirs.name != mine.name
    # Replaying the stored input with its seed gives the recorded outcome.
    replayed = COINFLIP.resolve(battle.input, Dice(random.Random(battle.input["seed"])))
    winner = replayed.winner
    assert battle.winner_id == winner
    loser_unit, winner_unit = (theirs, mine) if winner == w.players["alice"].pk \
        else (mine, theirs)
    loser_unit.refresh_from_db()
    winner_unit.refresh_from_db()
    assert loser_unit.status == "destroyed"
    assert winner_unit.state == {"figures": 2, "wins": 1}  # the ruleset's veterancy
    w.t["Beta"].refresh_from_db()
    assert w.t["Beta"].owner_id == winner
    assert Event.objects.filter(campaign=w.campaign, kind="battle_result").count() == 1
    # Delivered again: nothing more is recorded.
    from battles.services.jobs import run_battle_job

    assert run_battle_job(battle_id=battle.pk) == "skipped"
    assert Event.objects.filter(campaign=w.campaign, kind="battle_result").count() == 1


def test_odds_in_a_toy_ruleset_use_its_own_monte_carlo(
        coinflip, world, client_for, alice, django_capture_on_commit_callbacks):
    w = world(options={"ruleset": "coinflip"}, owners={"Alpha": "alice"})
    unit = Unit.objects.create(player=w.players["alice"], territory=w.t["Alpha"],
                               model="coin", state={"figures": 2, "wins": 0})
    api = client_for(alice)
    bad = api.post(f"/api/campaigns/{w.campaign.pk}/odds/",
                   {"territory": w.t["Beta"].pk, "units": [unit.pk],
                    "enemy": [{"key": "golem"}]}, format="json")
    assert bad.status_code == 400 and "catalogue" in bad.json()["detail"]
    with django_capture_on_commit_callbacks(execute=True):
        asked = api.post(f"/api/campaigns/{w.campaign.pk}/odds/",
                         {"territory": w.t["Beta"].pk, "units": [unit.pk],
                          "enemy": [{"key": "coin"}], "simulations": 10}, format="json")
    assert asked.status_code in (201, 202), asked.content
    done = api.get(f"/api/campaigns/{w.campaign.pk}/odds/{asked.json()['id']}/").json()
    assert done["status"] == "finished", done
    assert done["result"]["win_probability"] == {"you": 0.5, "enemy": 0.5}
