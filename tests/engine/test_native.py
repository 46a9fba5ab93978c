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
from campaign.rules.native import DECLARED, NativeBuild, abi
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


@pytest.mark.skipif(native.NATIVE.native_dir() is None,
                    reason="the engine is not compiled here (make engine-native)")
def test_the_compiled_engine_replays_the_source_bit_for_bit():
    compiled, source = run(pure=False), run(pure=True)
    assert compiled["compiled"] and not source["compiled"]
    assert json.dumps(compiled["docs"]) == json.dumps(source["docs"])


def test_a_build_that_does_not_match_the_source_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr("campaign.rules.native.DECLARED", {})  # the probe is declared there
    build = NativeBuild("probe", native.NATIVE.package, native.COMPILED,
                        tree=native.NATIVE.package.rsplit(".", 1)[0], builds=tmp_path)
    library = f"{build.group}__mypyc"
    monkeypatch.delitem(sys.modules, library, raising=False)
    assert not build.loads(tmp_path)  # no shared library there: not loadable
    (tmp_path / "_native__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"not ELF")
    assert not build.loads(tmp_path)  # one this machine cannot load
    monkeypatch.setattr(build, "loads", lambda directory: True)  # as if this one loads
    monkeypatch.delenv("ENGINE_PURE", raising=False)
    assert build.native_dir() is None  # no build
    build.build.mkdir()
    hashes = build.source_hashes()
    assert {"engine/policy.py", "tables.py", "ruleset.py"} <= set(hashes)
    build.manifest.write_text(json.dumps({"abi": abi(), "sources": hashes}))
    assert build.native_dir() is not None
    build.manifest.write_text(json.dumps(
        {"abi": abi(), "sources": {**hashes, "engine/policy.py": "0" * 64}}))  # edited
    assert build.native_dir() is None
    build.manifest.write_text(json.dumps(
        {"abi": abi(), "sources": {**hashes, "tables.py": "0" * 64}}))  # a constant edited
    assert build.native_dir() is None
    build.manifest.write_text(json.dumps({"abi": "cpython-27", "sources": hashes}))
    assert build.native_dir() is None  # built by another Python (a copied build)
    build.manifest.write_text(json.dumps({"abi": abi(), "sources": hashes}))
    monkeypatch.setenv("ENGINE_PURE", "1")
    assert build.native_dir() is None
    monkeypatch.delenv("ENGINE_PURE")
    monkeypatch.setattr(build, "loads", lambda directory: False)  # cannot load here
    assert build.native_dir() is None
    assert engine.compiled() in (True, False)


def test_every_ruleset_declares_one_compiled_group_of_its_own_modules():
    from battles.rulesets.registry import all_rulesets

    names = {r.name for r in all_rulesets()}
    assert names <= set(DECLARED)
    for build in DECLARED.values():
        assert build.modules and all((ROOT / path).is_file() for path in build.paths)
        assert build.source.is_relative_to(build.tree)
        assert build.build.name == build.name  # a directory and manifest per ruleset
    assert len({b.group for b in DECLARED.values()}) == len(DECLARED)
