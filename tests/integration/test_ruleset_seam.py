"""The ruleset seam on the production path: a campaign of a toy second ruleset (a coin
flip, tests/rulesets/coinflip.py, offered to the worker through EXTRA_RULESETS) has its
battle resolved by a real Celery worker over Redis and recorded in PostgreSQL from the
ruleset-neutral outcome, exactly once."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model

from battles.apps import offer
from battles.models import Battle, BattleRecord
from battles.rulesets import registry
from campaign import rulesets as core_rulesets
from campaign.models import Campaign, Event, PhaseChange, Player
from campaign.services import clock
from economy.models import Unit
from territories.models import Adjacency, Territory
from tests.integration.conftest import wait_for
from tests.rulesets.coinflip import RULESET as COINFLIP

pytestmark = pytest.mark.django_db(transaction=True)

WORKER_ENV = {"EXTRA_RULESETS": "coinflip=tests.rulesets.coinflip:RULESET"}


@pytest.fixture
def coinflip():
    registry.register(COINFLIP)
    offer(COINFLIP)
    yield COINFLIP
    registry.unregister("coinflip")
    core_rulesets.unregister("coinflip")


def test_a_worker_resolves_and_records_a_toy_rulesets_battle(coinflip, celery_process):
    users = {n: get_user_model().objects.create_user(username=n, password="x" * 12)
             for n in ("uma", "alice", "bob")}
    campaign = Campaign.objects.create(name="Coin league", umpire=users["uma"],
                                       status=Campaign.Status.RUNNING, turn=1, phase="move",
                                       seed=5, options={"ruleset": "coinflip"})
    PhaseChange.objects.create(campaign=campaign, turn=1, phase="move", opened_by="start")
    players = {n: Player.objects.create(campaign=campaign, user=users[n])
               for n in ("alice", "bob")}
    land = {n: Territory.objects.create(campaign=campaign, name=n)
            for n in ("Alpha", "Beta", "Gamma")}
    for a, b in itertools.pairwise(land.values()):
        Adjacency.objects.create(campaign=campaign, a=a, b=b)
    Territory.objects.filter(pk=land["Alpha"].pk).update(owner=players["alice"],
                                                          ever_owned=True)
    Territory.objects.filter(pk=land["Beta"].pk).update(owner=players["bob"], ever_owned=True)
    ours = [Unit.objects.create(player=players[who], territory=land["Beta"], model="coin",
                                name=f"{who}'s coin", state={"figures": 2, "wins": 0})
            for who in ("alice", "bob")]

    celery_process("worker", extra_env=WORKER_ENV)
    clock.advance(campaign_id=campaign.pk, by="umpire")
    battle = Battle.objects.get(campaign=campaign)
    assert battle.ruleset_name == "coinflip"

    wait_for(lambda: Battle.objects.filter(pk=battle.pk, status="finished").exists(),
             timeout=90, what="the worker to record the coin-flip battle")
    battle.refresh_from_db()
    assert BattleRecord.objects.filter(battle=battle).count() == 1
    assert Event.objects.filter(campaign=campaign, kind="battle_result").count() == 1
    assert battle.winner_id in (players["alice"].pk, players["bob"].pk)
    states = {u.player_id: (u.status, u.state) for u in Unit.objects.filter(
        pk__in=[u.pk for u in ours])}
    loser = next(p for p in states if p != battle.winner_id)
    assert states[battle.winner_id] == ("ready", {"figures": 2, "wins": 1})
    assert states[loser][0] == "destroyed"
    assert Territory.objects.get(pk=land["Beta"].pk).owner_id == battle.winner_id


@pytest.mark.parametrize(("ruleset", "key"), [("onepage", "rifle_squad"),
                                              ("battledice", "medium_infantry"),
                                              ("thirtymm", "standard_mech"),
                                              ("mobius", "acorn_royal_army")])
def test_a_worker_plays_a_battle_of_each_light_ruleset(ruleset, key, celery_process):
    import random

    from battles.rulesets.registry import find_ruleset
    from campaign.rules.dice import Dice

    rules = find_ruleset(ruleset)
    entry = next(e for e in rules.catalogue() if e.key == key)
    users = {n: get_user_model().objects.create_user(username=n, password="x" * 12)
             for n in ("uma", "alice", "bob")}
    campaign = Campaign.objects.create(name=f"{ruleset} league", umpire=users["uma"],
                                       status=Campaign.Status.RUNNING, turn=1, phase="move",
                                       seed=9, options={"ruleset": ruleset})
    PhaseChange.objects.create(campaign=campaign, turn=1, phase="move", opened_by="start")
    faction = entry.faction or ""  # Mobius: both seats field the unit's faction's list
    players = {n: Player.objects.create(campaign=campaign, user=users[n], faction=faction)
               for n in ("alice", "bob")}
    beta = Territory.objects.create(campaign=campaign, name="Beta")
    Territory.objects.filter(pk=beta.pk).update(owner=players["bob"], ever_owned=True)
    for who in ("alice", "bob", "bob"):
        Unit.objects.create(player=players[who], territory=beta, model=key, name=entry.name,
                            profile=dict(entry.profile), state=rules.initial_state(key))

    celery_process("worker")
    clock.advance(campaign_id=campaign.pk, by="umpire")
    battle = Battle.objects.get(campaign=campaign)
    wait_for(lambda: Battle.objects.filter(pk=battle.pk, status="finished").exists(),
             timeout=90, what=f"the worker to record the {ruleset} battle")
    battle.refresh_from_db()
    expected = rules.resolve(battle.input, Dice(random.Random(battle.input["seed"])))
    assert battle.winner_id == expected.winner
    assert battle.log == list(expected.log)
    assert BattleRecord.objects.filter(battle=battle).count() == 1
    assert Event.objects.filter(campaign=campaign, kind="battle_result").count() == 1
