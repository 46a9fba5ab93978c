"""Run every benchmark script in this folder (`make bench`). Benchmarks are never tests:
they print figures; nothing here asserts a time.

They run on a throwaway database of their own: a fresh SQLite file in a temporary folder
(migrated first), or the database `DATABASE_URL` names (created if missing, migrated
first too), so `make
bench` works on a fresh clone and never touches the development database.

A script states how it measures up with lines `TARGET <name>: <figure> (goal <goal>,
floor <floor>): ok|short`. Every script's output is shown as it runs; the TARGET lines of
all of them are printed together at the end, and the run fails when one is short (or a
script fails).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from pgdatabase import ensure_database  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="u3d-bench-") as scratch:
        env = dict(os.environ)
        env.setdefault("DATABASE_URL", f"sqlite:///{Path(scratch) / 'bench.sqlite3'}")
        ensure_database(env["DATABASE_URL"])
        migrated = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v",
                                   "0"], cwd=ROOT, env=env)
        if migrated.returncode != 0:
            print("could not migrate the benchmark database", file=sys.stderr)
            return 1
        failures = 0
        targets: list[str] = []
        for script in sorted(HERE.glob("*_bench.py")):
            print(f"== {script.name}", flush=True)
            process = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, env=env,
                                       stdout=subprocess.PIPE, text=True)
            assert process.stdout is not None
            for line in process.stdout:
                print(line, end="", flush=True)
                if line.startswith("TARGET "):
                    targets.append(line.rstrip())
            if process.wait() != 0:
                failures += 1
                print(f"{script.name} failed (exit {process.returncode})", flush=True)
    print("== targets", flush=True)
    for line in targets:
        print(line)
    short = [line for line in targets if not line.endswith(": ok")]
    return 1 if failures or short else 0


if __name__ == "__main__":
    sys.exit(main())
