"""Build the compiled engine (issue 15): mypyc compiles the engine's hot modules, from the
source as it is, into build/engine-native/ with a manifest of the sources' hashes; the
engine imports them only while they match (battles/rulesets/unlimit3d8/engine/native.py).

Run by `make install` (and `make engine-native`); without a C compiler it says so and
the engine simply runs from source. `--clean` removes the build.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.rulesets.unlimit3d8.engine import native  # noqa: E402  (pure, no Django)

SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, target, lib, temp = sys.argv[1].split(","), sys.argv[2], sys.argv[3], sys.argv[4]
open(temp + ".ini", "w").write("[mypy]\\n")
setup(name="engine-native", script_args=["build_ext", "--build-lib", lib, "--build-temp", temp],
      # the engine's own mypy settings, not the project's: its overrides name every app,
      # which would stop mypyc with "unused section" for the modules it does not compile
      ext_modules=mypycify([*paths, "--config-file", temp + ".ini", "--python-version",
                            "3.11", "--ignore-missing-imports"],
                           group_name="battles.rulesets.unlimit3d8.engine._native",
                           target_dir=target))
"""


def build() -> int:
    """Compile into a fresh directory beside the build, then put it in the build's place
    (the manifest last: until it is written the engine runs from source)."""
    hashes = native.source_hashes()
    paths = ",".join(f"{native.PACKAGE}/{name}.py" for name in native.COMPILED)
    native.BUILD.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix="engine-native.", dir=native.BUILD.parent))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            setup = Path(tmp) / "setup_engine.py"
            setup.write_text(SETUP)
            done = subprocess.run([sys.executable, str(setup), paths, f"{tmp}/c", str(fresh),
                                   f"{tmp}/o"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            print("engine: not compiled (no C compiler or mypyc?); it runs from source.\n"
                  + done.stderr[-1500:], file=sys.stderr)
            return 0
        if native.source_hashes() != hashes:  # edited while building
            print("engine: the source changed during the build; run it again.",
                  file=sys.stderr)
            return 1
        shutil.rmtree(native.BUILD, ignore_errors=True)
        fresh.rename(native.BUILD)
        native.MANIFEST.write_text(json.dumps({"abi": native.abi(), "sources": hashes},
                                              indent=1))
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    print(f"engine: compiled {', '.join(native.COMPILED)} into {native.BUILD}")
    return 0


if __name__ == "__main__":
    if "--clean" in sys.argv:
        shutil.rmtree(native.BUILD, ignore_errors=True)
        sys.exit(0)
    sys.exit(build())
