"""Odds of an Unlimit3d 8 battle a player could fight (R-BJ-8), in the engine's own terms.

Only what the player is entitled to know goes in: their own units as they are, without a
position; the enemy units revealed by the last battle fought on the territory (the
winner's surviving units, as its input and public result recorded them) plus any
hypothetical enemy the player describes (`{"model", "pilot_class", "pilot_level",
"weapons"}`); the territory's buildings only when the player owns it. The stored request
is the engine's `BattleInput`, its sides named "you" and "enemy"; a large estimate may be
split into chunks, each a job of its own, merged to the same answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from battles.rulesets.base import ENEMY, OWN, Json, OddsQuestion, RulesetError
from battles.rulesets.unlimit3d8.engine import montecarlo
from battles.rulesets.unlimit3d8.engine.model import BattleInput, UnitInput, WeaponInput
from campaign.rules import tables as T


def _revealed_enemies(last: Json | None) -> list[UnitInput]:
    if last is None:
        return []
    fates = {str(u["id"]): u for u in (last.get("result") or {}).get("units", [])}
    enemies = []
    for data in (last.get("input") or {}).get("sides", {}).get(str(last.get("winner")), []):
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
        raise RulesetError("Each enemy is an object with model, pilot_class, pilot_level "
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
        raise RulesetError(f"Enemy {index + 1}: {exc}", code="invalid_enemy") from exc
    return UnitInput(id=f"enemy-{index + 1}", side=ENEMY, name=f"enemy {index + 1}",
                     vehicle=vehicle, pilot_class=klass, pilot_level=level, weapons=weapons,
                     pilot_id=None)


def odds_input(question: OddsQuestion) -> Json:
    """The engine's input for the battle the player asks about (the defender first)."""
    # Imported here: the ruleset module imports this one.
    from battles.rulesets.unlimit3d8.ruleset import building_input_of, unit_input_of  # noqa: PLC0415 (cycle: battles.rulesets.unlimit3d8.odds -> battles.rulesets.unlimit3d8.ruleset -> battles.rulesets.unlimit3d8.odds)

    enemies = _revealed_enemies(question.last)
    described = question.described
    if described is not None:
        if not isinstance(described, list):
            raise RulesetError("enemy must be a list of units.", code="invalid_enemy")
        enemies += [_hypothetical(i, e) for i, e in enumerate(described)]
    if not enemies:
        raise RulesetError("No enemy is known on that territory; describe one with "
                           "\"enemy\".", code="no_known_enemy")
    field = question.battlefield
    own = tuple(replace(unit_input_of(u, OWN), position=None)
                for u in field.sides.get(question.player, ()))
    owns = field.defender == question.player
    buildings = tuple(building_input_of(b) for b in field.buildings) if owns else ()
    sides = {OWN: own, ENEMY: tuple(enemies)} if owns else {ENEMY: tuple(enemies), OWN: own}
    return BattleInput(territory=field.territory, defender=OWN if owns else ENEMY,
                       sides=sides, buildings=buildings, seed=field.seed).to_dict()


def estimate(request: Json, simulations: int, seed: int, workers: int) -> Json:
    return montecarlo.estimate_odds(BattleInput.from_dict(request), simulations, seed,
                                    workers=workers)


def chunks(simulations: int) -> list[tuple[int, int]]:
    parts = montecarlo.chunks(simulations)
    return parts if len(parts) > 1 else []


def chunk(request: Json, seed: int, part: tuple[int, int]) -> Json:
    return montecarlo.run_chunk(BattleInput.from_dict(request), seed, part)


def merge(request: Json, simulations: int, seed: int, counts: Iterable[Json]) -> Json:
    return montecarlo.merge(BattleInput.from_dict(request), simulations, seed, counts)
