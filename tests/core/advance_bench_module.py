"""The advance bench (benchmarks/advance_bench.py) as a module: its played campaign is the
fixture of the tests that count an advance's work (queries, statements, VM steps)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "advance_bench.py"


def load_advance_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("advance_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
