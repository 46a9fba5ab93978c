"""The production configuration: `check --deploy` is clean and the compose file is valid."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def production_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "DEBUG": "0",
        "SECRET_KEY": "k3y-" + "x7Qp2Lm9Vr4Tz8Wb1Nc6Yd5Hf3Js0Ga" * 2,
        "ALLOWED_HOSTS": "campaign.example.org",
        "DATABASE_URL": f"sqlite:///{ROOT / 'db.sqlite3'}",
    })
    env.pop("CELERY_BROKER_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # never set in a deployment
    return env


def test_check_deploy_is_clean_in_production_mode():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=production_env(), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = production_env()
    env.pop("SECRET_KEY")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_compose_file_declares_the_production_stack():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "web", "worker", "beat"}
    for name in ("postgres", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert "pgdata" in compose["volumes"]
    assert "gunicorn" in services["web"]["command"]


def _compose_client() -> list[str] | None:
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_docker_compose_config_accepts_the_file():
    client = _compose_client()
    if client is None:
        pytest.skip("no docker compose client on this machine (the YAML is checked above)")
    env = dict(os.environ, SECRET_KEY="for-config-only")
    result = subprocess.run([*client, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_the_openapi_schema_generates_without_warnings(tmp_path):
    """Every endpoint is described in /api/schema/ without collisions or guesses."""
    result = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--fail-on-warn", "--validate",
         "--file", str(tmp_path / "schema.yaml")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
