"""Unlimit3d 8's battle tables (seed 003), kept once, as data: what only a battle reads.

The strategic layer's tables (buildings, energy, resources, exploration, credits,
pilot classes and their XP, the weapons, templates and vehicles a player buys) stay in
`campaign.rules.tables`, which every campaign plays; these are the tactical game's: the
roll (J row), the move table, shields, ranges, difficulties of actions, missiles,
force fields. Rulings cited next to a value are docs/RULINGS.md's ("Tables", R-TAB-n).
Served by `GET /api/rules/` with the rest (`serialize.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from campaign.rules.tables import MAX_LEVEL, RuleViolation

MISSILE_DAMAGE: Final = 40  # "A missile deals 40 damages in a 4" radius."
MISSILE_RADIUS: Final = 4
DESIGNATOR_RANGE: Final = 12  # "It must be within 12" of its target."
DESIGNATION_CDT_PER_TERRITORY: Final = 2  # "2CDT by territory that separates the silo"
BUNKER_CAPACITY: Final = 5  # "shelter up to five of your operatives if they use an exo armor"
FORCE_FIELD_ARMOR: Final = 5  # "considered having an additional armor of 5"
FORCE_FIELD_GENERATORS: Final = 4  # "destroy all 4 force field generators"
FORCE_FIELD_GENERATOR_HP: Final = 15  # "each force field generator has 15 Hit points"
FORCE_FIELD_AREA_INCHES: Final = 4  # 'protects a 4" x 4" territory'
BARRICADE_EXTRA_RANGE_INCREMENTS: Final = 2  # "two additional rang increments"
TURRET_PIRACY_DIFFICULTY: Final = 20  # Piracy on a turret: "Tech skill roll of 20"
BUILDING_DEFENSE: Final = 0  # "all buildings are considered to have a defense value of 0"

BASE_DEFENSE_CONSTANT: Final = 15  # "Base defense = 15 + Pilot skill - (Size + Weight)"
BASE_DEFENSE_MINIMUM: Final = 1  # "Minimum Base defense is 1"

# Unit card H: "skill scores multiplied by 0.5, 1, 1.5, 2, 2.5, 3 and 3.5".
SKILL_MULTIPLIERS: Final = (0.5, 1, 1.5, 2, 2.5, 3, 3.5)
RANGE_INCREMENT_INCHES: Final = 4  # "every complete 4 inches of distance"
RANGE_INCREMENT_INCHES_INFANTRY: Final = 2
ASSAULT_RANGE_INCREMENT_INCHES: Final = 2
ORDER_CDT: Final = 2  # "A character who issues an order takes two CDT"

ORDER_DIFFICULTY_PER: Final = 3  # "3 x (number of target units)" / "3 x ( number of tokens)"
IMMOBILIZE_EXTRA_DIFFICULTY: Final = 6  # tackle: "The difficulty is the same, plus 6."
REPAIR_DIFFICULTY_PER_HP: Final = 2  # "The roll difficulty is 2 x the target number of hitpoint"
WARP_DIFFICULTY_PER_INCREMENT: Final = 8  # "difficulty of 8 x each 4" of distance"

WARP_BLAST_PER_MASS: Final = 5  # "(5 x Unit Mass) damages"
DICE_SIDES: Final = 8
DICE_COUNT: Final = 3

# (lowest sum, highest sum, column index 0..6 into SKILL_MULTIPLIERS)
J_ROW: Final = (
    (3, 5, 0), (6, 8, 1), (9, 11, 2), (12, 14, 3), (15, 17, 4), (18, 20, 5), (21, 24, 6),
)


def column_for_sum(total: int) -> int:
    """The unit-card column (0 = x0.5 ... 6 = x3.5) for a 3d8 sum (3..24), by R-TAB-4."""
    for low, high, column in J_ROW:
        if low <= total <= high:
            return column
    raise RuleViolation(f"A roll is three d8, summing 3 to 24, not {total}.")


SPREAD_DAMAGE_LOSS_PER_INCHES: Final = 4
SPREAD_POINTBLANK_NEMESIS_MIN: Final = 7
PIRACY_UNIT_CDT_FLAT: Final = 5  # "Active die + 5 CDT"

# Warp drive: 'difficulty of 8 x each 4" of distance (2" if Light, 6" if Heavy)'
WARP_INCREMENT_INCHES: Final[dict[str, int]] = {"L": 2, "M": 4, "H": 6}


@dataclass(frozen=True)
class ShieldSpec:
    size: str  # "light", "medium", "heavy"
    extra_hp: int
    armor_bonus: int
    defense_bonus: int  # added to the close-combat difficulty to touch


SHIELDS: Final[dict[str, ShieldSpec]] = {s.size: s for s in [
    ShieldSpec("light", 5, 1, 4),
    ShieldSpec("medium", 10, 2, 6),
    ShieldSpec("heavy", 15, 3, 8),
]}

SHIELD_BY_SIZE_CLASS: Final[dict[str, str]] = {"L": "light", "M": "medium", "H": "heavy"}

# Rows: total weight bands 1-2, 3-4, ... 15-16; columns: Pilot Skill 1..8 (the level,
# R-TAB-5). Each cell: (move increment, max move).
MOVE_WEIGHT_BANDS: Final = ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16))

MOVE_TABLE: Final = (
    ((2, 3), (2, 3), (2, 4), (2, 4), (1, 4), (1, 5), (1, 5), (1, 5)),
    ((3, 3), (2, 3), (2, 3), (2, 4), (2, 4), (1, 4), (1, 5), (1, 5)),
    ((3, 2), (3, 3), (2, 3), (2, 3), (2, 4), (2, 4), (1, 4), (1, 5)),
    ((3, 2), (3, 2), (3, 3), (2, 3), (2, 3), (2, 4), (2, 4), (1, 4)),
    ((3, 2), (3, 2), (3, 2), (3, 3), (2, 3), (2, 3), (2, 4), (2, 4)),
    ((4, 1), (3, 2), (3, 2), (3, 2), (3, 3), (2, 3), (2, 3), (2, 4)),
    ((4, 1), (4, 1), (3, 2), (3, 2), (3, 2), (3, 3), (2, 3), (2, 3)),
    ((4, 1), (4, 1), (3, 1), (3, 2), (3, 2), (3, 2), (2, 3), (2, 3)),
)

MOVE_MAX_WEIGHT: Final = 16


def move_stats(total_weight: int, pilot_skill: int) -> tuple[int, int]:
    """(move increment, max move) for a total weight and a Pilot Skill level.

    R-TAB-5: the columns are the pilot's level (1..8); levels are clamped to 1..8 and
    weights to 1..16 (a weight of 0 reads the 1-2 row, above 16 the 15-16 row).
    """
    weight = min(max(total_weight, 1), MOVE_MAX_WEIGHT)
    column = min(max(pilot_skill, 1), MAX_LEVEL)
    return MOVE_TABLE[(weight - 1) // 2][column - 1]


__all__ = [
    "ASSAULT_RANGE_INCREMENT_INCHES", "BARRICADE_EXTRA_RANGE_INCREMENTS", "BASE_DEFENSE_CONSTANT",
    "BASE_DEFENSE_MINIMUM", "BUILDING_DEFENSE", "BUNKER_CAPACITY", "DESIGNATION_CDT_PER_TERRITORY",
    "DESIGNATOR_RANGE", "DICE_COUNT", "DICE_SIDES", "FORCE_FIELD_AREA_INCHES",
    "FORCE_FIELD_ARMOR", "FORCE_FIELD_GENERATORS", "FORCE_FIELD_GENERATOR_HP",
    "IMMOBILIZE_EXTRA_DIFFICULTY", "J_ROW", "MISSILE_DAMAGE", "MISSILE_RADIUS",
    "MOVE_MAX_WEIGHT", "MOVE_TABLE", "MOVE_WEIGHT_BANDS", "ORDER_CDT", "ORDER_DIFFICULTY_PER",
    "PIRACY_UNIT_CDT_FLAT", "RANGE_INCREMENT_INCHES", "RANGE_INCREMENT_INCHES_INFANTRY",
    "REPAIR_DIFFICULTY_PER_HP", "SHIELDS", "SHIELD_BY_SIZE_CLASS", "SKILL_MULTIPLIERS",
    "SPREAD_DAMAGE_LOSS_PER_INCHES", "SPREAD_POINTBLANK_NEMESIS_MIN",
    "TURRET_PIRACY_DIFFICULTY", "WARP_BLAST_PER_MASS", "WARP_DIFFICULTY_PER_INCREMENT",
    "WARP_INCREMENT_INCHES", "ShieldSpec", "column_for_sum", "move_stats",
]
