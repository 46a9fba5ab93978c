"""Odds of a battle by simulation: n seeded battles, no log kept, in fixed-size chunks.

The simulations are cut into chunks of `CHUNK` (the last one shorter) whatever runs them:
in this process, a process pool (`workers`), or one job per chunk on a worker pool. The
i-th simulation always gets the i-th seed drawn from `random.Random(seed)` and a chunk
returns whole counts, summed before the one division: the answer for a seed is the same
however many workers share the chunks (and the same as one sequential run).
"""

from __future__ import annotations

import multiprocessing
import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.rulesets.unlimit3d8.engine.policy import PolicyFactory
from battles.rulesets.unlimit3d8.engine.resolve import simulate

CHUNK = 50  # simulations per chunk: fixed, so the split never depends on the workers

Chunk = tuple[int, int]  # (first simulation index, how many)
Counts = dict[str, dict[str, int]]


def chunks(n: int) -> list[Chunk]:
    """The chunks of an n-simulation estimate, in order."""
    if n <= 0:
        raise ValueError("n must be positive")
    return [(start, min(CHUNK, n - start)) for start in range(0, n, CHUNK)]


def simulation_seeds(seed: int, start: int, count: int) -> list[int]:
    """Seeds of simulations start .. start + count - 1 (the i-th 32-bit draw of
    `random.Random(seed)` is simulation i's)."""
    seeds = random.Random(seed)
    for _ in range(start):
        seeds.getrandbits(32)
    return [seeds.getrandbits(32) for _ in range(count)]


def run_chunk(battle: BattleInput, seed: int, chunk: Chunk, *,
              policy_factory: PolicyFactory | None = None) -> Counts:
    """Whole counts of one chunk: wins per side ("none": nobody left), units destroyed and
    hit points lost per side."""
    sides = list(battle.sides)
    wins: dict[str, int] = dict.fromkeys([*sides, "none"], 0)
    units_lost: dict[str, int] = dict.fromkeys(sides, 0)
    hp_lost: dict[str, int] = dict.fromkeys(sides, 0)
    start_lost = {u.id: u.hit_points_lost_repairable + u.hit_points_lost_unrepairable
                  for roster in battle.sides.values() for u in roster}
    for sim_seed in simulation_seeds(seed, *chunk):
        # `resolve_battle(replace(battle, seed=sim_seed), keep_log=False)`'s winner and
        # units (a unit's fate is "destroyed" exactly when it is), without the report
        winner, units = simulate(battle, sim_seed, policy_factory=policy_factory)
        wins[winner if winner is not None else "none"] += 1
        for unit in units:
            if unit.destroyed:
                units_lost[unit.side] += 1
            hp_lost[unit.side] += unit.repairable + unit.unrepairable - start_lost[unit.id]
    return {"wins": wins, "units_lost": units_lost, "hp_lost": hp_lost}


def merge(battle: BattleInput, n: int, seed: int, parts: Iterable[Counts]) -> dict[str, Any]:
    """The estimate from the chunks' counts (summed, then divided once)."""
    sides = list(battle.sides)
    wins: dict[str, int] = dict.fromkeys([*sides, "none"], 0)
    units_lost: dict[str, int] = dict.fromkeys(sides, 0)
    hp_lost: dict[str, int] = dict.fromkeys(sides, 0)
    for part in parts:
        for total, counts in ((wins, part["wins"]), (units_lost, part["units_lost"]),
                              (hp_lost, part["hp_lost"])):
            for key, value in counts.items():
                total[key] += value
    return {
        "n": n,
        "seed": seed,
        "win_probability": {k: v / n for k, v in wins.items()},
        "expected_units_lost": {k: v / n for k, v in units_lost.items()},
        "expected_hit_points_lost": {k: v / n for k, v in hp_lost.items()},
    }


def _chunk_job(args: tuple[BattleInput, int, Chunk]) -> Counts:
    battle, seed, chunk = args
    return run_chunk(battle, seed, chunk)


def estimate_odds(battle: BattleInput, n: int, seed: int, *,
                  policy_factory: PolicyFactory | None = None,
                  workers: int = 1) -> dict[str, Any]:
    """Win probability and expected units lost (destroyed) / hit points lost per side.

    Each simulation gets its own seed drawn from `random.Random(seed)`, so the estimate is
    itself reproducible. `win_probability["none"]`: battles no side survived. `workers`
    > 1 spreads the chunks over a process pool (forked: the engine is pure Python and
    the children only simulate); a custom `policy_factory` always runs here.
    """
    parts_of = chunks(n)
    jobs = [(battle, seed, chunk) for chunk in parts_of]
    runner: Callable[[Sequence[tuple[BattleInput, int, Chunk]]], Iterable[Counts]]
    if workers > 1 and len(jobs) > 1 and policy_factory is None and _can_fork():
        runner = _pool_runner(min(workers, len(jobs)))
    else:
        def runner(todo: Sequence[tuple[BattleInput, int, Chunk]]) -> Iterable[Counts]:
            return [run_chunk(b, s, c, policy_factory=policy_factory) for b, s, c in todo]
    return merge(battle, n, seed, runner(jobs))


def _can_fork() -> bool:
    """A pool needs fork (fast: no re-import) and a process allowed children (a Celery
    prefork worker's are not: there the chunks are jobs of their own)."""
    return ("fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon)


def _pool_runner(workers: int) -> Callable[[Sequence[tuple[BattleInput, int, Chunk]]],
                                           Iterable[Counts]]:
    def run(todo: Sequence[tuple[BattleInput, int, Chunk]]) -> Iterable[Counts]:
        context = multiprocessing.get_context("fork")
        with warnings.catch_warnings():
            # Python 3.12+ warns when a threaded process (a development server) forks; the
            # children only simulate, import nothing and exit without cleanup.
            warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                return list(pool.map(_chunk_job, todo))  # map keeps the chunks' order
    return run
