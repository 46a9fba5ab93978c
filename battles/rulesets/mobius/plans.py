"""A side's sealed battle plan (issue 29) in Mobius terms (R-MOB-40..43): how its strength
is counted, when it withdraws, and what its stance and focus are. The policy
(`policy.py`) reads these; nothing here rolls a die.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.rulesets.base import Plan, plans_of
from battles.rulesets.mobius.state import Battle, Unit


def read(battle_input: Mapping[str, Any]) -> dict[str, Plan]:
    """The input's plans by side key (a malformed one raises `RulesetError`); a plan for a
    player who has no side in this battle has nothing to steer and is left out."""
    sides = {str(s) for s in battle_input["sides"]}
    return {side: plan for side, plan in plans_of(battle_input).items() if side in sides}


def strength(units: list[Unit], side: str) -> int:
    """R-MOB-41: a side's strength is the HP of its models (on the table, inside a
    transport or in Reserve)."""
    return sum(u.hp_left for u in units if u.side == side)


def lost_share(b: Battle, side: str) -> int:
    """The percentage of the side's starting strength it has lost: HP lost to wounds, the
    HP of destroyed units and of units that routed in panic ("treated as Casualties");
    units its plan took off the table count as kept."""
    start = b.strength.get(side, 0)
    if start <= 0:
        return 0
    kept = sum(u.hp_left for u in b.units if u.side == side and (u.in_play or u.withdrew))
    return round(100 * (start - kept) / start)


def stance(b: Battle, side: str) -> str:
    """`withdraw` once the side is leaving, else its plan's stance (no plan: attack)."""
    if side in b.withdrawing:
        return "withdraw"
    plan = b.plans.get(side)
    return plan.stance if plan is not None else "attack"


def focus(b: Battle, side: str) -> str:
    plan = b.plans.get(side)
    return plan.focus if plan is not None else "nearest"


def review(b: Battle, side: str) -> None:
    """R-MOB-40/41: as its Movement Phase opens, a side with a plan takes stock; told to
    withdraw, or having lost `retreat_at` percent of its strength (below 100), it leaves
    the field from now on. Its units still in Reserve never come on: they leave with it."""
    plan = b.plans.get(side)
    if plan is None or side in b.withdrawing:
        return
    lost = lost_share(b, side)
    if plan.stance != "withdraw" and not (plan.retreat_at < 100 and lost >= plan.retreat_at):
        return
    b.withdrawing.add(side)
    b.note(event="plan_withdraw", side=side, lost=lost, retreat_at=plan.retreat_at,
           stance=plan.stance, text=f"Side {side} withdraws as its plan says ({lost}% of its "
           "strength lost)")
    for u in b.units:
        if u.side == side and u.reserve and u.in_play:
            u.routed = u.withdrew = True
