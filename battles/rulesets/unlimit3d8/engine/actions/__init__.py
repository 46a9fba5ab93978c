"""One module per action of the tactical turn; `perform` dispatches an action object."""

from battles.rulesets.unlimit3d8.engine.actions.base import (
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
from battles.rulesets.unlimit3d8.engine.actions.dispatch import perform

__all__ = [
    "Action", "Assault", "CloseCombat", "Designate", "EnterBunker", "Lift", "Move", "Order",
    "Pass", "Piracy", "Ram",
    "RangedAttack", "Repair", "Retreat", "Tackle", "Warp", "perform",
]
