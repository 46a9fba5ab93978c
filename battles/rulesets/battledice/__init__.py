"""The battle-dice game with God Machines (seed 004) (see `ruleset.py`).

Its hot modules may run compiled: mypyc builds them from this very source
(`scripts/build_engine.py`, `make engine-native`), and the package puts the build first on
its `__path__` only while it matches every source file here (`campaign.rules.native`);
else, or with `ENGINE_PURE=1`, the source runs.
"""

from campaign.rules.native import NativeBuild

#: The modules compiled together (they call one another natively, so all or none).
NATIVE = NativeBuild("battledice", __name__, ("rules", "engine", "actions", "policy"))
NATIVE.install(__path__)
