"""The names 30 Minute Missions gives what players buy (issue 26, item 4): a person's name for
each pilot or crew leader, a nickname after each unit's model. Read by the campaign through
`Ruleset.name_lists` (`campaign.rules.names` draws from them, never from the battle dice).
Flavour only: the seed names no one, so no rule is encoded here."""

from __future__ import annotations

NAME_LISTS: dict[str, tuple[str, ...]] = {
    "ranks": (
        "Ens.", "Lt.", "Lt. Cdr.", "Cdr.", "Capt.",
    ),
    "first": (
        "Aki", "Rin", "Kaito", "Mina", "Sora", "Daichi", "Yuna", "Ren", "Hana", "Jun", "Emi",
        "Taro",
    ),
    "last": (
        "Arisaka", "Kurosawa", "Mizuno", "Fujimoto", "Hayase", "Kanzaki", "Ogata", "Shirai",
        "Takeda", "Yamane", "Asano", "Hoshino",
    ),
    "nicknames": (
        "Alto Blue", "Portanova", "Cielnova", "Rabiot", "Spinatio", "Exa Frame", "Vorto",
        "Baskyrotto", "Lightfoot", "Kingfisher", "Redline", "Orbit Nine",
    ),
}
