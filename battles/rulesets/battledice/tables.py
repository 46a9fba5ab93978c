"""The rule tables of the battle-dice game with God Machines (seed 004), written once.

The seed ends at its heading "Unit Stats": the stats table, the faces of the battle dice
and the order/command cards are not in it. Each is a ruling (docs/rulings/battledice.md)
and the ones umpires could dispute are campaign settings (`OPTIONS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.rulesets.base import RulesetOption, option_defaults

SEED_FILE = "004_8f38583c4d35fed4.txt"

SYMBOLS: tuple[str, ...] = ("infantry", "vehicle", "god_machine", "leader", "target",
                            "retreat")
#: R-BD-1: the battle die is a d6 with one face per symbol, in the seed's order.
DEFAULT_FACES: tuple[str, ...] = SYMBOLS

#: Battle Hierarchy: "1. God Machine 2. Leader 3. Vehicle 4. Infantry" (1 is highest).
CLASS_RANK: dict[str, int] = {"god_machine": 1, "leader": 2, "vehicle": 3, "infantry": 4}
#: "1. Super Heavy 2. Heavy 3. Medium 4. Light".
TYPE_RANK: dict[str, int] = {"super_heavy": 1, "heavy": 2, "medium": 3, "light": 4}


@dataclass(frozen=True)
class Stats:
    """R-BD-2, the missing "Unit Stats": models, size (a single model's Damage Capacity,
    and its height for line of sight), hexes moved, range in hexes, battle dice."""

    unit_class: str
    unit_type: str
    models: int
    size: int
    move: int
    range: int
    dice: int

    @property
    def key(self) -> str:
        return f"{self.unit_type}_{self.unit_class}"


STATS: dict[str, Stats] = {s.key: s for s in (
    Stats("infantry", "light", 4, 1, 2, 3, 2),
    Stats("infantry", "medium", 4, 1, 1, 4, 3),
    Stats("infantry", "heavy", 3, 1, 1, 4, 3),
    Stats("infantry", "super_heavy", 3, 1, 1, 5, 4),
    Stats("vehicle", "light", 3, 2, 3, 4, 2),
    Stats("vehicle", "medium", 2, 2, 2, 5, 3),
    Stats("vehicle", "heavy", 1, 3, 2, 6, 4),
    Stats("vehicle", "super_heavy", 1, 4, 1, 6, 5),
    Stats("leader", "light", 1, 1, 2, 3, 2),       # a single-model Leader
    Stats("leader", "medium", 4, 1, 1, 4, 3),      # a Leader unit of four models
    Stats("god_machine", "light", 1, 5, 1, 8, 4),
    Stats("god_machine", "medium", 1, 6, 1, 8, 5),
    Stats("god_machine", "heavy", 1, 8, 1, 10, 6),
    Stats("god_machine", "super_heavy", 1, 10, 1, 12, 8),
)}

#: R-BD-4: terrain hexes and their size for line of sight; woods, ruins and buildings
#: cost the defender one battle die less against a unit standing in them.
TERRAIN_SIZE: dict[str, int] = {"open": 0, "woods": 2, "ruins": 2, "building": 3, "hill": 3}
COVER_TERRAIN: frozenset[str] = frozenset({"woods", "ruins", "building"})

#: R-BD-3: the order-card deck: how many units each card orders.
ORDER_DECK: tuple[int, ...] = (1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4)
HAND_SIZE = 3

#: R-BD-4: the board.
COLUMNS = 10
ROWS = 8

OPTION_SPECS: tuple[RulesetOption, ...] = (
    RulesetOption("battledice_faces", list(DEFAULT_FACES), "Faces of a battle die",
                  "The six faces of a battle die.", ruling="R-BD-1"),
    RulesetOption("battledice_max_turns", 8, "Turns per side",
                  "Turns each side plays before the defender holds the field.",
                  minimum=1, maximum=50, ruling="R-BD-6"),
    RulesetOption("battledice_rank_every", 3, "Battles per rank",
                  "Battles a unit survives to climb one rank (+1 die).",
                  minimum=1, maximum=50, ruling="R-BD-7"),
    RulesetOption("battledice_blocked_retreat", "hit", "A blocked retreat",
                  "A unit that cannot retreat takes a hit, or stays where it is.",
                  choices=("hit", "stay"), ruling="R-BD-5"),
)
OPTIONS: dict[str, object] = option_defaults(OPTION_SPECS)
MAX_RANK = 2


def stats(key: str) -> Stats:
    try:
        return STATS[key]
    except KeyError:
        raise KeyError(f"unknown unit {key!r} (one of {', '.join(STATS)})") from None


def as_json() -> dict[str, object]:
    return {
        "ruleset": "battledice", "seed": SEED_FILE, "symbols": list(SYMBOLS),
        "faces": {str(i + 1): s for i, s in enumerate(DEFAULT_FACES)},
        "class_hierarchy": CLASS_RANK, "type_hierarchy": TYPE_RANK,
        "stats": [{"key": s.key, "class": s.unit_class, "type": s.unit_type,
                   "models": s.models, "size": s.size, "move": s.move, "range": s.range,
                   "dice": s.dice} for s in STATS.values()],
        "terrain": TERRAIN_SIZE, "order_deck": list(ORDER_DECK), "hand_size": HAND_SIZE,
        "board": {"columns": COLUMNS, "rows": ROWS}, "options": dict(OPTIONS),
    }
