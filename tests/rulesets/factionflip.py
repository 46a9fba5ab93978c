"""A toy ruleset with factions (issue 14): the coin flip of tests/rulesets/coinflip.py,
played by two factions, each with a unit of its own beside a unit every faction may buy.
Registered only in tests; it proves the core's faction support without the Mobius
ruleset (whose factions and units are its own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.rulesets.base import Battlefield, CatalogueEntry, Json
from tests.rulesets.coinflip import CoinFlip

#: Every entry, each with its faction (None: any faction may buy it).
ENTRIES = (
    CatalogueEntry(key="coin", name="Coin bearer", kind="infantry", price=7,
                   profile={"figures": 2}),
    CatalogueEntry(key="red_knight", name="Red knight", kind="infantry", price=30,
                   profile={"figures": 1}, faction="red"),
    CatalogueEntry(key="blue_archer", name="Blue archer", kind="infantry", price=20,
                   profile={"figures": 3}, faction="blue"),
)


class FactionFlip(CoinFlip):
    name = "factionflip"
    version = "1"
    title = "Faction flip"
    factions = ("red", "blue")

    def tables(self) -> Json:
        return {"options": {}, "factions": list(self.factions)}

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        """A faction's units and the common ones; without a faction, every entry."""
        chosen = [e for e in ENTRIES if faction is None or e.faction in (None, faction)]
        return sorted(chosen, key=lambda e: e.price)

    def forces(self, battlefield: Battlefield) -> Json:
        """The coin flip's input, with each side's faction (the campaign's extras)."""
        return {**super().forces(battlefield),
                "factions": {str(p): f for p, f in
                             (battlefield.extras.get("factions") or {}).items()}}

    def initial_state(self, key: str) -> Json:
        return {"figures": next(e.profile["figures"] for e in ENTRIES if e.key == key),
                "wins": 0}


RULESET = FactionFlip()
