"""Benchmark (not a test) of issue 15's request targets, on PostgreSQL:

    .venv/bin/python benchmarks/requests_bench.py [--only orders|battles|map]

(REQUESTS_BENCH_DATABASE_URL names the database, by default
postgres://postgres@127.0.0.1:5432/u3d_requests_bench, created if missing.)

1. Order POST and plan PUT under 50 concurrent clients (issue 32.4): a 2,000-territory,
   50-player league in its move phase; a gunicorn server (2 workers x 8 threads) on
   127.0.0.1 started here; one client per player. Three kinds of round, each twice and
   interleaved, every client sending the same kind at once (bounded loops): an anonymous
   `GET /api/rules/` (the floor an outside load test uses), the player's order POST to
   /api/campaigns/{id}/orders/, the player's plan PUT to /api/campaigns/{id}/plans/{home}/.
   Figures: p95(order POST) / p95(rules GET) and p95(plan PUT) / p95(rules GET).
2. A tactical phase of 200 small battles (one unit a side) on a 2,000-territory map,
   recorded by 2 worker processes pulling jobs (`jobs.run_battle_job`, the task's
   body) in-process. Figure: seconds from the first claim to the last record.
3. The meta-map page and its SVG for a player of a 5,000-territory league (median of
   5 requests through Django's test client, after one warm-up).

Prints `TARGET <name>: <figure> (goal <goal>, floor <floor>): ok|short` lines; the
floors are the figures before issue 15's work (the issue's own for orders and battles;
for the map, this bench at commit 9e05ad1 on the 2-core development machine). The
database is migrated first; the campaigns and users made here are deleted afterwards.
Without a reachable PostgreSQL it says so and prints no TARGET line.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pgdatabase import ensure_database  # noqa: E402  (this folder, as the script runs)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
# Its own PostgreSQL database (created and migrated here), whatever `make bench` set.
os.environ["DATABASE_URL"] = os.environ.get(
    "REQUESTS_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/u3d_requests_bench")
os.environ.setdefault("DICE_SECRETS", "campaign_seed")
os.environ.pop("CELERY_BROKER_URL", None)  # jobs run where the bench says, not eagerly

TAG = f"rqb{int(time.time())}"

#: The map figures before issue 15 (ms, this bench at 9e05ad1).
BEFORE = {"meta_map_page": 310, "meta_map_svg": 119}


def target(name: str, figure: float, goal: float, floor: float, unit: str = "") -> None:
    ok = figure <= goal
    print(f"TARGET {name}: {figure:.2f}{unit} (goal {goal:g}{unit}, floor {floor:g}{unit}): "
          f"{'ok' if ok else 'short'}", flush=True)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _users(count: int, prefix: str) -> list[Any]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    users = [User(username=f"{TAG}_{prefix}{i}") for i in range(count)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    return list(User.objects.filter(username__startswith=f"{TAG}_{prefix}")
                .order_by("id"))


def _league(territories: int, players: int, prefix: str, generator: str = "random") -> Any:
    """A started league (real services), advanced to its move phase."""
    from campaign.services import clock
    from campaign.services.campaigns import campaign_create, campaign_join
    from campaign.services.setup import campaign_start

    users = _users(players + 1, prefix)
    campaign = campaign_create(umpire=users[0], name=f"{TAG} {prefix}", map_spec={
        "generator": generator, "territories": territories, "seed": 2024})
    for user in users[1:]:
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    for _ in range(4):
        campaign.refresh_from_db()
        if campaign.phase == "move":
            break
        clock.advance(campaign_id=campaign.pk, by="umpire")
    campaign.refresh_from_db()
    return campaign


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------------------
# 1. Orders
# ---------------------------------------------------------------------------


def bench_orders(rounds: int) -> None:
    from rest_framework.authtoken.models import Token

    from campaign.models import Player
    from economy.models import Operative, Unit
    from territories.services.graph import neighbours

    t0 = time.perf_counter()
    campaign = _league(2000, 50, "o")
    clients = []
    for player in Player.objects.filter(campaign=campaign).select_related("user"):
        home = player.territories.order_by("pk").first()
        if home is None:
            continue
        pilot = Operative.objects.create(player=player, territory=home, klass="soldier")
        unit = Unit.objects.create(player=player, territory=home, model="golem", pilot=pilot)
        token, _ = Token.objects.get_or_create(user=player.user)
        clients.append((token.key, unit.pk, neighbours(campaign, home.pk)[:2], home.pk))
    print(f"orders: league of {len(clients)} players on 2,000 territories ready in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)

    port = _free_port()
    env = dict(os.environ, DEBUG="0", SECRET_KEY="bench-only-" + TAG,
               ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0", LOG_LEVEL="WARNING")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "campaign.wsgi", "-b", f"127.0.0.1:{port}",
         "--workers", "2", "--threads", "8", "-k", "gthread", "--log-level", "warning"],
        cwd=ROOT, env=env)
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        times: dict[str, list[float]] = {"rules": [], "orders": [], "plans": []}
        errors: list[str] = []
        lock = threading.Lock()

        stances = ("attack", "hold", "withdraw")

        def client(key: str, unit: int, dests: list[int], home: int, phase: str) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            player_head = {"Authorization": f"Token {key}",
                           "Content-Type": "application/json", "Host": "127.0.0.1"}
            anonymous_head = {"Host": "127.0.0.1"}
            mine: list[float] = []

            def call(method: str, path: str, body: str | None) -> float:
                head = anonymous_head if path == "/api/rules/" else player_head
                t = time.perf_counter()
                conn.request(method, path, body=body, headers=head)
                response = conn.getresponse()
                response.read()
                if response.status >= 400:
                    with lock:
                        errors.append(f"{method} {path}: {response.status}")
                return time.perf_counter() - t

            call("GET", "/api/rules/", None)  # warm-up: connections, the worker's graph
            start.wait()
            # gunicorn closes a keep-alive connection idle for 2 s (its default), as the
            # ones waiting at the barrier can be: each round starts on a fresh connection
            # (connected by its first request, the same for every kind of request).
            conn.close()
            for i in range(rounds):
                if phase == "rules":
                    mine.append(call("GET", "/api/rules/", None))
                elif phase == "orders":
                    body = json.dumps({"unit": unit, "destination": dests[i % len(dests)]})
                    mine.append(call("POST", f"/api/campaigns/{campaign.pk}/orders/", body))
                else:
                    body = json.dumps({"stance": stances[i % 3], "retreat_at": 50 + i % 50,
                                       "focus": "nearest"})
                    mine.append(call("PUT", f"/api/campaigns/{campaign.pk}/plans/{home}/",
                                     body))
            with lock:
                times[phase].extend(mine)

        walls: dict[str, float] = {}
        # each kind twice, interleaved, so a drift of the machine's load touches all three
        for phase in ("rules", "orders", "plans", "rules", "orders", "plans"):
            start = threading.Barrier(len(clients))
            threads = [threading.Thread(target=client, args=(*c, phase)) for c in clients]
            t1 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            walls[phase] = walls.get(phase, 0.0) + time.perf_counter() - t1
    finally:
        server.terminate()
        server.wait(20)
    if errors:
        print(f"orders: {len(errors)} errors, first: {errors[0]}", flush=True)
    rules = times["rules"]
    print(f"orders: {len(clients)} clients (one per player); {len(rules)} anonymous rules "
          f"GETs in {walls['rules']:.1f} s, p50 {statistics.median(rules) * 1000:.0f} ms, "
          f"p95 {p95(rules) * 1000:.0f} ms", flush=True)
    for phase, label in (("orders", "order POST"), ("plans", "plan PUT")):
        done = times[phase]
        print(f"orders: {len(done)} {label}s in {walls[phase]:.1f} s, p50 "
              f"{statistics.median(done) * 1000:.0f} ms, p95 {p95(done) * 1000:.0f} ms",
              flush=True)
    # goal: issue 32.4; floor: the order POST's of issue 15 (3.6x), the plan PUT's none
    # older than this bench (the same floor)
    target("order_post_p95_ratio", p95(times["orders"]) / p95(rules), 1.5, 3.6, "x")
    target("plan_put_p95_ratio", p95(times["plans"]) / p95(rules), 1.5, 3.6, "x")
    campaign.delete()


# ---------------------------------------------------------------------------
# 2. Battles
# ---------------------------------------------------------------------------


def _spread_battlefields(campaign: Any, count: int) -> list[tuple[int, int]]:
    """(battlefield, a neighbour) pairs whose neighbourhoods do not meet where the map
    allows it (a league's battles are spread over its map)."""
    from territories.services.graph import campaign_graph

    graph = campaign_graph(campaign)
    taken: set[int] = set()
    chosen: list[tuple[int, int]] = []
    for node in sorted(graph.nodes):
        near = {node, *graph.adj[node]}
        if near & taken or len(near) < 2:
            continue
        taken |= near
        chosen.append((node, min(graph.adj[node])))
        if len(chosen) == count:
            break
    return chosen


def _run_job(battle_id: int) -> tuple[str, float, float]:
    """(what happened, seconds, CPU seconds of the worker) for one job."""
    from battles.services import jobs

    t, cpu = time.perf_counter(), time.process_time()
    outcome = jobs.run_battle_job(battle_id=battle_id)
    return outcome, time.perf_counter() - t, time.process_time() - cpu


def _worker_init() -> None:
    from django.db import connections

    connections.close_all()  # each worker opens its own connection


def bench_battles(count: int, workers: int) -> None:
    from django.db import connections, transaction

    from battles.models import Battle
    from battles.services.opening import open_battles
    from campaign.models import Campaign, Player
    from campaign.services import outbox
    from economy.models import Operative, Unit, Weapon
    from territories.models import Territory

    t0 = time.perf_counter()
    users = _users(3, "b")
    from campaign.services.campaigns import campaign_create

    campaign = campaign_create(umpire=users[0], name=f"{TAG} battles", map_spec={
        "generator": "hex", "territories": 2000, "seed": 7})
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.RUNNING, turn=1,
                                                   phase="move")
    campaign.refresh_from_db()
    a, b = (Player.objects.create(campaign=campaign, user=u) for u in users[1:])
    fields = _spread_battlefields(campaign, count)
    Territory.objects.filter(pk__in=[f for f, _ in fields] + [n for _, n in fields]) \
        .update(owner=a, ever_owned=True)
    for field, _near in fields:
        for player in (a, b):
            pilot = Operative.objects.create(player=player, territory_id=field,
                                             klass="soldier")
            unit = Unit.objects.create(player=player, territory_id=field, model="golem",
                                       pilot=pilot)
            Weapon.objects.create(player=player, territory_id=field, weapon="machine_gun",
                                  unit=unit, slot=0)
    Campaign.objects.filter(pk=campaign.pk).update(phase="tactical")
    campaign.refresh_from_db()
    sent = outbox.dispatch
    outbox.dispatch = lambda ids: None  # type: ignore[assignment]  # the bench runs them
    try:
        with transaction.atomic():
            battles = open_battles(campaign=campaign)
    finally:
        outbox.dispatch = sent  # type: ignore[assignment]
    ids = [battle.pk for battle in battles]
    print(f"battles: {len(ids)} battles opened on a 2,000-territory map in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)

    connections.close_all()
    context = multiprocessing.get_context("fork")
    t1 = time.perf_counter()
    with context.Pool(workers, initializer=_worker_init) as pool:
        results = list(pool.imap_unordered(_run_job, ids, chunksize=1))
    wall = time.perf_counter() - t1
    recorded = sum(1 for outcome, _, _ in results if outcome == "recorded")
    cpu = sum(c for _, _, c in results)
    finished = Battle.objects.filter(pk__in=ids, status=Battle.Status.FINISHED).count()
    print(f"battles: {recorded} recorded ({finished} finished) by {workers} workers in "
          f"{wall:.2f} s; workers' CPU / wall {cpu / wall:.2f}; job p50 "
          f"{statistics.median(s for _, s, _ in results) * 1000:.0f} ms", flush=True)
    target(f"battles_{len(ids)}_on_{workers}_workers", wall, 5.0, 9.6, " s")
    campaign.delete()


# ---------------------------------------------------------------------------
# 3. The meta-map page and SVG
# ---------------------------------------------------------------------------


def bench_map(territories: int) -> None:
    from django.test import Client
    from django.test.utils import override_settings

    from campaign.models import Player

    t0 = time.perf_counter()
    campaign = _league(territories, 10, "m", generator="hex")
    player = Player.objects.filter(campaign=campaign).select_related("user").first()
    assert player is not None
    print(f"map: league on {territories:,} territories ready in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"],
                           SECURE_SSL_REDIRECT=False):
        client = Client()
        client.force_login(player.user)
        for name, path in (("meta_map_page", f"/campaigns/{campaign.pk}/map/"),
                           ("meta_map_svg", f"/campaigns/{campaign.pk}/map.svg")):
            times, size = [], 0
            for i in range(6):
                t = time.perf_counter()
                response = client.get(path)
                body = response.content
                if i:
                    times.append(time.perf_counter() - t)
                assert response.status_code == 200, (path, response.status_code)
                size = len(body)
            print(f"map: {path} {size / 1024:.0f} KB, median "
                  f"{statistics.median(times) * 1000:.0f} ms", flush=True)
            target(f"{name}_{territories}_ms", statistics.median(times) * 1000, 300,
                   BEFORE[name], " ms")
    campaign.delete()


def main() -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["orders", "battles", "map"])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--territories", type=int, default=5000)
    args = parser.parse_args()
    try:
        ensure_database(os.environ["DATABASE_URL"])
    except Exception as exc:  # no PostgreSQL here: nothing to measure
        print(f"requests_bench: PostgreSQL unreachable ({exc.__class__.__name__}); skipped",
              flush=True)
        return
    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    print(f"database: {connection.vendor} ({settings.DATABASES['default']['NAME']})",
          flush=True)
    try:
        if args.only in (None, "orders"):
            bench_orders(args.rounds)
        if args.only in (None, "battles"):
            bench_battles(args.battles, args.workers)
        if args.only in (None, "map"):
            bench_map(args.territories)
    finally:
        get_user_model().objects.filter(username__startswith=TAG).delete()


if __name__ == "__main__":
    main()
