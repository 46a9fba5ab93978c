"""Optional compiled builds of the rulesets' hot modules (issues 15 and 32): each ruleset
declares its `NativeBuild` once (the package, the modules compiled together), mypyc
builds them from that very source (`scripts/build_engine.py`, `make engine-native`, part
of `make install`) into `build/engine-native/<name>/`, with a manifest of hashes.

The source stays the engine: a package puts its compiled directory first on its
`__path__` (`NativeBuild.install`) only while the build's manifest names this Python
and the sha256 of every source file of the ruleset as it is now (the compiled modules,
and what mypyc read of the ruleset: constants it may have folded in). A file edited
since (or no compiler on the machine, or `ENGINE_PURE=1`) means the whole ruleset runs
from source, never a stale build; another ruleset's build is not concerned.

Pure standard library, no Django: every ruleset imports it before its own modules.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import sys
from collections.abc import MutableSequence
from pathlib import Path

#: The source tree's root (the build lives in its `build/`).
ROOT = Path(__file__).resolve().parents[2]
BUILDS = ROOT / "build" / "engine-native"
#: Every build declared so far (a ruleset declares its own on import), by name.
DECLARED: dict[str, NativeBuild] = {}


def abi() -> str:
    """The very Python a build is for (an extension built by another, e.g. a build
    copied into a container image, may not load)."""
    return f"{sys.implementation.cache_tag}-{sys.platform}-{platform.machine()}-{sys.version}"


def pure() -> bool:
    """`ENGINE_PURE=1`: every ruleset runs from source."""
    return os.environ.get("ENGINE_PURE", "").strip() not in ("", "0")


class NativeBuild:
    """One ruleset's compiled group: `modules` of `package` (paths relative to the
    package's directory, without `.py`: "engine", "actions/attack"), compiled together
    (they call one another natively, so all or none), checked against every `.py` under
    `tree` (the ruleset's directory)."""

    def __init__(self, name: str, package: str, modules: tuple[str, ...], *,
                 tree: str | None = None, builds: Path = BUILDS) -> None:
        self.name = name
        self.package = package
        self.modules = modules
        self.source = ROOT.joinpath(*package.split("."))
        self.tree = ROOT.joinpath(*(tree or package).split("."))
        self.build = builds / name
        self.manifest = self.build / "manifest.json"
        self.group = f"{package}._native"  # mypyc's group: its shared library's name
        self._dir: str | None = None
        self._checked = False
        DECLARED[name] = self

    def __repr__(self) -> str:
        return f"NativeBuild({self.name!r}, {self.package!r}, {len(self.modules)} modules)"

    @property
    def paths(self) -> list[str]:
        """The compiled modules' files, relative to the root (what mypyc is given)."""
        return [f"{self.package.replace('.', '/')}/{m}.py" for m in self.modules]

    def source_files(self) -> list[Path]:
        return sorted(self.tree.rglob("*.py"))

    def source_hashes(self) -> dict[str, str]:
        """sha256 of every source file of the ruleset, by its path under the tree."""
        return {path.relative_to(self.tree).as_posix():
                hashlib.sha256(path.read_bytes()).hexdigest()
                for path in self.source_files()}

    def loads(self, directory: Path) -> bool:
        """Load the build's shared library now (its modules need it): False when this
        machine cannot, and the ruleset then runs from source."""
        name = f"{self.group}__mypyc"
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

    def fresh(self) -> bool:
        """Whether the build's manifest matches this Python and the source as it is."""
        try:
            manifest = json.loads(self.manifest.read_text())
        except (OSError, ValueError):
            return False
        if not isinstance(manifest, dict) or manifest.get("abi") != abi():
            return False
        try:
            return bool(manifest.get("sources") == self.source_hashes())
        except OSError:
            return False

    def native_dir(self) -> str | None:
        """The directory of the compiled modules of the package, when they are there,
        up to date and loadable (else None: the source runs)."""
        if pure() or not self.fresh():
            return None
        directory = self.build.joinpath(*self.package.split("."))
        return str(directory) if self.loads(directory) else None

    def install(self, path: MutableSequence[str], subpackage: str = "") -> bool:
        """Put the compiled directory first on a package's `__path__` (the package's
        own, or that of `subpackage` under it: "actions"); decided once a process."""
        if not self._checked:
            self._dir, self._checked = self.native_dir(), True
        if self._dir is None:
            return False
        path.insert(0, os.path.join(self._dir, *subpackage.split("/")) if subpackage
                    else self._dir)
        return True

    def compiled(self) -> bool:
        """Whether the package runs its compiled build (after `install`)."""
        return self._dir is not None
