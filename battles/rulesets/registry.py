"""The registry of tactical rulesets: one line per ruleset (godip's variants list,
python-chess's `VARIANTS`). Everything else finds a ruleset here by name."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from battles.rulesets.base import Ruleset, RulesetError
from campaign.rulesets import DEFAULT as DEFAULT  # the one definition (the core's)

#: name -> "module:attribute" of the ruleset object. Imported on first use so a broken
#: ruleset cannot stop the others (and tests can register a toy one).
_PATHS: dict[str, str] = {
    "unlimit3d8": "battles.rulesets.unlimit3d8.ruleset:RULESET",
    "onepage": "battles.rulesets.onepage.ruleset:RULESET",
    "battledice": "battles.rulesets.battledice.ruleset:RULESET",
    "thirtymm": "battles.rulesets.thirtymm.ruleset:RULESET",
    "mobius": "battles.rulesets.mobius.ruleset:RULESET",
}

_LOADED: dict[str, Ruleset] = {}


def add_path(name: str, path: str) -> None:
    """Offer a ruleset installed outside this package ("module:attribute"), imported on
    first use like the built-in ones."""
    _PATHS[name] = path


def register(ruleset: Ruleset) -> None:
    """Register a ruleset object under its name (tests register toy rulesets this way)."""
    _LOADED[ruleset.name] = ruleset


def unregister(name: str) -> None:
    _LOADED.pop(name, None)


def _installed(path: str) -> bool:
    module = path.partition(":")[0]
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def names() -> list[str]:
    """Every registered ruleset name whose package is present, in registry order."""
    return list(dict.fromkeys([*(n for n, p in _PATHS.items() if _installed(p)), *_LOADED]))


def find_ruleset(name: str | None) -> Ruleset:
    """The ruleset called `name` (None: the default). RulesetError names the known ones."""
    key = name or DEFAULT
    if key not in _LOADED:
        path = _PATHS.get(key)
        if path is None:
            known = ", ".join(names())
            raise RulesetError(f"Unknown ruleset {key!r}; known rulesets: {known}.")
        module, _, attr = path.partition(":")
        _LOADED[key] = getattr(import_module(module), attr)
    return _LOADED[key]


def all_rulesets() -> list[Ruleset]:
    return [find_ruleset(n) for n in names()]
