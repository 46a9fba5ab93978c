"""The names Unlimit3d 8 gives what players buy (issue 26, item 4): a person's name for
each pilot or crew leader, a nickname after each unit's model. Read by the campaign through
`Ruleset.name_lists` (`campaign.rules.names` draws from them, never from the battle dice).
Flavour only: the seed names no one, so no rule is encoded here."""

from __future__ import annotations

NAME_LISTS: dict[str, tuple[str, ...]] = {
    "ranks": (
        "Pvt.", "Cpl.", "Sgt.", "Lt.", "Capt.",
    ),
    "first": (
        "Mara", "Jonas", "Ilse", "Tomas", "Rhea", "Dmitri", "Ada", "Kofi", "Nell", "Oren",
        "Suvi", "Pavel", "Lena", "Arlo", "Yara", "Bram",
    ),
    "last": (
        "Voss", "Kade", "Lind", "Okafor", "Reyes", "Strand", "Hale", "Moreau", "Ibsen",
        "Tanaka", "Novak", "Quill", "Sato", "Bauer", "Ferro", "Wren",
    ),
    "nicknames": (
        "Iron Wolf", "Red Comet", "Old Faithful", "Dust Devil", "Night Owl", "Black Hound",
        "Lucky Seven", "Stormcrow", "Grey Ghost", "Hammerhead", "Sundown", "Rust Bucket",
        "Widowmaker", "Blue Heron", "Jackal", "Deep Core", "Ore Breaker", "Slag Queen",
    ),
}
