"""The Unlimit3d 8 tactical engine: pure Python, no Django, no global random.

Data in (`BattleInput`: forces, buildings, seed, options), result out (`BattleResult`:
winner, unit fates, XP events, the full dice and action log). See `resolve_battle`.
"""

from battles.rulesets.unlimit3d8.engine.dice import Dice, DiceExhaustedError, ForcedDice, Roll
from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BattleResult,
    BuildingInput,
    UnitInput,
    UnitOutcome,
    WeaponInput,
    XpEvent,
)
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle

__all__ = [
    "BattleInput", "BattleResult", "BuildingInput", "Dice", "DiceExhaustedError",
    "ForcedDice", "Roll", "UnitInput", "UnitOutcome", "WeaponInput", "XpEvent",
    "resolve_battle",
]
