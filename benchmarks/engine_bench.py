"""Engine throughput of every ruleset (CPU time of this process, so other load on the
machine does not count): typical battles per second on one core, instructions per battle
(counted, not timed: `perf stat` where the machine lets it count, else valgrind's
callgrind on a handful of battles, else a line saying so), and the CPU time of a
1,000-simulation odds estimate on the busiest of 2 processes (issue 32, item 1).
Run: `python benchmarks/engine_bench.py` (`--instructions RULESET N` is its own helper).
"""

from __future__ import annotations

import heapq
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battles.rulesets.unlimit3d8.engine import (
    BattleInput,
    BuildingInput,
    UnitInput,
    WeaponInput,
    resolve_battle,
)
from battles.rulesets.unlimit3d8.engine.montecarlo import (
    chunks,
    estimate_odds,
    run_chunk,
)
from campaign.rules.native import DECLARED


def typical_battle(seed: int = 1) -> BattleInput:
    def u(uid: int, side: str, vehicle: str, cls: str, level: int, *weapons: str) -> UnitInput:
        return UnitInput(id=uid, side=side, name=f"{side}{uid}", vehicle=vehicle,
                         pilot_class=cls, pilot_level=level,
                         weapons=tuple(WeaponInput(w) for w in weapons), pilot_id=uid)

    return BattleInput(
        territory=1, defender="red", seed=seed,
        sides={
            "red": (u(1, "red", "paladin", "soldier", 2, "cannon", "machine_gun"),
                    u(2, "red", "minotaur", "worker", 1, "grappling_arms", "beamer"),
                    u(3, "red", "lycaon", "bandit", 1, "blaster", "shot_gun"),
                    u(4, "red", "stakanov", "scientist", 1, "machine_gun")),
            "blue": (u(5, "blue", "centaur", "soldier", 1, "missile_launcher", "cannon"),
                     u(6, "blue", "golem", "soldier", 2, "road_header"),
                     u(7, "blue", "hellound", "bandit", 2, "machine_gun", "buster"),
                     u(8, "blue", "kanker", "worker", 1, "beamer")),
        },
        buildings=(BuildingInput(10, "turret", 8, 8, weapon=WeaponInput("cannon")),
                   BuildingInput(11, "concrete_barricade", 6, 9),
                   BuildingInput(12, "command_center", 9, 12)),
    )



N_BATTLES = 300
ODDS_PROCESSES = 2  # issue 32's machine: the busiest of 2 processes
#: Issue 32's goals (battles per second on one core; seconds of a 1,000-simulation
#: estimate on the busiest of 2 processes) and the floors measured before its work (quiet
#: 2-core machine, compiled engine for Unlimit3d 8).
GOAL_RATE = {"unlimit3d8": 1000.0}
GOAL_RATE_OTHERS = 500.0
GOAL_ODDS = 0.5
FLOORS: dict[str, tuple[float, float]] = {
    "unlimit3d8": (226.0, 2.32), "onepage": (748.0, 1.36), "battledice": (647.0, 1.38),
    "thirtymm": (67.0, 12.19), "mobius": (149.0, 5.02)}
CALLGRIND_BATTLES = 5


class Bench:
    """One ruleset's typical battle, how to fight it, and how its odds are estimated."""

    def __init__(self, name: str, battle: Callable[[int], Any], fight: Callable[[Any], int],
                 odds_costs: Callable[[], list[float]]) -> None:
        self.name = name
        self.battle = battle  # seed -> battle input
        self.fight = fight  # battle input -> rounds (the campaign's full log kept)
        self.odds_costs = odds_costs  # CPU seconds of each job of a 1,000-simulation estimate


def benches() -> dict[str, Bench]:
    from battles.rulesets.registry import all_rulesets
    from campaign.rules.dice import Dice

    found = {"unlimit3d8": Bench(
        "unlimit3d8", typical_battle, lambda b: int(resolve_battle(b).rounds),
        lambda: chunk_costs(typical_battle(), 1000, 42))}
    for ruleset in all_rulesets():
        if ruleset.name == "unlimit3d8":
            continue

        def fight(b: Any, ruleset: Any = ruleset) -> int:
            return int(ruleset.resolve(b, Dice(random.Random(b["seed"]))).rounds)

        def costs(ruleset: Any = ruleset) -> list[float]:
            """Each of its estimate's jobs (`odds_chunks`; none: one job does it all)."""
            battle = ruleset.sample_battle(0)
            request = {"ruleset": ruleset.name, "you": next(iter(battle["sides"])),
                       "battle": battle}
            parts = ruleset.odds_chunks(request, 1000)
            if not parts:
                start = time.process_time()
                ruleset.odds(battle, simulations=1000, seed=42)
                return [time.process_time() - start]
            spent = []
            for part in parts:
                start = time.process_time()
                ruleset.odds_chunk(request, 42, part)
                spent.append(time.process_time() - start)
            return spent

        found[ruleset.name] = Bench(ruleset.name, ruleset.sample_battle, fight, costs)
    return found


def chunk_costs(battle: BattleInput, n: int, seed: int) -> list[float]:
    """CPU seconds of each chunk the pool shares out (measured here, one after another)."""
    costs = []
    for chunk in chunks(n):
        start = time.process_time()
        run_chunk(battle, seed, chunk)
        costs.append(time.process_time() - start)
    return costs


def busiest(costs: list[float], workers: int) -> float:
    """CPU seconds of the busiest of `workers` processes taking the next job when free."""
    free = [0.0] * workers
    for cost in costs:
        heapq.heapreplace(free, free[0] + cost)
    return max(free)


def rate(bench: Bench, n: int = N_BATTLES) -> tuple[float, float]:
    battles = [bench.battle(seed) for seed in range(n)]
    for b in battles[:10]:  # warm the caches (cards, probabilities)
        bench.fight(b)
    rounds = 0
    start = time.process_time()
    for b in battles:
        rounds += bench.fight(b)
    return n / (time.process_time() - start), rounds / n


def instructions(names: list[str]) -> dict[str, str]:
    """Instructions per battle of each ruleset: a run that fights one battle of every
    ruleset (start-up, imports, warm caches), and one per ruleset that then fights
    `CALLGRIND_BATTLES` more of it; the difference over their number."""
    me = [sys.executable, str(Path(__file__).resolve()), "--instructions"]
    base = _count([*me, "-", "0"])
    if base is None:
        return dict.fromkeys(names, "instructions not measured: neither `perf stat -e "
                                    "instructions` nor valgrind works here")
    found = {}
    for name in names:
        count = _count([*me, name, str(CALLGRIND_BATTLES)])
        found[name] = ("instructions not measured (the counting run failed)" if count is None
                       else f"{(count[0] - base[0]) / CALLGRIND_BATTLES / 1e6:.2f} M "
                            f"instructions a battle ({count[1]}, {CALLGRIND_BATTLES} battles)")
    return found


def _count(command: list[str]) -> tuple[int, str] | None:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if shutil.which("perf"):
        done = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", *command],
                              capture_output=True, text=True, env=env)
        for line in done.stderr.splitlines():
            figure = line.split(",")[0]
            if "instructions" in line and figure.isdigit() and done.returncode == 0:
                return int(figure), "perf"
    if shutil.which("valgrind"):
        with tempfile.TemporaryDirectory() as tmp:
            out = f"{tmp}/callgrind.out"
            done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                   *command], capture_output=True, text=True, env=env)
            if done.returncode == 0:
                for line in Path(out).read_text().splitlines():
                    if line.startswith(("summary:", "totals:")):
                        return int(line.split()[1]), "callgrind"
    return None


def main() -> None:
    every = benches()
    print("engines (compiled: the mypyc build of its source): " + ", ".join(
        f"{name} {'compiled' if build.compiled() else 'source'}"
        for name, build in DECLARED.items()))
    counted = instructions(list(every))
    for name, bench in every.items():
        floor_rate, floor_odds = FLOORS.get(name, (0.0, 0.0))
        per_s, rounds = rate(bench)
        goal = GOAL_RATE.get(name, GOAL_RATE_OTHERS)
        print(f"{name:12s} {per_s:8.1f} battles/s, full log ({rounds:.1f} rounds on average)")
        print(f"{name:12s} {counted[name]}")
        costs = bench.odds_costs()
        span = busiest(costs, ODDS_PROCESSES)
        print(f"{name:12s} odds(n=1000): {sum(costs):.2f} s of CPU in {len(costs)} job(s), "
              f"{span:.2f} s on the busiest of {ODDS_PROCESSES} processes")
        print(f"TARGET engine_{name}: {per_s:.1f} (goal {goal:.0f}, floor {floor_rate:.0f}): "
              f"{'ok' if per_s >= goal else 'short'}")
        print(f"TARGET odds_{name}: {span:.2f} s (goal {GOAL_ODDS} s on the busiest of "
              f"{ODDS_PROCESSES} processes, floor {floor_odds} s): "
              f"{'ok' if span <= GOAL_ODDS else 'short'}")
    pooled_check()


def pooled_check() -> None:
    """The process pool gives the same estimate as one process (and its wall time)."""
    odds = estimate_odds(typical_battle(), 1000, seed=42)
    wall = time.perf_counter()
    pooled = estimate_odds(typical_battle(), 1000, seed=42, workers=ODDS_PROCESSES)
    wall = time.perf_counter() - wall
    assert pooled == odds, "the pool changed the answer"
    print(f"unlimit3d8   odds(n=1000) on a pool of {ODDS_PROCESSES}: {wall:.2f} s wall "
          f"(the same estimate as one process: {odds['win_probability']})")


def fight_only(name: str, n: int) -> None:
    """`--instructions`: one battle of every ruleset, then `n` more of `name` ("-": none)."""
    every = benches()
    for bench in every.values():
        bench.fight(bench.battle(0))
    if name != "-":
        for seed in range(1, n + 1):
            every[name].fight(every[name].battle(seed))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--instructions"]:
        fight_only(sys.argv[2], int(sys.argv[3]))
    else:
        main()
