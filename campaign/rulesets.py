"""The tactical rulesets this site offers, as the core knows them.

The battles app registers each ruleset of its registry here in `AppConfig.ready()`
(the core imports no other app): its name, title, version, seed, dice, factions, and how
to read its rule tables and catalogue. Campaign settings, `GET /api/rulesets/`,
`GET /api/rules/?ruleset=` and the catalogue read them from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

#: The tactical ruleset a campaign plays unless its umpire chooses another: the one
#: place outside `battles/rulesets/` that names a ruleset (the tactical registry,
#: `battles.rulesets.registry`, reads it from here; the core imports no app).
DEFAULT = "unlimit3d8"


class OptionSpec(Protocol):
    """One option a ruleset declares (`battles.rulesets.base.RulesetOption`): its name,
    default, words for the umpire's form, and bounds. The settings form is built from
    these, and nothing else names a ruleset's options."""

    @property
    def key(self) -> str: ...
    @property
    def default(self) -> Any: ...
    @property
    def label(self) -> str: ...
    @property
    def help(self) -> str: ...
    @property
    def choices(self) -> tuple[Any, ...] | None: ...
    @property
    def minimum(self) -> int | None: ...
    @property
    def maximum(self) -> int | None: ...
    @property
    def ruling(self) -> str | None: ...


@dataclass(frozen=True)
class RulesetInfo:
    name: str
    title: str
    version: str
    seed: str
    dice: tuple[str, ...]
    factions: tuple[str, ...]
    tables: Callable[[], dict[str, Any]]
    #: (faction, the campaign's `ruleset_options`) -> entries; the options carry what an
    #: umpire imported (30 Minute Missions datasheets).
    catalogue: Callable[[str | None, dict[str, Any] | None], list[dict[str, Any]]]
    #: The ruleset's own campaign settings (name -> default), set through the campaign
    #: setting `ruleset_options`.
    options: dict[str, Any] = field(default_factory=dict)
    #: The campaign state of a unit just bought (catalogue key -> state).
    initial_state: Callable[[str], dict[str, Any]] = lambda key: {}
    #: (profile, state) -> (SC to restore it, the restored state).
    repair: Callable[[dict[str, Any], dict[str, Any]], tuple[int, dict[str, Any]]] = (
        lambda profile, state: (0, dict(state)))
    #: The same options as declared, with labels, help, choices and bounds (the form).
    option_specs: tuple[OptionSpec, ...] = ()
    #: Checks the ruleset's options beyond their types (ValueError with a sentence).
    check_options: Callable[[dict[str, Any]], None] = lambda options: None
    #: What its pilots and units are named from (issue 26): `{"ranks", "first", "last",
    #: "nicknames"}`, read by `campaign.rules.names.lists_from` (empty: the defaults).
    name_lists: Callable[[], dict[str, Any]] = dict
    #: The item kinds (besides buildings) a player buys for a force of this ruleset:
    #: ("unit",) a whole unit from the catalogue, crew included; Unlimit3d 8's parts
    #: (vehicle, weapon, equipment, operative) bought and fitted apart.
    purchase_kinds: tuple[str, ...] = ("unit",)
    #: Whether a damaged unit is restored by paying credits (`repair`).
    repairs: bool = True

    @property
    def sells_whole_units(self) -> bool:
        """A player buys whole units from the catalogue (`{"kind": "unit", "key"}`)."""
        return "unit" in self.purchase_kinds

    def for_faction(self, faction: str | None,
                    options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """What a seat of `faction` may buy (API.md "Rulesets": "in this campaign's ruleset
        (and faction)"). In a ruleset with factions only entries of that faction or of
        none are kept, whatever the ruleset returned (a seat without a faction gets the
        entries of none); a ruleset without factions sells its whole catalogue."""
        entries = self.catalogue(faction or None, options)
        if not self.factions:
            return entries
        return [e for e in entries if e.get("faction") in (None, "", faction or None)]

    def entry(self, key: str, faction: str | None = None,
              options: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The entry called `key` that a seat of `faction` may buy, or None."""
        return next((e for e in self.for_faction(faction, options) if e["key"] == key),
                    None)

    def summary(self) -> dict[str, Any]:
        """The `GET /api/rulesets/` row (API.md, "Rulesets")."""
        return {"name": self.name, "title": self.title, "version": self.version,
                "seed": self.seed, "dice": list(self.dice), "factions": list(self.factions)}


_registered: dict[str, RulesetInfo] = {}


def register(info: RulesetInfo) -> None:
    _registered[info.name] = info


def unregister(name: str) -> None:
    _registered.pop(name, None)


def get(name: str) -> RulesetInfo | None:
    return _registered.get(name)


def all_rulesets() -> list[RulesetInfo]:
    return list(_registered.values())


def check_name(value: Any) -> None:
    """Option validator: a ruleset this site offers."""
    if value not in _registered:
        known = ", ".join(sorted(_registered)) or "none"
        raise ValueError(f"'ruleset' must be one of the rulesets this site offers: {known}.")


def check_ruleset_options(value: Any) -> None:
    """Option validator for `ruleset_options`: names a registered ruleset declares, each
    with a value of its default's type."""
    if not isinstance(value, dict):
        raise ValueError("'ruleset_options' must be an object of option names to values.")
    known: dict[str, Any] = {}
    for info in _registered.values():
        for key, default in info.options.items():
            known.setdefault(key, default)
    for key, val in value.items():
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise ValueError(f"unknown ruleset option '{key}' (known: {names}).")
        default = known[key]
        if isinstance(default, bool) != isinstance(val, bool) or (
                not isinstance(default, bool)
                and not isinstance(val, type(default))
                and not (isinstance(default, float) and isinstance(val, int))):
            raise ValueError(f"ruleset option '{key}' must be like {default!r}.")
    for info in _registered.values():
        for spec in info.option_specs:
            if spec.key not in value:
                continue
            val = value[spec.key]
            if spec.choices is not None and val not in spec.choices:
                allowed = ", ".join(str(c) for c in spec.choices)
                raise ValueError(f"{spec.label} must be one of {allowed}.")
            if spec.minimum is not None and val < spec.minimum:
                raise ValueError(f"{spec.label} must be at least {spec.minimum}.")
            if spec.maximum is not None and val > spec.maximum:
                raise ValueError(f"{spec.label} must be at most {spec.maximum}.")
    for info in _registered.values():
        mine = {k: v for k, v in value.items() if k in info.options}
        if mine:
            info.check_options(mine)
