"""The names Mobius gives what players buy (issue 26, item 4): a person's name for
each pilot or crew leader, a nickname after each unit's model. Read by the campaign through
`Ruleset.name_lists` (`campaign.rules.names` draws from them, never from the battle dice).
Flavour only: the seed names no one, so no rule is encoded here."""

from __future__ import annotations

NAME_LISTS: dict[str, tuple[str, ...]] = {
    "ranks": (
        "Op.", "Spc.", "Sgt.", "Lt.", "Cdr.",
    ),
    "first": (
        "Zane", "Kira", "Ozan", "Petra", "Quin", "Rook", "Saga", "Teo", "Uma", "Vale", "Wyn",
        "Xia",
    ),
    "last": (
        "Marrow", "Halcyon", "Stroud", "Ishikawa", "Delacroix", "Nyberg", "Achebe", "Corvo",
        "Lindqvist", "Raske", "Sorel", "Vantongeren",
    ),
    "nicknames": (
        "Moebius Strip", "Loopback", "Zero Point", "Eventide", "Paradox", "Recursion",
        "Klein Bottle", "Wraparound", "Singularity", "Null Vector", "Ouroboros",
        "Endless Mile",
    ),
}
