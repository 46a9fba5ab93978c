"""Odds in fixed chunks (issue 15): the answer for a seed does not depend on how the
simulations are shared out, and is the one a single sequential run gives."""

import random
from dataclasses import replace

from battles.rulesets.unlimit3d8.engine.montecarlo import (
    CHUNK,
    chunks,
    estimate_odds,
    merge,
    run_chunk,
    simulation_seeds,
)
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from tests.engine.test_determinism import random_battle


def sequential_reference(battle, n, seed):
    """The estimate as it was computed before chunks: one loop over the seeds of
    `random.Random(seed)`."""
    seeds = random.Random(seed)
    sides = list(battle.sides)
    wins = dict.fromkeys([*sides, "none"], 0)
    units_lost = dict.fromkeys(sides, 0)
    hp_lost = dict.fromkeys(sides, 0)
    start = {u.id: u.hit_points_lost_repairable + u.hit_points_lost_unrepairable
             for roster in battle.sides.values() for u in roster}
    for _ in range(n):
        result = resolve_battle(replace(battle, seed=seeds.getrandbits(32)), keep_log=False)
        wins[result.winner if result.winner is not None else "none"] += 1
        for o in result.units:
            units_lost[o.side] += o.fate == "destroyed"
            hp_lost[o.side] += o.repairable + o.unrepairable - start[o.id]
    return {"n": n, "seed": seed,
            "win_probability": {k: v / n for k, v in wins.items()},
            "expected_units_lost": {k: v / n for k, v in units_lost.items()},
            "expected_hit_points_lost": {k: v / n for k, v in hp_lost.items()}}


def test_chunks_are_fixed_by_n_alone():
    assert chunks(1) == [(0, 1)]
    assert chunks(CHUNK) == [(0, CHUNK)]
    assert chunks(2 * CHUNK + 3) == [(0, CHUNK), (CHUNK, CHUNK), (2 * CHUNK, 3)]


def test_a_chunk_draws_the_seeds_a_single_run_would():
    everything = simulation_seeds(7, 0, 130)
    assert simulation_seeds(7, 50, 50) == everything[50:100]
    assert simulation_seeds(7, 100, 30) == everything[100:]


def test_the_same_answer_however_the_chunks_are_shared():
    battle = random_battle(3)
    n = 2 * CHUNK + 7
    expected = sequential_reference(battle, n, 11)
    assert estimate_odds(battle, n, 11) == expected
    assert estimate_odds(battle, n, 11, workers=2) == expected  # a process pool
    parts = [run_chunk(battle, 11, c) for c in reversed(chunks(n))]  # any order, any worker
    assert merge(battle, n, 11, reversed(parts)) == expected
    assert merge(battle, n, 11, parts) == expected
    assert estimate_odds(battle, n, 12) != expected
