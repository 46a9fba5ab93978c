"""Battle jobs on the production path: PostgreSQL, Redis and real worker processes, with
the real engine. A whole turn's battles are resolved by a worker; a worker SIGKILLed in
the middle of a battle job leaves it to a new worker, and the battle is recorded once."""

from __future__ import annotations

import itertools
import signal
import time

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, BattleRecord
from campaign.models import Campaign, Event, PhaseChange, Player
from campaign.rules import tables as T
from campaign.services import clock
from economy.models import Building, Operative, Unit, Weapon
from territories.models import Adjacency, Territory
from tests.integration.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")


def build_turn(seed: int = 21) -> tuple[Campaign, dict[str, Player], dict[str, Territory]]:
    """A running campaign in its move phase where two battles will open: alice attacks
    bob on Beta and charlie on Delta; Gamma is taken unopposed."""
    users = {n: get_user_model().objects.create_user(username=n, password="x" * 12)
             for n in ("uma", "alice", "bob", "charlie")}
    campaign = Campaign.objects.create(name="Integration battles", umpire=users["uma"],
                                       status=Campaign.Status.RUNNING, turn=1, phase="move",
                                       seed=seed)
    PhaseChange.objects.create(campaign=campaign, turn=1, phase="move", opened_by="start")
    players = {n: Player.objects.create(campaign=campaign, user=users[n])
               for n in ("alice", "bob", "charlie")}
    territories = {n: Territory.objects.create(campaign=campaign, name=n) for n in NAMES}
    for a, b in itertools.pairwise(NAMES):
        ta, tb = sorted((territories[a], territories[b]), key=lambda t: t.pk)
        Adjacency.objects.create(campaign=campaign, a=ta, b=tb)
    for name, who in (("Alpha", "alice"), ("Beta", "bob"), ("Delta", "charlie"),
                      ("Epsilon", "charlie")):
        Territory.objects.filter(pk=territories[name].pk).update(owner=players[who],
                                                                  ever_owned=True)
    Building.objects.create(territory=territories["Beta"], kind="radar", x=4, y=4,
                            active=True, hit_points=T.BUILDINGS["radar"].hit_points)

    def unit(who: str, where: str, klass: str = "soldier") -> Unit:
        pilot = Operative.objects.create(player=players[who], territory=territories[where],
                                         klass=klass)
        u = Unit.objects.create(player=players[who], territory=territories[where],
                                model="golem", pilot=pilot)
        Weapon.objects.create(player=players[who], weapon="machine_gun", unit=u, slot=0)
        return u

    unit("alice", "Beta")
    unit("alice", "Beta", "worker")
    unit("bob", "Beta")
    unit("alice", "Delta")
    unit("charlie", "Delta", "bandit")
    unit("alice", "Gamma")
    return campaign, players, territories


def test_a_worker_resolves_every_battle_of_a_turn(celery_process):
    campaign, players, territories = build_turn()
    celery_process("worker")
    clock.advance(campaign_id=campaign.pk, by="umpire")
    battles = list(Battle.objects.filter(campaign=campaign))
    assert len(battles) == 2
    assert Territory.objects.get(pk=territories["Gamma"].pk).owner_id == players["alice"].pk

    def all_finished() -> bool:
        return Battle.objects.filter(campaign=campaign, status="finished").count() == 2

    wait_for(all_finished, timeout=90, what="both battles to be recorded by the worker")
    assert BattleRecord.objects.filter(battle__campaign=campaign).count() == 2
    assert Event.objects.filter(campaign=campaign, kind="battle_result").count() == 2
    for battle in Battle.objects.filter(campaign=campaign):
        assert battle.log and battle.attempts == 1
    # Every surviving character earned its survival XP exactly once.
    survivors = Operative.objects.filter(player__campaign=campaign, xp__gte=1).count()
    assert survivors >= 2
    result = clock.advance(campaign_id=campaign.pk, by="umpire")
    assert result.changed and result.campaign.phase == "commercial"


def test_a_battle_survives_its_worker_being_killed(celery_process):
    """SIGKILL the worker while the job runs (acks_late + reject_on_worker_lost: the message
    stays unacknowledged); after Redis's visibility timeout a new worker gets it again, and
    the battle is recorded exactly once."""
    campaign, _players, _territories = build_turn(seed=22)
    # The lease is shorter than the visibility timeout: the redelivered job finds the
    # killed worker's claim expired and takes it (a live claim is never taken twice).
    env = {"BATTLE_TEST_DELAY_SECONDS": "6", "CELERY_VISIBILITY_TIMEOUT": "5",
           "BATTLE_LEASE_SECONDS": "3"}
    first = celery_process("worker", extra_env=env)
    clock.advance(campaign_id=campaign.pk, by="umpire")
    target = Battle.objects.filter(campaign=campaign).order_by("order").first()

    def running() -> bool:
        return Battle.objects.filter(campaign=campaign, status="running").exists()

    wait_for(running, timeout=30, what="the first worker to start a battle job")
    first.kill(signal.SIGKILL)
    killed_during = list(Battle.objects.filter(campaign=campaign, status="running")
                         .values_list("pk", flat=True))
    assert killed_during
    assert not BattleRecord.objects.filter(battle_id__in=killed_during).exists()
    time.sleep(1)
    celery_process("worker", extra_env={**env, "BATTLE_TEST_DELAY_SECONDS": "0"})

    def all_finished() -> bool:
        return Battle.objects.filter(campaign=campaign, status="finished").count() == 2

    wait_for(all_finished, timeout=120, what="a new worker to finish the battles")
    assert BattleRecord.objects.filter(battle__campaign=campaign).count() == 2
    for pk in killed_during:
        battle = Battle.objects.get(pk=pk)
        assert battle.attempts == 2  # claimed by the killed worker, then by the new one
        assert Event.objects.filter(campaign=campaign, kind="battle_result",
                                    data__battle=pk).count() == 1
    assert target is not None


def test_a_worker_pool_shares_an_odds_estimate_and_gives_the_one_process_answer(
        celery_process):
    """Issue 15, target 3: with a broker, a large estimate is one odds_chunk job per 50
    simulations on the real worker; the last chunk merges them, and the answer is the
    one a single process gives for the same seed."""
    from battles.models import OddsRequest
    from battles.rulesets.unlimit3d8.engine import montecarlo
    from battles.rulesets.unlimit3d8.engine.model import BattleInput
    from battles.services.odds import request_odds
    from campaign.models import OutboxMessage

    campaign, players, territories = build_turn()
    alice = players["alice"]
    alice.campaign = campaign
    mine = Unit.objects.filter(player=alice, territory=territories["Beta"]).first()
    n = 2 * montecarlo.CHUNK + 7
    celery_process("worker")
    odds = request_odds(player=alice, territory_id=territories["Beta"].pk,
                        unit_ids=[mine.pk], simulations=n,
                        enemy=[{"model": "golem", "pilot_class": "soldier",
                                "pilot_level": 1, "weapons": ["machine_gun"]}])
    wait_for(lambda: OddsRequest.objects.filter(pk=odds.pk, status="finished").exists(),
             timeout=90, what="the worker to merge the odds chunks")
    odds.refresh_from_db()
    assert OutboxMessage.objects.filter(task="battles.tasks.odds_chunk").count() == 3
    assert sorted(odds.partials) == sorted(str(s) for s, _ in montecarlo.chunks(n))
    expected = montecarlo.estimate_odds(BattleInput.from_dict(odds.input), n, odds.seed)
    assert {k: v for k, v in odds.result.items() if k != "seconds"} == expected
