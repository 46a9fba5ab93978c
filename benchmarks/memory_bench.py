"""Benchmark (not a test): how much memory a web worker and a Celery worker hold after a
5,000-territory turn (issue 15, target 7).

    DATABASE_URL=... .venv/bin/python benchmarks/memory_bench.py [--territories 5000]

It builds a played campaign (the advance benchmark's fixture: 5,000 territories, 125
players, buildings, stock, piloted units), starts a real gunicorn (one sync worker) and a
real `celery worker` (solo pool) on this machine, plays a whole turn with the Unlimit3d 8
engine (the battles of the move phase resolved and recorded by that worker through Redis),
and has the web worker serve what a league reads after a turn: the territories list, the
meta-map (page, SVG and PNG), the journal, the battles and a player's own view. Then it
reads each worker's peak resident memory (VmHWM in /proc) and prints

    TARGET memory_web: <peak MB> (goal 150 MB, floor <the idle worker's MB>): ok|short
    TARGET memory_worker: <peak MB> (goal 200 MB, floor <the idle worker's MB>): ok|short

The floor is the same process right after it started (Django and the app loaded, nothing
served). It needs Redis (`MEMORY_BENCH_BROKER`, default redis://127.0.0.1:6379/11); without
it the worker's line says so and is short. It deletes what it created.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BROKER = os.environ.get("MEMORY_BENCH_BROKER", "redis://127.0.0.1:6379/11")
os.environ["CELERY_BROKER_URL"] = BROKER  # the turn's battles go to the real worker
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

WEB_GOAL_MB = 150
WORKER_GOAL_MB = 200


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _peak_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for {pid}")


def _wait(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise TimeoutError(f"gave up waiting for {what}")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"DEBUG": "0", "SECRET_KEY": "memory-bench-" + "x" * 40,
                "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0",
                "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
                "SECURE_HSTS_SECONDS": "0", "LOG_LEVEL": "WARNING"})
    return env


def _broker_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(BROKER, socket_connect_timeout=2).ping()
        return True
    except Exception:
        return False


def _get(url: str, token: str | None) -> int:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as error:  # a refusal is an answer too: say which
        return int(error.code)


def play_turn(campaign: Any, state: dict[str, Any], give_orders: Any) -> int:
    """commercial -> activity -> move (orders sealed) -> tactical (battles to the worker),
    waiting until the worker has recorded every battle, then the next commercial phase."""
    from battles.models import Battle
    from campaign.services.clock import advance

    for _ in ("commercial", "activity"):
        advance(campaign_id=campaign.pk, by="umpire")
    give_orders(campaign, state)
    advance(campaign_id=campaign.pk, by="umpire")  # into the tactical phase
    battles = Battle.objects.filter(campaign=campaign)
    total = battles.count()
    _wait(lambda: not battles.exclude(status=Battle.Status.FINISHED).exists(), 600,
          f"the worker to record {total} battles")
    advance(campaign_id=campaign.pk, by="umpire")
    return total


def main() -> int:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("--territories", type=int, default=5000)
    parser.add_argument("--players", type=int, default=125)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    django.setup()
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from benchmarks.advance_bench import build_campaign, cleanup, give_orders, played_state
    from campaign.models import Campaign, Player
    from campaign.options import clean_options

    print(f"database: {connection.vendor}; broker: {BROKER}", flush=True)
    started = time.perf_counter()
    campaign = build_campaign(args.territories, args.players, args.seed)
    state = played_state(campaign, args.seed)
    Campaign.objects.filter(pk=campaign.pk).update(options=clean_options(
        {**campaign.options, "battle_mode": "engine", "public": True}))
    campaign.refresh_from_db()
    seat = Player.objects.filter(campaign=campaign).order_by("pk").first()
    token = Token.objects.get_or_create(user=seat.user)[0].key
    print(f"{args.territories}/{args.players}: built in {time.perf_counter() - started:.1f} s",
          flush=True)
    connection.close()  # the servers below open their own

    env, lines = _env(), []
    # DEBUG=0 serves hashed static files, as in production: collect them first
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    port = _free_port()
    web = subprocess.Popen([sys.executable, "-m", "gunicorn", "campaign.wsgi:application",
                            "--workers", "1", "--bind", f"127.0.0.1:{port}", "--timeout",
                            "300", "--log-level", "warning"], cwd=ROOT, env=env,
                           start_new_session=True)
    worker = None
    try:
        base = f"http://127.0.0.1:{port}"
        _wait(lambda: _reachable(base + "/api/rules/"), 60, "gunicorn to answer")
        (web_pid,) = _children(web.pid)
        web_floor = _peak_mb(web_pid)
        if _broker_up():
            worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "campaign",
                                       "worker", "--pool", "solo", "-l", "warning"],
                                      cwd=ROOT, env=env, start_new_session=True,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(8)  # loaded and connected
            worker_floor = _peak_mb(worker.pid)
            battles = play_turn(campaign, state, give_orders)
            worker_peak = _peak_mb(worker.pid)
            print(f"turn played: {battles} battles recorded by the worker", flush=True)
            ok = worker_peak <= WORKER_GOAL_MB
            lines.append(f"TARGET memory_worker: {worker_peak:.0f} MB (goal {WORKER_GOAL_MB} "
                         f"MB, floor {worker_floor:.0f} MB): {'ok' if ok else 'short'}")
        else:
            lines.append(f"TARGET memory_worker: no broker at {BROKER} (goal "
                         f"{WORKER_GOAL_MB} MB, floor -): short")
        cid = campaign.pk
        for path, auth in ((f"/api/campaigns/{cid}/territories/", token),
                           (f"/api/campaigns/{cid}/map.svg", token),
                           (f"/api/campaigns/{cid}/events/", token),
                           (f"/api/campaigns/{cid}/battles/", token),
                           (f"/api/campaigns/{cid}/me/", token),
                           (f"/campaigns/{cid}/map/", None),
                           (f"/campaigns/{cid}/map.png", None),
                           (f"/campaigns/{cid}/history/", None)):
            status = _get(base + path, auth)
            print(f"  GET {path}: {status}; web worker's peak so far "
                  f"{_peak_mb(web_pid):.0f} MB", flush=True)
        web_peak = _peak_mb(web_pid)
        ok = web_peak <= WEB_GOAL_MB
        lines.insert(0, f"TARGET memory_web: {web_peak:.0f} MB (goal {WEB_GOAL_MB} MB, floor "
                        f"{web_floor:.0f} MB): {'ok' if ok else 'short'}")
    finally:
        for proc in (worker, web):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        cleanup(campaign)
    for line in lines:
        print(line, flush=True)
    return 0 if all(line.endswith(": ok") for line in lines) else 1


def _reachable(url: str) -> bool:
    try:
        return _get(url, None) == 200
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main())
