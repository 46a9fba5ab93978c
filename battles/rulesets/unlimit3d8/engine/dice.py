"""The engine's dice are the campaign's one dice seam (`campaign.rules.dice`, pure Python).

Seed, "Making a roll": "To roll, you need three eight-sided dice (3d8) ... the active die,
the passive die, the nemesis die".
"""

from campaign.rules.dice import Dice, DiceExhaustedError, DiceSource, ForcedDice, Roll

__all__ = ["Dice", "DiceExhaustedError", "DiceSource", "ForcedDice", "Roll"]
