"""Odds of a battle by simulation: n seeded battles run in-process, no log kept."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.rulesets.unlimit3d8.engine.policy import PolicyFactory
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle


def estimate_odds(battle: BattleInput, n: int, seed: int, *,
                  policy_factory: PolicyFactory | None = None) -> dict[str, Any]:
    """Win probability and expected units lost (destroyed) / hit points lost per side.

    Each simulation gets its own seed drawn from `random.Random(seed)`, so the estimate is
    itself reproducible. `winners[None]` counts battles no side survived ("none" key).
    """
    if n <= 0:
        raise ValueError("n must be positive")
    seeds = random.Random(seed)
    sides = list(battle.sides)
    wins: dict[str, int] = dict.fromkeys([*sides, "none"], 0)
    units_lost: dict[str, int] = dict.fromkeys(sides, 0)
    hp_lost: dict[str, int] = dict.fromkeys(sides, 0)
    start_lost = {u.id: u.hit_points_lost_repairable + u.hit_points_lost_unrepairable
                  for roster in battle.sides.values() for u in roster}
    for _ in range(n):
        result = resolve_battle(replace(battle, seed=seeds.getrandbits(32)),
                                policy_factory=policy_factory, keep_log=False)
        wins[result.winner if result.winner is not None else "none"] += 1
        for outcome in result.units:
            if outcome.fate == "destroyed":
                units_lost[outcome.side] += 1
            hp_lost[outcome.side] += (outcome.repairable + outcome.unrepairable
                                      - start_lost[outcome.id])
    return {
        "n": n,
        "seed": seed,
        "win_probability": {k: v / n for k, v in wins.items()},
        "expected_units_lost": {k: v / n for k, v in units_lost.items()},
        "expected_hit_points_lost": {k: v / n for k, v in hp_lost.items()},
    }
