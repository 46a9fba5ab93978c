"""Benchmark (not a test) of issue 32 target 2: a whole tactical phase on Celery.

    .venv/bin/python benchmarks/phase_bench.py [--battles 200] [--repeat 10]

(PHASE_BENCH_DATABASE_URL names the database, by default
postgres://postgres@127.0.0.1:5432/u3d_phase_bench, created if missing;
PHASE_BENCH_BROKER_URL the Redis, by default redis://127.0.0.1:6379/11.)

Each repetition builds a 2,000-territory league (hex map) in its move phase with
`--battles` contested territories (a golem with a piloted soldier of each of two players
of eight, on territories chosen by a seeded lot: neighbourhoods may meet, as in a real
league, and a winner taking a territory never owned makes a discovery), starts nothing
new (2 real `celery worker` processes, `-P solo`, were started once through Redis, as
the integration tests do), then times:

- the advance into the tactical phase (`clock.advance`, the umpire's request body,
  including the after-commit dispatch of the battle jobs): `advance_into_battles`;
- from the advance's start to the last battle recorded: `phase_<N>`;
- deadlocks: PostgreSQL's own count (`pg_stat_database.deadlocks`) over the runs.

It also counts the advance's queries with 50 and with `--battles` battles (they must be
equal). Prints `TARGET` lines; without PostgreSQL or Redis reachable it says so and
prints none. Wall-clock figures on a loaded machine: the load is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pgdatabase import ensure_database  # noqa: E402  (this folder, as the script runs)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
os.environ["DATABASE_URL"] = os.environ.get(
    "PHASE_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/u3d_phase_bench")
os.environ["CELERY_BROKER_URL"] = os.environ.get("PHASE_BENCH_BROKER_URL",
                                                 "redis://127.0.0.1:6379/11")
os.environ.setdefault("DICE_SECRETS", "campaign_seed")

TAG = f"phb{int(time.time())}"
TERRITORIES = 2000
PLAYERS = 8


def target(name: str, figure: float, goal: float, floor: float, unit: str = "") -> None:
    ok = figure <= goal
    print(f"TARGET {name}: {figure:.2f}{unit} (goal {goal:g}{unit}, floor {floor:g}{unit}): "
          f"{'ok' if ok else 'short'}", flush=True)


def _load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1",
                                       parsed.port or default_port), timeout=1):
            return True
    except OSError:
        return False


class Worker:
    """A real `celery -A campaign worker` process on the bench's database and broker."""

    def __init__(self, n: int, log_dir: Path) -> None:
        self.log_path = log_dir / f"phase-bench-worker-{n}.log"
        self._log = open(self.log_path, "w")  # noqa: SIM115
        args = [sys.executable, "-m", "celery", "-A", "campaign", "worker", "-l", "warning",
                "-P", "solo", "--without-gossip", "--without-mingle", "--without-heartbeat",
                "-n", f"{TAG}-{n}@%h", "-Q", "celery"]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def cpu(self) -> float:
        """The worker process's CPU seconds so far (user + system): what a wall figure
        on a loaded machine hides."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # not Linux: no figure
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._log.close()


def _wait_ready(workers: list[Worker]) -> None:
    from campaign.celery import app

    deadline = time.monotonic() + 60
    names = set()
    while time.monotonic() < deadline:
        for w in workers:
            if w.proc.poll() is not None:
                raise RuntimeError(f"a worker exited early:\n{w.log()[-3000:]}")
        replies = app.control.ping(timeout=1.0) or []
        names = {name for reply in replies for name in reply if name.startswith(TAG)}
        if len(names) >= len(workers):
            return
    raise RuntimeError(f"workers not ready after 60 s ({names})")


def build(battles: int, seed: int) -> Any:
    """A running league in its move phase where `battles` battles will open."""
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign, PhaseChange, Player
    from campaign.services.campaigns import campaign_create
    from economy.models import Operative, Unit, Weapon
    from territories.models import Territory
    from territories.services.graph import campaign_graph

    User = get_user_model()
    users = [User(username=f"{TAG}_{seed}_{i}") for i in range(PLAYERS + 1)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=f"{TAG}_{seed}_").order_by("id"))
    campaign = campaign_create(umpire=users[0], name=f"{TAG} phase {seed}", map_spec={
        "generator": "hex", "territories": TERRITORIES, "seed": seed})
    Campaign.objects.filter(pk=campaign.pk).update(
        status=Campaign.Status.RUNNING, turn=1, phase="move",
        options={**campaign.options, "battle_mode": "engine"})
    PhaseChange.objects.create(campaign=campaign, turn=1, phase="move", opened_by="start")
    campaign.refresh_from_db()
    players = [Player.objects.create(campaign=campaign, user=u) for u in users[1:]]
    lot = random.Random(seed)
    fields = lot.sample(sorted(campaign_graph(campaign).nodes), battles)
    owned = lot.sample(fields, battles // 2)  # the others are never owned: a discovery
    for i, field in enumerate(owned):
        Territory.objects.filter(pk=field).update(owner=players[i % PLAYERS],
                                                  ever_owned=True)
    pilots, units = [], []
    for i, field in enumerate(fields):
        a, b = players[i % PLAYERS], players[(i * 3 + 1) % PLAYERS]
        if a == b:
            b = players[(i + 1) % PLAYERS]
        for player in (a, b):
            pilots.append(Operative(player=player, territory_id=field, klass="soldier"))
    Operative.objects.bulk_create(pilots)
    units = [Unit(player=p.player, territory_id=p.territory_id, model="golem", pilot=p)
             for p in pilots]
    Unit.objects.bulk_create(units)
    Weapon.objects.bulk_create([Weapon(player=u.player, territory_id=u.territory_id,
                                       weapon="machine_gun", unit=u, slot=0) for u in units])
    return campaign


def deadlocks() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = "
                       "current_database()")
        return int(cursor.fetchone()[0])


def run_phase(battles: int, seed: int, timeout: float, workers: list[Worker]
              ) -> dict[str, Any]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from battles.models import Battle
    from campaign.services import clock

    campaign = build(battles, seed)
    before = deadlocks()
    cpu_before = sum(w.cpu() for w in workers)
    t0 = time.perf_counter()
    with CaptureQueriesContext(connection) as captured:
        clock.advance(campaign_id=campaign.pk, by="umpire")
    advance = time.perf_counter() - t0
    opened = Battle.objects.filter(campaign=campaign).count()
    done = 0
    while time.perf_counter() - t0 < timeout:
        done = Battle.objects.filter(campaign=campaign,
                                     status=Battle.Status.FINISHED).count()
        if done >= opened:
            break
        time.sleep(0.05)
    phase = time.perf_counter() - t0
    failed = Battle.objects.filter(campaign=campaign, status=Battle.Status.FAILED).count()
    result = {"advance": advance, "phase": phase, "opened": opened, "finished": done,
              "failed": failed, "queries": len(captured.captured_queries),
              "deadlocks": deadlocks() - before,
              "worker_cpu": sum(w.cpu() for w in workers) - cpu_before}
    campaign.delete()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=150.0)
    args = parser.parse_args()
    broker = os.environ["CELERY_BROKER_URL"]
    try:
        ensure_database(os.environ["DATABASE_URL"])
    except Exception as exc:  # no PostgreSQL here: nothing to measure
        print(f"phase_bench: PostgreSQL unreachable ({exc.__class__.__name__}); skipped",
              flush=True)
        return
    if not _reachable(broker, 6379):
        print(f"phase_bench: Redis unreachable ({broker}); skipped", flush=True)
        return
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from campaign.celery import app

    call_command("migrate", verbosity=0, interactive=False)
    print(f"database: {settings.DATABASES['default']['NAME']}; broker {broker}; "
          f"{_load()}", flush=True)
    app.control.purge()
    log_dir = Path(os.environ.get("TMPDIR", "/tmp"))
    workers = [Worker(n, log_dir) for n in range(args.workers)]
    try:
        _wait_ready(workers)
        small = run_phase(50, seed=1000, timeout=args.timeout, workers=workers)
        print(f"advance with {small['opened']} battles: {small['queries']} queries, "
              f"{small['advance']:.2f} s; phase {small['phase']:.2f} s", flush=True)
        runs = []
        for rep in range(args.repeat):
            run = run_phase(args.battles, seed=rep + 1, timeout=args.timeout,
                            workers=workers)
            runs.append(run)
            print(f"run {rep + 1}: {run['opened']} battles, advance {run['advance']:.2f} s "
                  f"({run['queries']} queries), last result at {run['phase']:.2f} s, "
                  f"{run['finished']} finished, {run['failed']} failed, "
                  f"{run['deadlocks']} deadlocks; workers' CPU {run['worker_cpu']:.2f} s "
                  f"({run['worker_cpu'] / max(1, run['finished']) * 1000:.1f} ms a battle); "
                  f"{_load()}", flush=True)
        large = runs[0]
        print(f"advance queries: {small['queries']} with {small['opened']} battles, "
              f"{large['queries']} with {large['opened']} battles "
              f"({'independent' if small['queries'] == large['queries'] else 'GROWS'})",
              flush=True)
        complete = [r for r in runs if r["finished"] >= r["opened"]]
        if len(complete) == len(runs):
            target(f"phase_{args.battles}", statistics.median(r["phase"] for r in runs),
                   5.0, 11.0, " s")
        else:
            print(f"phase_{args.battles}: {len(runs) - len(complete)} of {len(runs)} runs "
                  f"did not finish within {args.timeout:g} s", flush=True)
            target(f"phase_{args.battles}", args.timeout, 5.0, 11.0, " s")
        target("advance_into_battles", statistics.median(r["advance"] for r in runs),
               1.0, 3.3, " s")
        target("phase_deadlocks", sum(r["deadlocks"] for r in runs), 0, 1)
        print(f"(median of {len(runs)} runs; wall clock; {_load()})", flush=True)
    finally:
        for w in workers:
            w.stop()
        for w in workers:
            if "deadlock detected" in w.log():
                print(f"worker log {w.log_path} reports a deadlock", flush=True)
        get_user_model().objects.filter(username__startswith=TAG).delete()


if __name__ == "__main__":
    main()
