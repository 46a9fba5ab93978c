"""The production path: PostgreSQL, Redis and real Celery worker/beat processes.

Outside CI these tests skip with a message when the services are absent. With
REQUIRE_SERVICES=1 (set by `make test-integration`, which CI runs) a missing service
is an error and any skipped integration test fails the run.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def services_problem() -> str | None:
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        return ("integration tests need DATABASE_URL to point at PostgreSQL "
                "(run `make test-integration`)")
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        return "integration tests need CELERY_BROKER_URL=redis://... (run `make test-integration`)"
    db = settings.DATABASES["default"]
    if not _reachable(db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)):
        return "PostgreSQL is not reachable"
    if not _reachable("127.0.0.1", 6379):
        return "Redis is not reachable on 127.0.0.1:6379"
    return None


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.integration)


def pytest_runtest_setup(item):
    if item.get_closest_marker("integration") is None:
        return
    problem = services_problem()
    if problem is None:
        return
    if REQUIRED:
        pytest.fail(f"REQUIRE_SERVICES=1 but {problem}", pytrace=False)
    pytest.skip(problem)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if REQUIRED and report.skipped and item.get_closest_marker("integration"):
        report.outcome = "failed"
        report.longrepr = f"integration test skipped under REQUIRE_SERVICES=1: {report.longrepr}"


def _worker_env(db_name: str) -> dict[str, str]:
    db = settings.DATABASES["default"]
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:"
        f"{db.get('PORT') or 5432}/{db_name}"
    )
    env["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
    env["PYTHONUNBUFFERED"] = "1"
    return env


class CeleryProcess:
    """A real `celery -A campaign worker|beat` subprocess on the test database."""

    def __init__(self, kind: str, db_name: str, log_dir: Path, extra_env: dict | None = None):
        self.kind = kind
        self.log_path = log_dir / f"celery-{kind}-{time.monotonic_ns()}.log"
        env = _worker_env(db_name)
        env.update(extra_env or {})
        args = [sys.executable, "-m", "celery", "-A", "campaign", kind, "-l", "info"]
        if kind == "worker":
            args += ["-P", "solo", "--without-gossip", "--without-mingle",
                     "--without-heartbeat", "-n", f"test{time.monotonic_ns()}@%h"]
        else:
            args += ["-s", str(log_dir / f"beat-schedule-{time.monotonic_ns()}")]
        self._log = open(self.log_path, "w")  # noqa: SIM115
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 30.0) -> None:
        marker = "ready." if self.kind == "worker" else "beat: Starting"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"celery {self.kind} exited early:\n{self.log()}")
            if marker in self.log():
                return
            time.sleep(0.2)
        raise RuntimeError(f"celery {self.kind} not ready after {timeout}s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._log.close()


@pytest.fixture
def purge_queue() -> None:
    from campaign.celery import app

    app.control.purge()


@pytest.fixture
def celery_process(tmp_path, purge_queue) -> Iterator[Callable[..., CeleryProcess]]:
    """Start real celery processes against the test database; stopped after the test."""
    started: list[CeleryProcess] = []
    db_name = settings.DATABASES["default"]["NAME"]

    def start(kind: str = "worker", extra_env: dict | None = None) -> CeleryProcess:
        process = CeleryProcess(kind, db_name, tmp_path, extra_env)
        started.append(process)
        process.wait_ready()
        return process

    yield start
    for process in started:
        process.kill()


def wait_for(predicate: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")
