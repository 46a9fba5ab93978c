"""The default one-page player (R-OP-15), one decision per function, choosing only what
the referee (`actions.legal`/`actions.apply`) allows: which unit to activate, whether to
assault, fire, close in or aim, and when passengers get out. Issue 29's battle plans will
steer these functions, not replace them."""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Json, RulesetError
from battles.rulesets.onepage import actions as A
from battles.rulesets.onepage import engine as E
from battles.rulesets.onepage import tables as T
from campaign.rules.dice import Dice


def choose(s: A.State, policy: str | None = None) -> Json:
    if policy not in (None, "default"):
        raise RulesetError(f"The one-page rules have no policy {policy!r}.")
    if s.side is None:
        raise RulesetError("The battle is over; nobody chooses any more.")
    if s.active is None:
        return activation_choice(s)
    return action_choice(s, A.unit(s, s.active))


def activation_choice(s: A.State) -> Json:
    """The side's units activate in the order they were deployed."""
    return {"side": A.side_id(s.side or ""), "do": "activate",
            "unit": s.pending[s.side or ""][0]}


def action_choice(s: A.State, u: E.Unit) -> Json:
    """One Action: passengers get out when they can fire from there; infantry within half
    movement of enemy infantry assaults it; otherwise fire at the nearest enemy in range of
    a weapon that can hurt it; otherwise close in toward it (stopping at the best range);
    otherwise aim. No enemy: the unit is done."""
    pid = A.side_id(u.side)
    if u.aboard is not None:
        return passenger_choice(s, u)
    target = nearest_enemy(s, u)
    if target is None:
        return {"side": pid, "do": "done", "unit": u.id}
    if should_assault(s, u, target):
        return {"side": pid, "do": "assault", "unit": u.id, "target": target.id}
    if E._in_range(u, target):
        return {"side": pid, "do": "fire", "unit": u.id, "target": target.id}
    to = close_in(s, u, target)
    if to != u.x:
        return {"side": pid, "do": "move", "unit": u.id, "to": to}
    return {"side": pid, "do": "aim", "unit": u.id}


def nearest_enemy(s: A.State, u: E.Unit) -> E.Unit | None:
    return E._nearest(s.battle, u)


def should_assault(s: A.State, u: E.Unit, target: E.Unit) -> bool:
    kind = T.UNIT_TYPES[u.type]
    return (not u.vehicle and not target.vehicle
            and E._distance(u, target) <= kind.move_cm / 2)


def close_in(s: A.State, u: E.Unit, target: E.Unit) -> float:
    return E.policy_move(s.battle, u, target)


def passenger_choice(s: A.State, u: E.Unit) -> Json:
    """Passengers get out once an enemy is within range of their weapons from where the
    transport stands; until then they ride (R-OP-14)."""
    pid = A.side_id(u.side)
    if any(E._in_range(u, e) for e in s.battle.enemies(u)):
        return {"side": pid, "do": "disembark", "unit": u.id}
    return {"side": pid, "do": "done", "unit": u.id}


def play(s: A.State) -> A.State:
    while s.side is not None:
        A.apply(s, choose(s))
    return s


def play_battle(battle_input: dict[str, Any], dice: Dice, *, keep_log: bool = True
                ) -> E.Battle:
    """A whole battle: deployed, then played out by the default policy for every side."""
    return play(A.start(battle_input, dice, keep_log=keep_log)).battle
