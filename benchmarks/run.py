"""Run every benchmark script in this folder (`make bench`). Benchmarks are never tests:
they print figures; nothing here asserts a time.

They run on a throwaway database of their own: a fresh SQLite file in a temporary folder
(migrated first), or the database `DATABASE_URL` names (migrated first too), so `make
bench` works on a fresh clone and never touches the development database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="u3d-bench-") as scratch:
        env = dict(os.environ)
        env.setdefault("DATABASE_URL", f"sqlite:///{Path(scratch) / 'bench.sqlite3'}")
        migrated = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v",
                                   "0"], cwd=ROOT, env=env)
        if migrated.returncode != 0:
            print("could not migrate the benchmark database", file=sys.stderr)
            return 1
        failures = 0
        for script in sorted(HERE.glob("*_bench.py")):
            print(f"== {script.name}", flush=True)
            result = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env)
            failures += result.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
