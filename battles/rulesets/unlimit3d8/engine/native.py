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
import importlib.machinery
import importlib.util
import json
import os
import platform
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
    """The very Python the build is for (an extension built by another, e.g. a build
    copied into a container image, may not load)."""
    return f"{sys.implementation.cache_tag}-{sys.platform}-{platform.machine()}-{sys.version}"


def _loads(directory: Path) -> bool:
    """Load the build's shared library now (its modules need it): False when this
    machine cannot, and the engine then runs from source."""
    name = "battles.rulesets.unlimit3d8.engine._native__mypyc"
    if name in sys.modules:
        return True
    found = sorted(directory.glob("_native__mypyc.*"))
    if not found:
        return False
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, str(found[0]))
        spec = importlib.util.spec_from_file_location(name, found[0], loader=loader)
        if spec is None:
            return False
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (ImportError, OSError):
        return False
    sys.modules[name] = module
    return True


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
    directory = BUILD / PACKAGE
    return str(directory) if _loads(directory) else None
