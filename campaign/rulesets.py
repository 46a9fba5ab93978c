"""The tactical rulesets this site offers, as the core knows them.

The battles app registers each ruleset of its registry here in `AppConfig.ready()`
(the core imports no other app): its name, title, version, seed, dice, factions, and how
to read its rule tables and catalogue. Campaign settings, `GET /api/rulesets/`,
`GET /api/rules/?ruleset=` and the catalogue read them from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT = "unlimit3d8"


@dataclass(frozen=True)
class RulesetInfo:
    name: str
    title: str
    version: str
    seed: str
    dice: tuple[str, ...]
    factions: tuple[str, ...]
    tables: Callable[[], dict[str, Any]]
    catalogue: Callable[[str | None], list[dict[str, Any]]]

    def summary(self) -> dict[str, Any]:
        """The `GET /api/rulesets/` row (API.md, "Rulesets")."""
        return {"name": self.name, "title": self.title, "version": self.version,
                "seed": self.seed, "dice": list(self.dice), "factions": list(self.factions)}


_registered: dict[str, RulesetInfo] = {}


def register(info: RulesetInfo) -> None:
    _registered[info.name] = info


def get(name: str) -> RulesetInfo | None:
    return _registered.get(name)


def all_rulesets() -> list[RulesetInfo]:
    return list(_registered.values())


def check_name(value: Any) -> None:
    """Option validator: a ruleset this site offers."""
    if value not in _registered:
        known = ", ".join(sorted(_registered)) or "none"
        raise ValueError(f"'ruleset' must be one of the rulesets this site offers: {known}.")
