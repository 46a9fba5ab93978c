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
from dataclasses import replace
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, OddsRequest
from battles.rulesets.base import FieldUnit
from battles.rulesets.registry import find_ruleset
from battles.rulesets.unlimit3d8.engine import montecarlo
from battles.rulesets.unlimit3d8.engine.model import BattleInput, UnitInput, WeaponInput
from battles.services.battle_options import ruleset_options
from battles.services.inputs import battlefield, building_input, unit_input
from campaign.dice import derived_seed
from campaign.env import envbool, envint
from campaign.errors import InvalidInput, NotFound
from campaign.models import Player
from campaign.rules import tables as T
from campaign.services import outbox
from campaign.services.locking import retry_on_conflict

log = logging.getLogger(__name__)

OWN, ENEMY = "you", "enemy"
DEFAULT_SIMULATIONS = 200


def _revealed_enemies(player: Player, territory: Any) -> list[UnitInput]:
    last = (Battle.objects.filter(campaign_id=player.campaign_id, territory=territory,
                                  status=Battle.Status.FINISHED)
            .order_by("-turn", "-order").first())
    if last is None or not last.result or last.winner_id in (None, player.pk):
        return []
    fates = {str(u["id"]): u for u in last.result.get("units", [])}
    enemies = []
    for data in last.input.get("sides", {}).get(str(last.winner_id), []):
        outcome = fates.get(str(data["id"]))
        if outcome is None or outcome["fate"] not in ("intact", "damaged"):
            continue
        unit = UnitInput.from_dict(data)
        enemies.append(replace(unit, side=ENEMY, position=None,
                               hit_points_lost_repairable=int(outcome["repairable"]),
                               hit_points_lost_unrepairable=int(outcome["unrepairable"])))
    return enemies


def _hypothetical(index: int, data: Any) -> UnitInput:
    if not isinstance(data, dict):
        raise InvalidInput("Each enemy is an object with model, pilot_class, pilot_level "
                           "and weapons.", code="invalid_enemy")
    try:
        vehicle = T.vehicle(str(data["model"])).key
        klass = T.pilot_class(str(data.get("pilot_class", "soldier"))).key
        level = int(data.get("pilot_level", 1))
        if not 1 <= level <= T.MAX_LEVEL:
            raise ValueError(f"pilot_level must be 1 to {T.MAX_LEVEL}")
        weapons = tuple(
            WeaponInput(key=T.weapon(str(w["key"] if isinstance(w, dict) else w)).key,
                        templates=tuple(w.get("templates", ())) if isinstance(w, dict)
                        else ())
            for w in data.get("weapons", ()))
    except Exception as exc:  # rule lookups raise their own errors
        raise InvalidInput(f"Enemy {index + 1}: {exc}", code="invalid_enemy") from exc
    return UnitInput(id=f"enemy-{index + 1}", side=ENEMY, name=f"enemy {index + 1}",
                     vehicle=vehicle, pilot_class=klass, pilot_level=level, weapons=weapons,
                     pilot_id=None)


@retry_on_conflict
def request_odds(*, player: Player, territory_id: Any, unit_ids: Any,
                 enemy: Any = None, simulations: Any = None) -> OddsRequest:
    """Check the request, freeze the simulated battle's input, enqueue the job."""
    from economy.models import Unit
    from territories.models import Territory

    campaign = player.campaign
    territory = Territory.objects.filter(campaign=campaign, pk=territory_id).first() \
        if str(territory_id).isdigit() else None
    if territory is None:
        raise InvalidInput("No such territory in this campaign.", code="invalid_territory",
                           fields={"territory": ["Unknown territory."]})
    if not isinstance(unit_ids, list) or not unit_ids \
            or not all(isinstance(u, int) for u in unit_ids):
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
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= limit:
        raise InvalidInput(f"simulations must be 1 to {limit}.", code="invalid_simulations")
    if ruleset.name != "unlimit3d8":
        return _ruleset_odds(player, territory, units, enemy, n, ruleset)
    enemies = _revealed_enemies(player, territory)
    if enemy is not None:
        if not isinstance(enemy, list):
            raise InvalidInput("enemy must be a list of units.", code="invalid_enemy")
        enemies += [_hypothetical(i, e) for i, e in enumerate(enemy)]
    if not enemies:
        raise InvalidInput("No enemy is known on that territory; describe one with "
                           "\"enemy\".", code="no_known_enemy")
    own = tuple(replace(unit_input(u, side=OWN), position=None) for u in units)
    owns = territory.owner_id == player.pk
    buildings = ()
    if owns:
        from economy.models import Building

        buildings = tuple(building_input(b) for b in
                          Building.objects.filter(territory=territory, hit_points__gt=0))
    count = OddsRequest.objects.filter(player=player).count()
    seed = derived_seed(campaign.seed, "odds", player.pk, count + 1)
    sides = {OWN: own, ENEMY: tuple(enemies)} if owns else {ENEMY: tuple(enemies), OWN: own}
    battle = BattleInput(territory=territory.pk, defender=OWN if owns else ENEMY,
                         sides=sides, buildings=buildings, seed=seed)
    with transaction.atomic():
        odds = OddsRequest.objects.create(
            campaign=campaign, player=player, territory=territory,
            units=sorted(u.pk for u in units), simulations=n, seed=seed,
            input=battle.to_dict())
        outbox.send_later("battles.tasks.estimate_odds", odds.pk)
    return odds


#: The side a request's enemy takes in a ruleset's battle input (no player has this id).
ENEMY_PLAYER = 0


def _catalogue_unit(ruleset: Any, index: int, key: Any, state: Any = None,
                    uid: int | None = None, name: str | None = None,
                    options: dict[str, Any] | None = None) -> FieldUnit:
    entry = next((e for e in ruleset.catalogue(options=options) if e.key == key), None)
    if entry is None:
        raise InvalidInput(f"Enemy {index + 1}: no unit {key!r} in the {ruleset.title} "
                           "catalogue.", code="invalid_enemy")
    if state is not None and not isinstance(state, dict):
        raise InvalidInput(f"Enemy {index + 1}: 'state' is an object.", code="invalid_enemy")
    return FieldUnit(id=uid if uid is not None else -(index + 1), player=ENEMY_PLAYER,
                     key=entry.key, name=name or f"enemy {entry.name}",
                     profile=dict(entry.profile),
                     state={**ruleset.initial_state(entry.key), **(state or {})})


def _revealed_field_units(player: Player, territory: Any, ruleset: Any) -> list[FieldUnit]:
    """R-BJ-8 for every ruleset: the winner's surviving units of the last battle fought on
    the territory, as that battle's public result recorded them."""
    last = (Battle.objects.filter(campaign_id=player.campaign_id, territory=territory,
                                  status=Battle.Status.FINISHED)
            .order_by("-turn", "-order").first())
    if last is None or not last.result or last.winner_id in (None, player.pk):
        return []
    fates = {int(u["id"]): u for u in last.result.get("units", [])}
    found = []
    for side in last.sides:
        if side["player"] != last.winner_id:
            continue
        for i, unit in enumerate(side["units"]):
            fate = fates.get(int(unit["id"]))
            if fate is None or fate.get("fate") not in ("intact", "damaged"):
                continue
            found.append(_catalogue_unit(ruleset, i, unit["model"], fate.get("state"),
                                         uid=int(unit["id"]), name=unit.get("name"),
                                         options=ruleset_options(player.campaign, ruleset)))
    return found


def _ruleset_odds(player: Player, territory: Any, units: list[Any], enemy: Any, n: int,
                  ruleset: Any) -> OddsRequest:
    """Odds in a ruleset other than Unlimit3d 8: the player's units against the enemy they
    may know of (revealed, or described as `{"key", "state"}` from the catalogue), built
    by the ruleset's own `forces` and estimated by its own Monte Carlo."""
    from economy.models import Building

    enemies = _revealed_field_units(player, territory, ruleset)
    if enemy is not None:
        if not isinstance(enemy, list):
            raise InvalidInput("enemy must be a list of units.", code="invalid_enemy")
        for i, e in enumerate(enemy):
            if not isinstance(e, dict):
                raise InvalidInput("Each enemy is an object with a catalogue 'key'.",
                                   code="invalid_enemy")
            enemies.append(_catalogue_unit(ruleset, i, e.get("key"), e.get("state"),
                                           options=ruleset_options(player.campaign, ruleset)))
    if not enemies:
        raise InvalidInput("No enemy is known on that territory; describe one with "
                           "\"enemy\".", code="no_known_enemy")
    campaign = player.campaign
    owns = territory.owner_id == player.pk
    count = OddsRequest.objects.filter(player=player).count()
    seed = derived_seed(campaign.seed, "odds", player.pk, count + 1)
    field = battlefield(
        territory_id=territory.pk, defender=player.pk if owns else ENEMY_PLAYER,
        sides={player.pk: units}, seed=seed, options=ruleset_options(campaign, ruleset),
        buildings=(Building.objects.filter(territory=territory, hit_points__gt=0)
                   if owns else ()))
    field = replace(field, sides={**field.sides, ENEMY_PLAYER: tuple(enemies)})
    data = ruleset.forces(field)
    with transaction.atomic():
        odds = OddsRequest.objects.create(
            campaign=campaign, player=player, territory=territory,
            units=sorted(u.pk for u in units), simulations=n, seed=seed,
            input={"ruleset": ruleset.name, "you": str(player.pk), "battle": data})
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


def _simulate(data: dict[str, Any], n: int, seed: int) -> dict[str, Any]:
    """The Monte Carlo of the ruleset the request was made in; sides named "you" and
    "enemy" whatever the ruleset calls them."""
    if "ruleset" not in data:  # Unlimit3d 8's engine input, sides already you/enemy
        return montecarlo.estimate_odds(BattleInput.from_dict(data), n, seed,
                                        workers=_workers())
    estimate = find_ruleset(data["ruleset"]).odds(data["battle"], simulations=n, seed=seed)
    you = data["you"]

    def named(values: Any) -> Any:
        if not isinstance(values, dict):
            return values
        return {(OWN if k == you else "none" if k == "none" else ENEMY): v
                for k, v in values.items()}

    return {k: named(v) if k in ("win_probability", "expected_units_lost",
                                 "expected_hit_points_lost") else v
            for k, v in estimate.items()}


def _chunk_jobs(data: dict[str, Any], n: int) -> list[montecarlo.Chunk]:
    """The chunks sent as jobs of their own (an Unlimit3d 8 estimate of more than one
    chunk, with a worker pool to share them: setting ODDS_CHUNK_JOBS); else none."""
    if "ruleset" in data or not _chunk_jobs_enabled():
        return []
    parts = montecarlo.chunks(n)
    return parts if len(parts) > 1 else []


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
    battle = BattleInput.from_dict(odds.input)
    started = time.perf_counter()
    try:
        counts = montecarlo.run_chunk(battle, odds.seed, (start, count))
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
        parts = montecarlo.chunks(odds.simulations)
        if all(str(s) in partials for s, _ in parts):
            estimate = montecarlo.merge(battle, odds.simulations, odds.seed,
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
