"""The engine is a pure library: no Django, DRF or Celery, and no global random
(ARCHITECTURE.md: "It never touches the database"; STYLE.md: "pass a seeded generator")."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "battles" / "rulesets" / "unlimit3d8" / "engine"


def test_engine_imports_without_django_drf_or_celery():
    engine = "battles.rulesets.unlimit3d8.engine"
    code = (f"import sys, {engine}, {engine}.montecarlo, {engine}.policy;"
            "bad = [m for m in ('django', 'rest_framework', 'celery') if m in sys.modules];"
            "print(bad); sys.exit(1 if bad else 0)")
    root = str(ROOT)
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True, env={"PYTHONPATH": root})
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_engine_never_uses_the_global_random_generator():
    for path in ENGINE.rglob("*.py"):
        text = path.read_text()
        forbidden = r"^\s*(import|from)\s+(django|rest_framework|celery)"
        assert not re.search(forbidden, text, re.M), path
        for call in re.findall(r"random\.(\w+)", text):
            assert call == "Random", f"{path}: random.{call}"
