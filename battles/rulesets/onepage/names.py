"""The names the one-page skirmish gives what players buy (issue 26, item 4): a person's name for
each pilot or crew leader, a nickname after each unit's model. Read by the campaign through
`Ruleset.name_lists` (`campaign.rules.names` draws from them, never from the battle dice).
Flavour only: the seed names no one, so no rule is encoded here."""

from __future__ import annotations

NAME_LISTS: dict[str, tuple[str, ...]] = {
    "ranks": (
        "Pvt.", "Cpl.", "Sgt.", "Lt.",
    ),
    "first": (
        "Cass", "Eli", "Juno", "Marek", "Tess", "Rafe", "Vera", "Noor", "Ivo", "Sable", "Finn",
        "Lio",
    ),
    "last": (
        "Harker", "Dunn", "Castillo", "Aalto", "Mbeki", "Rourke", "Lenz", "Varga", "Okoro",
        "Pike", "Solis", "Thorne",
    ),
    "nicknames": (
        "Hellhounds", "Ash Rats", "Last Light", "Blue Vipers", "Salt Dogs", "Tin Saints",
        "Long Walk", "Night Shift", "Ironclad", "Foxhole", "Gravediggers", "Sparrows",
    ),
}
