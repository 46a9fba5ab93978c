"""The names Battle dice with God Machines gives what players buy (issue 26, item 4): a
person's name for each pilot or crew leader, a nickname after each unit's model. Read by the
campaign through `Ruleset.name_lists` (`campaign.rules.names` draws from them, never from
the battle dice). Flavour only: the seed names no one, so no rule is encoded here."""

from __future__ import annotations

NAME_LISTS: dict[str, tuple[str, ...]] = {
    "ranks": (
        "Acolyte", "Pilot", "Warden", "Sister", "Brother",
    ),
    "first": (
        "Ansel", "Berit", "Corvin", "Dagny", "Esra", "Fenwick", "Greta", "Hollis", "Isolde",
        "Jory", "Kestrel", "Lorne",
    ),
    "last": (
        "of Ash", "of the Forge", "Vantablack", "Ironsworn", "Grail", "Mournhold", "Candle",
        "Brightsteel", "Cinder", "Vesper", "Thorn", "Halloway",
    ),
    "nicknames": (
        "Saint Ferrum", "Grave Bell", "Cathedral", "Last Rite", "Penitent", "Gloria",
        "Anvil of Dawn", "Requiem", "Vigil", "Hosanna", "Reliquary", "Ember Psalm",
    ),
}
