"""Odds: a Monte Carlo estimate of a battle a player could fight, in one background job.

Only what the player is entitled to know goes in (R-BJ-8): their own units as they are;
the enemy units revealed by the last battle fought on that territory (the journal made
them public: the winner's surviving units, as recorded then) plus any hypothetical enemy
the player describes; the territory's buildings only when the player owns it (other
players' buildings are not shown to them). Nothing sealed — orders, current positions
of other players' units — is read.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, OddsRequest
from battles.rulesets.base import ENEMY, OWN, OddsQuestion, Ruleset, RulesetError
from battles.rulesets.registry import find_ruleset
from battles.services.battle_options import ruleset_options
from battles.services.inputs import battlefield
from campaign.dice import derived_seed
from campaign.env import envbool, envint
from campaign.errors import InvalidInput, NotFound
from campaign.models import Player
from campaign.services import outbox
from campaign.services.locking import retry_on_conflict
from economy.models import Building, Unit
from orders.selectors import TurnPlans
from territories.models import Territory

log = logging.getLogger(__name__)

__all__ = ["ENEMY", "OWN", "odds_for", "request_odds", "run_odds_chunk", "run_odds_job"]

DEFAULT_SIMULATIONS = 200
#: The side a request's enemy takes in a ruleset's battle input (no player has this id).
ENEMY_PLAYER = 0


@retry_on_conflict
def request_odds(*, player: Player, territory_id: int | None, unit_ids: list[int],
                 enemy: list[dict[str, Any]] | None = None,
                 simulations: int | None = None) -> OddsRequest:
    """Check the request, freeze the simulated battle's input, enqueue the job."""
    campaign = player.campaign
    territory = Territory.objects.filter(campaign=campaign, pk=territory_id).first() \
        if territory_id is not None else None
    if territory is None:
        raise InvalidInput("No such territory in this campaign.", code="invalid_territory",
                           fields={"territory": ["Unknown territory."]})
    if not unit_ids:
        raise InvalidInput("Name at least one of your units by id.", code="invalid_units",
                           fields={"units": ["A non-empty list of unit ids."]})
    ruleset = find_ruleset(campaign.settings.ruleset)
    ready = Unit.objects.filter(player=player, pk__in=unit_ids, status=Unit.Status.READY)
    if ruleset.pilots:
        ready = ready.filter(pilot__isnull=False)
    units = list(ready.select_related("pilot").prefetch_related("weapons"))
    if len(units) != len(set(unit_ids)):
        what = "piloted, ready" if ruleset.pilots else "ready"
        raise InvalidInput(f"Every unit must be one of your own {what} units.",
                           code="invalid_units", fields={"units": ["Not your unit."]})
    limit = campaign.settings.odds_max_simulations
    n = DEFAULT_SIMULATIONS if simulations is None else simulations
    if not 1 <= n <= limit:
        raise InvalidInput(f"simulations must be 1 to {limit}.", code="invalid_simulations")
    last = (Battle.objects.filter(campaign_id=campaign.pk, territory=territory,
                                  status=Battle.Status.FINISHED)
            .order_by("-turn", "-order").first())
    known = (None if last is None or not last.result or last.winner_id in (None, player.pk)
             else {"input": last.input, "result": last.result, "sides": last.sides,
                   "winner": last.winner_id})
    owns = territory.owner_id == player.pk
    count = OddsRequest.objects.filter(player=player).count()
    seed = derived_seed(campaign.seed, "odds", player.pk, count + 1)
    field = battlefield(
        territory_id=territory.pk, defender=player.pk if owns else ENEMY_PLAYER,
        sides={player.pk: units}, seed=seed, options=ruleset_options(campaign, ruleset),
        buildings=(Building.objects.filter(territory=territory, hit_points__gt=0)
                   if owns else ()),
        # issue 29: the estimate fights with the plan the player has sealed for this
        # battlefield (or their standing plan)
        plans=TurnPlans(campaign_id=campaign.pk, turn=campaign.turn,
                        players=[player.pk]).at(territory.pk, [player.pk]))
    try:
        data = ruleset.odds_input(OddsQuestion(
            battlefield=field, player=player.pk, enemy_player=ENEMY_PLAYER,
            described=enemy, last=known))
    except RulesetError as exc:
        raise InvalidInput(str(exc), code=exc.code or "invalid_enemy",
                           fields=exc.fields) from exc
    with transaction.atomic():
        odds = OddsRequest.objects.create(
            campaign=campaign, player=player, territory=territory,
            units=sorted(u.pk for u in units), simulations=n, seed=seed, input=data)
        outbox.send_later("battles.tasks.estimate_odds", odds.pk)
    return odds


def _workers() -> int:
    """Processes an embedded-mode estimate may use: setting (or environment variable)
    ODDS_WORKERS; 0, the default: one per CPU."""
    configured = getattr(settings, "ODDS_WORKERS", None)
    if configured is None:
        configured = envint("ODDS_WORKERS", 0)
    return int(configured) if int(configured) > 0 else (os.cpu_count() or 1)


def _chunk_jobs_enabled() -> bool:
    """Whether large estimates are split into jobs: setting (or environment variable)
    ODDS_CHUNK_JOBS; by default when there is a broker (a worker pool to share them)."""
    configured = getattr(settings, "ODDS_CHUNK_JOBS", None)
    if configured is None:
        configured = envbool("ODDS_CHUNK_JOBS", not settings.CELERY_TASK_ALWAYS_EAGER)
    return bool(configured)


def _ruleset_of(data: dict[str, Any]) -> Ruleset:
    """The ruleset an odds request was made in: named in its stored input (a request
    stored without a name is the default ruleset's, as every request was before there
    were others)."""
    return find_ruleset(data.get("ruleset"))


def _simulate(data: dict[str, Any], n: int, seed: int) -> dict[str, Any]:
    """The Monte Carlo of the ruleset the request was made in; sides named "you" and
    "enemy" whatever the ruleset calls them."""
    return _ruleset_of(data).odds_estimate(data, simulations=n, seed=seed,
                                           workers=_workers())


def _chunk_jobs(data: dict[str, Any], n: int) -> list[tuple[int, int]]:
    """The chunks sent as jobs of their own (an estimate the ruleset splits into more than
    one chunk, with a worker pool to share them: setting ODDS_CHUNK_JOBS); else none."""
    if not _chunk_jobs_enabled():
        return []
    return _ruleset_of(data).odds_chunks(data, n)


def run_odds_job(*, odds_id: int) -> str:
    """The body of `battles.tasks.estimate_odds`. A second delivery of a finished request
    does nothing; a request left running by a dead worker is simply run again. On the
    worker pool a large estimate is split: one `battles.tasks.odds_chunk` job per chunk
    not yet counted (sent through the outbox, so a lost one is sent again), the last to
    finish merges the counts."""
    with transaction.atomic():
        odds = OddsRequest.objects.select_for_update().filter(pk=odds_id).first()
        if odds is None or odds.status == OddsRequest.Status.FINISHED:
            return "skipped"
        odds.status = OddsRequest.Status.RUNNING
        odds.save(update_fields=["status"])
        data, n, seed = odds.input, odds.simulations, odds.seed
        parts = _chunk_jobs(data, n)
        for start, count in parts:
            if str(start) not in (odds.partials or {}):
                outbox.send_later("battles.tasks.odds_chunk", odds.pk, start, count)
        if parts:
            return "split"
    started = time.perf_counter()
    try:
        estimate = _simulate(data, n, seed)
    except Exception as exc:
        log.exception("odds %s failed", odds_id)
        OddsRequest.objects.filter(pk=odds_id).update(
            status=OddsRequest.Status.FAILED, error=f"{type(exc).__name__}: {exc}",
            finished_at=timezone.now())
        return "failed"
    estimate["seconds"] = round(time.perf_counter() - started, 3)
    OddsRequest.objects.filter(pk=odds_id).exclude(status=OddsRequest.Status.FINISHED).update(
        status=OddsRequest.Status.FINISHED, result=estimate, finished_at=timezone.now())
    return "finished"


def run_odds_chunk(*, odds_id: int, start: int, count: int) -> str:
    """The body of `battles.tasks.odds_chunk`: count one chunk's simulations (no lock held
    meanwhile), then, under the request's row lock, keep its counts once; the chunk that
    completes the set merges them (the same answer as one process would give) and
    finishes the request. A chunk delivered twice or after the end changes nothing."""
    odds = OddsRequest.objects.filter(pk=odds_id).first()
    if odds is None or odds.status != OddsRequest.Status.RUNNING \
            or str(start) in (odds.partials or {}):
        return "skipped"
    ruleset = _ruleset_of(odds.input)
    started = time.perf_counter()
    try:
        counts = ruleset.odds_chunk(odds.input, odds.seed, (start, count))
    except Exception as exc:
        log.exception("odds %s chunk %s failed", odds_id, start)
        OddsRequest.objects.filter(pk=odds_id).exclude(
            status=OddsRequest.Status.FINISHED).update(
            status=OddsRequest.Status.FAILED, error=f"{type(exc).__name__}: {exc}",
            finished_at=timezone.now())
        return "failed"
    seconds = time.perf_counter() - started
    with transaction.atomic():
        odds = OddsRequest.objects.select_for_update().filter(pk=odds_id).first()
        if odds is None or odds.status != OddsRequest.Status.RUNNING:
            return "skipped"
        partials = dict(odds.partials or {})
        if str(start) in partials:
            return "skipped"
        partials[str(start)] = {**counts, "seconds": seconds}
        odds.partials = partials
        fields = ["partials"]
        parts = ruleset.odds_chunks(odds.input, odds.simulations)
        if all(str(s) in partials for s, _ in parts):
            estimate = ruleset.odds_merge(odds.input, odds.simulations, odds.seed,
                                          (partials[str(s)] for s, _ in parts))
            # The simulation time summed over the chunks (they ran side by side).
            estimate["seconds"] = round(sum(partials[str(s)]["seconds"] for s, _ in parts), 3)
            odds.result, odds.status, odds.finished_at = (
                estimate, OddsRequest.Status.FINISHED, timezone.now())
            fields += ["result", "status", "finished_at"]
        odds.save(update_fields=fields)
    return "counted"


def odds_for(*, player: Player, odds_id: int) -> OddsRequest:
    odds = OddsRequest.objects.filter(pk=odds_id, player=player).first()
    if odds is None:
        raise NotFound("No such odds request.")
    return odds
