"""The Unlimit3d 8 tactical engine: pure Python, no Django, no global random.

Data in (`BattleInput`: forces, buildings, seed, options), result out (`BattleResult`:
winner, unit fates, XP events, the full dice and action log). See `resolve_battle`.

The hot modules may run compiled (`native`: built by mypyc from this source, used only
while it matches the source): the compiled directory then comes first in `__path__`.
"""

from battles.rulesets.unlimit3d8.engine.native import NATIVE

NATIVE.install(__path__)

# After the path is set (E402): these imports load the compiled modules when fresh.
from battles.rulesets.unlimit3d8.engine.dice import (  # noqa: E402
    Dice,
    DiceExhaustedError,
    ForcedDice,
    Roll,
)
from battles.rulesets.unlimit3d8.engine.model import (  # noqa: E402
    BattleInput,
    BattleResult,
    BuildingInput,
    UnitInput,
    UnitOutcome,
    WeaponInput,
    XpEvent,
)
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle  # noqa: E402

__all__ = [
    "BattleInput", "BattleResult", "BuildingInput", "Dice", "DiceExhaustedError",
    "ForcedDice", "Roll", "UnitInput", "UnitOutcome", "WeaponInput", "XpEvent",
    "resolve_battle",
]


def compiled() -> bool:
    """Whether the engine runs its compiled build (else its source)."""
    return NATIVE.compiled()
