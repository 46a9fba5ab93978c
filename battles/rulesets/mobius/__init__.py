"""Mobius (SAGE 2021 Edition, seed 000) (see `ruleset.py`).

Its hot modules may run compiled: mypyc builds them from this very source
(`scripts/build_engine.py`, `make engine-native`), and the package puts the build first on
its `__path__` only while it matches every source file here (`campaign.rules.native`);
else, or with `ENGINE_PURE=1`, the source runs.
"""

from campaign.rules.native import NativeBuild

#: The modules compiled together (they call one another natively, so all or none), the
#: action layer too: it plays every choice of every battle (issue 32).
NATIVE = NativeBuild("mobius", __name__, ("state", "rules", "allocation", "plans", "missions",
                                          "engine", "policy", "actions"))
NATIVE.install(__path__)
