"""The default one-page player (R-OP-15), one decision per function, choosing only what
the referee (`actions.legal`/`actions.apply`) allows: which unit to activate, whether to
assault, fire, close in or aim, and when passengers get out. Issue 29's battle plans
(R-OP-18..21) steer these functions: a side without a plan plays exactly as R-OP-15 says."""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Json, Plan, RulesetError
from battles.rulesets.onepage import actions as A
from battles.rulesets.onepage import engine as E
from battles.rulesets.onepage import rules as R
from battles.rulesets.onepage import tables as T
from campaign.rules.dice import Dice


def choose(s: A.State, policy: str | None = None) -> Json:
    if policy not in (None, "default"):
        raise RulesetError(f"The one-page rules have no policy {policy!r}.")
    if s.side is None:
        raise RulesetError("The battle is over; nobody chooses any more.")
    plan = s.plans.get(s.side)
    if plan is not None:
        check_plan(s, s.side, plan)
        if s.active is not None:
            u = A.unit(s, s.active)
            if s.side in s.withdrawing:
                return withdraw_choice(s, u)
            if plan.stance == "hold":
                return hold_choice(s, u)
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
    target = focus_enemy(s, u)
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


# --- issue 29: the side's sealed plan (R-OP-18..21) ------------------------------------


def strength(u: E.Unit) -> int:
    """R-OP-19: a unit's strength is its figures (a vehicle is one figure); destroyed: 0."""
    return 0 if u.destroyed else max(0, u.figures)


def check_plan(s: A.State, side: str, plan: Plan) -> None:
    """R-OP-18/19: `withdraw` leaves at once; otherwise the side withdraws once it has lost
    `retreat_at` percent of its starting figures (units off the table count as kept); 100
    fights to the end. The log says so once (`plan_withdraw`)."""
    if side in s.withdrawing:
        return
    units = [u for u in s.battle.units if u.side == side]
    start = sum(u.figures_start for u in units)
    lost = start - sum(strength(u) for u in units)
    if plan.stance == "withdraw" or (plan.retreat_at < 100 and start > 0
                                     and lost * 100 >= plan.retreat_at * start):
        s.withdrawing.add(side)
        s.battle.note(event="plan_withdraw", side=side,
                      lost=round(100 * lost / start) if start > 0 else 0,
                      retreat_at=plan.retreat_at, stance=plan.stance)


def withdraw_choice(s: A.State, u: E.Unit) -> Json:
    """R-OP-18: each Action of a withdrawing unit is a Move toward its own table edge (off
    the table once it reaches it); passengers ride out with their transport, or get out
    when it is immobilised; a unit that cannot move fires at the nearest enemy it can hurt,
    else is done."""
    pid = A.side_id(u.side)
    if u.aboard is not None:
        if A.unit(s, u.aboard).immobilised:
            return {"side": pid, "do": "disembark", "unit": u.id}
        return {"side": pid, "do": "done", "unit": u.id}
    b = s.battle
    to = E.reach(b, u, b.edge(u.side), T.UNIT_TYPES[u.type].move_cm, ends_on_open=True)
    if to != u.x and A.move_refusal(s, u, to) is None:
        return {"side": pid, "do": "move", "unit": u.id, "to": to}
    target = nearest_enemy(s, u)
    if target is not None and E._in_range(u, target):
        return {"side": pid, "do": "fire", "unit": u.id, "target": target.id}
    return {"side": pid, "do": "done", "unit": u.id}


def hold_choice(s: A.State, u: E.Unit) -> Json:
    """R-OP-20: a holding unit never moves toward the enemy nor assaults: it fires at its
    target when in range, otherwise aims; passengers get out as R-OP-14 says."""
    pid = A.side_id(u.side)
    if u.aboard is not None:
        return passenger_choice(s, u)
    target = focus_enemy(s, u)
    if target is None:
        return {"side": pid, "do": "done", "unit": u.id}
    if E._in_range(u, target):
        return {"side": pid, "do": "fire", "unit": u.id, "target": target.id}
    near = nearest_enemy(s, u)
    if near is not None and E._in_range(u, near):
        return {"side": pid, "do": "fire", "unit": u.id, "target": near.id}
    return {"side": pid, "do": "aim", "unit": u.id}


def focus_enemy(s: A.State, u: E.Unit) -> E.Unit | None:
    """R-OP-21: the enemy `u` fights: the nearest (R-OP-15), or, by the side's focus, of
    the enemies a weapon of `u` can hurt, the one with the fewest (`weakest`) or the most
    (`strongest`) figures left (ties: the nearest, then the lowest id); none it can hurt:
    the nearest."""
    plan = s.plans.get(u.side)
    if plan is None or plan.focus == "nearest":
        return nearest_enemy(s, u)
    weapons = u.firing_weapons()
    hurt = [e for e in s.battle.enemies(u)
            if any(R.affects(w, vehicle=e.vehicle, save=e.save) for w in weapons)]
    if not hurt:
        return nearest_enemy(s, u)
    sign = 1 if plan.focus == "weakest" else -1
    return min(hurt, key=lambda e: (sign * strength(e), E._distance(u, e), e.id))


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
