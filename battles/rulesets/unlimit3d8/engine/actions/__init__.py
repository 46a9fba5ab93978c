"""One module per action of the tactical turn; `perform` dispatches an action object.

Some run compiled, as the engine's hot modules do (`engine.native`): the compiled
directory then comes first in `__path__`.
"""

from battles.rulesets.unlimit3d8.engine.native import NATIVE

NATIVE.install(__path__, "actions")

# After the path is set (E402): these imports load the compiled modules when fresh.
from battles.rulesets.unlimit3d8.engine.actions.base import (  # noqa: E402
    Action,
    Assault,
    CloseCombat,
    Designate,
    EnterBunker,
    Lift,
    Move,
    Order,
    Pass,
    Piracy,
    Ram,
    RangedAttack,
    Repair,
    Retreat,
    Tackle,
    Warp,
)
from battles.rulesets.unlimit3d8.engine.actions.dispatch import perform  # noqa: E402

__all__ = [
    "Action", "Assault", "CloseCombat", "Designate", "EnterBunker", "Lift", "Move", "Order",
    "Pass", "Piracy", "Ram",
    "RangedAttack", "Repair", "Retreat", "Tackle", "Warp", "perform",
]
