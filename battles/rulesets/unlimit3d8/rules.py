"""Unlimit3d 8's battle formulas (seed 003): the unit card's base defense and skill
columns, the roll's score, damage ticks, shields and warp increments. Pure Python; the
strategic layer's formulas (shipping value, energy, slots and loadouts, a weapon's stat
line after its templates) stay in `campaign.rules.formulas`.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8.tables import (
    BASE_DEFENSE_CONSTANT,
    BASE_DEFENSE_MINIMUM,
    SHIELD_BY_SIZE_CLASS,
    SHIELDS,
    WARP_INCREMENT_INCHES,
    ShieldSpec,
    column_for_sum,
)
from campaign.rules.tables import RuleViolation, SkillLine, vehicle


def base_defense(pilot_skill: int, size: int, weight: int) -> int:
    """ "Base defense = 15 + Pilot skill - (Size + Weight)"; "Minimum Base defense is 1".

    `pilot_skill` is the Pilot skill *score* of the skill line (Fight for exo armor,
    see `defense_skill`); `weight` is the total weight, weapons included.
    """
    return max(BASE_DEFENSE_MINIMUM, BASE_DEFENSE_CONSTANT + pilot_skill - (size + weight))



def defense_skill(category: str, line: SkillLine) -> int:
    """The skill score used for base defense: Pilot, or Fight in exo armor.

    "To calculate the Move increment, Max move and Base defense of a character in exo
    armor, replace Pilot skill with Fight skill."
    """
    return line.fight if category == "exo_armor" else line.pilot



def unit_base_defense(vehicle_key: str, line: SkillLine, weight: int) -> int:
    """Base defense of `line`'s operative in this vehicle at this total weight."""
    spec = vehicle(vehicle_key)
    return base_defense(defense_skill(spec.category, line), spec.size, weight)



def skill_columns(score: int) -> tuple[int, ...]:
    """The seven unit-card columns of a skill: x0.5 ... x3.5, halves rounded down."""
    return tuple(score * k // 2 for k in range(1, 8))



def skill_score(score: int, dice_sum: int) -> int:
    """The result of a roll: the column picked by the 3d8 sum on the J row (R-TAB-4)."""
    return skill_columns(score)[column_for_sum(dice_sum)]



def damage_split(damage: int) -> tuple[int, int]:
    """(unrepairable X ticks, repairable / ticks): "tick half of them (rounded up) with a
    cross, the other half with a slash"."""
    if damage < 0:
        raise RuleViolation(f"Damage cannot be negative ({damage}).")
    return (damage + 1) // 2, damage // 2



def repair_failure_split(slashes: int) -> int:
    """Slash ticks that become X after a failed repair: "half ... (rounded up)"."""
    return (slashes + 1) // 2



def shield_for(size_class: str) -> ShieldSpec:
    """The shield table line for a shield of size class "L", "M" or "H"."""
    try:
        return SHIELDS[SHIELD_BY_SIZE_CLASS[size_class]]
    except KeyError:
        raise RuleViolation(f"Shield size must be L, M or H, not {size_class!r}.") from None



def warp_increment_inches(size_class: str) -> int:
    """Inches per difficulty step of a warp: 4, or 2 if Light, 6 if Heavy."""
    return WARP_INCREMENT_INCHES[size_class]
