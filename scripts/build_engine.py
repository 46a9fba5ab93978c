"""Build the compiled engines (issues 15 and 32): for each ruleset that declares a
`NativeBuild` (campaign/rules/native.py), mypyc compiles its hot modules, from the source
as it is, as a group of their own into build/engine-native/<name>/ with a manifest of the
ruleset's source hashes; the ruleset imports them only while they match.

`python scripts/build_engine.py` builds every ruleset whose build is missing or stale (its
source or the optimisation level changed), two at a time (`-j N`); `... NAME ...`
rebuilds the named ones. `make install` runs it (and `make engine-native`).
Without a C compiler it says so and the rulesets simply run from source. `--clean`
removes the builds.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["ENGINE_PURE"] = "1"  # this process reads the source, never a build

import battles.rulesets.registry as registry  # noqa: E402  (pure, no Django)
from campaign.rules.native import BUILDS, DECLARED, NativeBuild, abi  # noqa: E402

#: mypyc's optimisation level (measured for issue 32: see docs/ARCHITECTURE.md).
OPT_LEVEL = os.environ.get("ENGINE_OPT_LEVEL", "1")

SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, group, target, lib, temp, opt = sys.argv[1].split(","), *sys.argv[2:7]
# a mypy cache of its own (builds run side by side; the project's mypy keeps its own)
open(temp + ".ini", "w").write("[mypy]\\ncache_dir = " + temp + ".mypy_cache\\n")
setup(name="engine-native", script_args=["build_ext", "--build-lib", lib, "--build-temp", temp],
      # the engine's own mypy settings, not the project's: its overrides name every app,
      # which would stop mypyc with "unused section" for the modules it does not compile
      ext_modules=mypycify([*paths, "--config-file", temp + ".ini", "--python-version",
                            "3.11", "--ignore-missing-imports"],
                           group_name=group, target_dir=target, opt_level=opt))
"""


def declared() -> dict[str, NativeBuild]:
    """Every ruleset's build (importing the registry's rulesets declares them)."""
    for ruleset in registry.all_rulesets():
        del ruleset
    return dict(sorted(DECLARED.items()))


def stale(native: NativeBuild) -> bool:
    if not native.fresh():
        return True
    try:
        return bool(json.loads(native.manifest.read_text()).get("opt_level") != OPT_LEVEL)
    except (OSError, ValueError):
        return True


def build(native: NativeBuild) -> tuple[int, str]:
    """Compile into a fresh directory beside the build, then put it in the build's place
    (the manifest last: until it is written the ruleset runs from source). The exit
    code and what to print."""
    hashes = native.source_hashes()
    native.build.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f"{native.name}.", dir=native.build.parent))
    fresh.chmod(0o755)  # mkdtemp's 0700 would hide the build from another user (a server's)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            setup = Path(tmp) / "setup_engine.py"
            setup.write_text(SETUP)
            done = subprocess.run(
                [sys.executable, str(setup), ",".join(native.paths), native.group,
                 f"{tmp}/c", str(fresh), f"{tmp}/o", OPT_LEVEL],
                cwd=ROOT, capture_output=True, text=True,
                env={k: v for k, v in os.environ.items() if k != "ENGINE_PURE"})
        if done.returncode != 0:
            return 0, (f"{native.name}: not compiled (no C compiler or mypyc?); it runs from "
                       "source.\n" + (done.stdout + done.stderr)[-3000:])
        if native.source_hashes() != hashes:  # edited while building
            return 1, f"{native.name}: the source changed during the build; run it again."
        shutil.rmtree(native.build, ignore_errors=True)
        fresh.rename(native.build)
        native.manifest.write_text(json.dumps({"abi": abi(), "opt_level": OPT_LEVEL,
                                               "sources": hashes}, indent=1))
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    return 0, f"{native.name}: compiled {', '.join(native.modules)} into {native.build}"


def main(argv: list[str]) -> int:
    if "--clean" in argv:
        shutil.rmtree(BUILDS, ignore_errors=True)
        return 0
    jobs = 2
    if "-j" in argv:
        at = argv.index("-j")
        jobs = int(argv[at + 1])
        del argv[at:at + 2]
    every = declared()
    unknown = [name for name in argv if name not in every]
    if unknown:
        print(f"no compiled build declared for {', '.join(unknown)} "
              f"(declared: {', '.join(every)})", file=sys.stderr)
        return 2
    chosen = [every[name] for name in argv] or [b for b in every.values() if stale(b)]
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(build, chosen))
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _, said in results:
        print(said, file=sys.stderr if "compiled " not in said else sys.stdout)
    if chosen:
        print(f"engine builds: {len(chosen)} in {time.perf_counter() - start:.1f} s wall, "
              f"{used.ru_utime + used.ru_stime:.1f} s CPU (opt_level {OPT_LEVEL}, "
              f"{jobs} at a time)")
    return max((code for code, _ in results), default=0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
