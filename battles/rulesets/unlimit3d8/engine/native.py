"""The optional compiled engine (issue 15): the hot modules built by mypyc from this very
source into `build/engine-native/` (`make engine-native`, part of `make install`).

The source stays the engine: the package imports the compiled modules only when the
build's manifest names this Python and the sha256 of every compiled module's source as it
is now. A module edited since (or no compiler on the machine, or `ENGINE_PURE=1`) means
the whole engine runs from source, never a stale build. Pure standard library: it runs
before any other engine module is imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

#: The modules compiled together (they call one another natively, so all or none).
COMPILED = ("card", "damage", "geometry", "policy", "probability", "resolve", "state", "turn",
            "actions/attack", "actions/base", "actions/close_combat", "actions/designation",
            "actions/dispatch", "actions/logistics", "actions/move", "actions/order",
            "actions/piracy", "actions/ramming", "actions/ranged", "actions/repair",
            "actions/retreat", "actions/tackle", "actions/warp")
PACKAGE = "battles/rulesets/unlimit3d8/engine"
SOURCE = Path(__file__).resolve().parent
BUILD = SOURCE.parents[3] / "build" / "engine-native"
MANIFEST = BUILD / "manifest.json"


def source_hashes() -> dict[str, str]:
    return {name: hashlib.sha256((SOURCE / f"{name}.py").read_bytes()).hexdigest()
            for name in COMPILED}


def abi() -> str:
    """The Python the build is for (an extension built for another cannot load)."""
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def native_dir() -> str | None:
    """The directory of the compiled modules, when they are there and up to date."""
    if os.environ.get("ENGINE_PURE", "").strip() not in ("", "0"):
        return None
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("abi") != abi():
        return None
    try:
        if manifest.get("sources") != source_hashes():
            return None
    except OSError:
        return None
    return str(BUILD / PACKAGE)
