"""The compiled engine (issue 15) gives the source's results bit for bit: the same
documents, logs included, for seeded battles run here and by the source in a fresh
process (ENGINE_PURE=1). And a build that no longer matches its source is never used.

Coordinates are floats, as every input the campaign gives (`UnitInput.from_dict`): the
compiled modules hold points as floats, so integer coordinates written in Python
(`at=(10, 20)`) would be logged as 10.0, 20.0 there (equal values, other JSON).
"""

import json
import subprocess
import sys

import pytest

import battles.rulesets.unlimit3d8.engine as engine
from battles.rulesets.unlimit3d8.engine import native
from tests.integration.conftest import ROOT

CODE = """
import json, sys
import battles.rulesets.unlimit3d8.engine as engine
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from battles.rulesets.unlimit3d8.engine.montecarlo import estimate_odds
from tests.engine.test_determinism import random_battle
from tests.engine.helpers import battle, unit
docs = [resolve_battle(random_battle(seed)).to_dict() for seed in range(40)]
docs.append(resolve_battle(battle([unit(1, "red", at=(10.0, 20.5)),
                                   unit(2, "blue", at=(10.0, 12.0))], seed=3)).to_dict())
from dataclasses import replace
from battles.rulesets.unlimit3d8.engine.model import BuildingInput, WeaponInput
works = (BuildingInput("tu", "turret", 8, 8, weapon=WeaponInput("cannon")),
         BuildingInput("cb", "concrete_barricade", 6, 9, upgrades=("ablative_armor",)),
         BuildingInput("ff", "force_field", 10, 11), BuildingInput("bk", "bunker", 4, 10))
for seed in range(10):
    base = random_battle(100 + seed)
    docs.append(resolve_battle(replace(base, buildings=works)).to_dict())
docs.append(estimate_odds(random_battle(7), 30, seed=5))
print(json.dumps({"compiled": engine.compiled(), "docs": docs}, sort_keys=True))
"""


def run(pure: bool):
    env = {"ENGINE_PURE": "1"} if pure else {"ENGINE_PURE": ""}
    done = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**_env(), **env})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _env():
    import os
    return dict(os.environ)


@pytest.mark.skipif(native.native_dir() is None,
                    reason="the engine is not compiled here (make engine-native)")
def test_the_compiled_engine_replays_the_source_bit_for_bit():
    compiled, source = run(pure=False), run(pure=True)
    assert compiled["compiled"] and not source["compiled"]
    assert json.dumps(compiled["docs"]) == json.dumps(source["docs"])


def test_a_build_that_does_not_match_the_source_is_not_used(tmp_path, monkeypatch):
    monkeypatch.delitem(sys.modules, "battles.rulesets.unlimit3d8.engine._native__mypyc",
                        raising=False)
    assert not native._loads(tmp_path)  # no shared library there: not loadable
    (tmp_path / "_native__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"not ELF")
    assert not native._loads(tmp_path)  # one this machine cannot load
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "manifest.json")
    monkeypatch.setattr(native, "_loads", lambda directory: True)  # as if this one loads
    monkeypatch.delenv("ENGINE_PURE", raising=False)
    assert native.native_dir() is None  # no build
    hashes = native.source_hashes()
    (tmp_path / "manifest.json").write_text(json.dumps({"abi": native.abi(), "sources": hashes}))
    assert native.native_dir() is not None
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"abi": native.abi(), "sources": {**hashes, "policy": "0" * 64}}))  # policy edited
    assert native.native_dir() is None
    (tmp_path / "manifest.json").write_text(json.dumps({"abi": "cpython-27", "sources": hashes}))
    assert native.native_dir() is None  # built by another Python (a copied build)
    (tmp_path / "manifest.json").write_text(json.dumps({"abi": native.abi(), "sources": hashes}))
    monkeypatch.setenv("ENGINE_PURE", "1")
    assert native.native_dir() is None
    monkeypatch.delenv("ENGINE_PURE")
    monkeypatch.setattr(native, "_loads", lambda directory: False)  # cannot load here
    assert native.native_dir() is None
    assert engine.compiled() in (True, False)
