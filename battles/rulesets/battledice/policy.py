"""The default battle-dice player (R-BD-11), one decision per function, choosing only what
the referee (`actions.legal`/`actions.apply`) allows: which card and units to order, whether
a unit closes in or holds, where a free Leader takes refuge (R-BD-12), which enemy to
battle. Issue 29's battle plans (R-BD-14..17) steer these functions: a side without a plan
plays exactly as R-BD-11 says."""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Json, Plan, RulesetError
from battles.rulesets.battledice import actions as A
from battles.rulesets.battledice import engine as E
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice


def choose(s: A.State, policy: str | None = None) -> Json:
    if policy not in (None, "default"):
        raise RulesetError(f"Battle dice has no policy {policy!r}.")
    side = s.side
    if side is None:
        raise RulesetError("The battle is over; nobody chooses any more.")
    pid = A.side_id(side)
    plan = s.plans.get(side)
    if plan is not None:
        check_plan(s, side, plan)
    if s.phase == "order":
        return withdraw_order(s) if side in s.withdrawing else order_choice(s)
    if s.phase == "move":
        for uid in s.ordered:
            u = A._unit(s, uid)
            if u.id in s.moved or not u.alive:
                continue
            if side in s.withdrawing:
                return withdraw_move(s, u)
            if plan is not None and plan.stance == "hold":
                return {"side": pid, "do": "hold", "unit": u.id}  # R-BD-16
            return move_choice(s, u)
        return {"side": pid, "do": "battles"}
    for uid in s.ordered:
        u = A._unit(s, uid)
        if u.id in s.battled or not u.alive or A.attached(u):
            continue
        target = target_choice(s, u)
        if target is None:
            return {"side": pid, "do": "hold", "unit": u.id}
        return {"side": pid, "do": "battle", "unit": u.id, "target": target.id}
    return {"side": pid, "do": "end"}


def order_choice(s: A.State) -> Json:
    """Play the biggest card; order the units nearest the enemy (R-BD-3, R-BD-11)."""
    hand = s.battle.hands[s.side or ""]
    card = max(hand) if hand else 0
    return {"side": A.side_id(s.side or ""), "do": "order", "card": card,
            "units": [u.id for u in A.by_nearness(s)[:card]]}


def move_choice(s: A.State, u: E.Unit) -> Json:
    """A free single Leader takes refuge with a unit; a unit next to an enemy holds to
    close-assault it; any other closes in on the nearest enemy until it is in range and
    sight. No enemy left: the turn ends."""
    pid = A.side_id(u.side)
    if A.single_leader(u) and not A.attached(u):
        return leader_refuge(s, u)
    goal = focus_enemy(s, u)
    if goal is None:
        return {"side": pid, "do": "end"}
    if engaged(s, u):
        return {"side": pid, "do": "hold", "unit": u.id}
    to = close_in(s, u, goal)
    if to == u.at:
        return {"side": pid, "do": "hold", "unit": u.id}
    return {"side": pid, "do": "move", "unit": u.id, "to": list(E.to_offset(to))}


def nearest_enemy(s: A.State, u: E.Unit) -> E.Unit | None:
    return E._nearest(s.battle, u)


def engaged(s: A.State, u: E.Unit) -> bool:
    return any(E.distance(u.at, e.at) == 1 for e in s.battle.enemies(u))


def close_in(s: A.State, u: E.Unit, goal: E.Unit) -> H.Hex:
    """The hex `u` reaches stepping toward `goal` one hex at a time (never through or onto
    a unit), stopping once in range and sight or adjacent. Changes nothing."""
    b = s.battle
    start = u.at
    leader = b.leader_with(u)
    try:
        E._move(b, u, goal)
        return u.at
    finally:
        u.at = start
        if leader is not None:
            leader.at = start


def leader_refuge(s: A.State, u: E.Unit) -> Json:
    """R-BD-12, "which unit a leader joins" (the owner's choice): a free single Leader
    joins, of the units it can reach this move, the one farthest from the enemy (then the
    one with the most hits left); none in reach: it holds where it is."""
    pid = A.side_id(u.side)
    friends = A.joinable(s, u)
    if not friends:
        return {"side": pid, "do": "hold", "unit": u.id}
    best = max(friends, key=lambda f: (safety(s, f), hits_left(f), -f.id))
    return {"side": pid, "do": "move", "unit": u.id, "to": list(E.to_offset(best.at))}


def safety(s: A.State, u: E.Unit) -> int:
    """Hexes between `u` and the nearest enemy (more is safer)."""
    return min((E.distance(u.at, e.at) for e in s.battle.enemies(u)), default=99)


def hits_left(u: E.Unit) -> int:
    return u.stats.size - u.damage if u.single else u.models


def target_choice(s: A.State, u: E.Unit) -> E.Unit | None:
    """An adjacent enemy must be close-assaulted (the smallest, then the fullest first);
    otherwise the nearest enemy in range and sight; None: the unit holds. A plan's focus
    `weakest`/`strongest` picks among the same enemies (R-BD-17)."""
    b = s.battle
    focus = _focus(s, u.side)
    adjacent = [e for e in b.enemies(u) if E.distance(u.at, e.at) == 1]
    if adjacent:
        if focus != "nearest":
            return focused(u, adjacent, focus)
        return min(adjacent, key=lambda e: (e.stats.size * 10 - e.models, e.id))
    in_range = [e for e in b.enemies(u) if E.distance(u.at, e.at) <= u.stats.range]
    if focus == "nearest":
        # The nearest visible enemy (then the lowest id): looked at in that order, the
        # first one seen is it, so no line of sight is traced past it (sight rolls no die).
        for e in sorted(in_range, key=lambda e: (E.distance(u.at, e.at), e.id)):
            if E._can_see(b, u, e):
                return e
        return None
    visible = [e for e in in_range if E._can_see(b, u, e)]
    return focused(u, visible, focus) if visible else None


# --- issue 29: the side's sealed plan (R-BD-14..17) ------------------------------------


def _focus(s: A.State, side: str) -> str:
    plan = s.plans.get(side)
    return plan.focus if plan is not None else "nearest"


def focused(u: E.Unit, enemies: list[E.Unit], focus: str) -> E.Unit:
    """R-BD-17: of `enemies`, the one with the fewest hits left (`weakest`) or the most
    (`strongest`); ties: the nearest to `u`, then the lowest id."""
    sign = 1 if focus == "weakest" else -1
    return min(enemies, key=lambda e: (sign * strength(e), E.distance(u.at, e.at), e.id))


def focus_enemy(s: A.State, u: E.Unit) -> E.Unit | None:
    """The enemy `u` closes in on: the nearest (R-BD-11), or the side's focus (R-BD-17)."""
    focus = _focus(s, u.side)
    if focus == "nearest":
        return nearest_enemy(s, u)
    enemies = s.battle.enemies(u)
    return focused(u, enemies, focus) if enemies else None


def strength(u: E.Unit) -> int:
    """R-BD-15: the hits a unit can still take as it is counted for a plan: a unit that
    started with several models (or infantry) counts its models, a single model its Damage
    Capacity left (size less damage); destroyed: 0."""
    if u.destroyed:
        return 0
    if u.models_start > 1 or u.stats.unit_class == "infantry":
        return u.models
    return max(0, u.stats.size - u.damage)


def start_strength(u: E.Unit) -> int:
    if u.models_start > 1 or u.stats.unit_class == "infantry":
        return u.models_start
    return max(0, u.stats.size - u.damage_start)


def check_plan(s: A.State, side: str, plan: Plan) -> None:
    """R-BD-14/15: `withdraw` leaves at once; otherwise the side withdraws once it has lost
    `retreat_at` percent of its starting strength (units that left the field count as
    kept); 100 fights to the end. The log says so once (`plan_withdraw`)."""
    if side in s.withdrawing:
        return
    units = [u for u in s.battle.units if u.side == side]
    start = sum(start_strength(u) for u in units)
    lost = start - sum(strength(u) for u in units)
    if plan.stance == "withdraw" or (plan.retreat_at < 100 and start > 0
                                     and lost * 100 >= plan.retreat_at * start):
        s.withdrawing.add(side)
        s.battle.note(event="plan_withdraw", side=side,
                      lost=round(100 * lost / start) if start > 0 else 0,
                      retreat_at=plan.retreat_at, stance=plan.stance)


def withdraw_order(s: A.State) -> Json:
    """R-BD-14: a withdrawing side plays its biggest card and orders first the units that
    can leave the field this turn, then those nearest the enemy."""
    hand = s.battle.hands[s.side or ""]
    card = max(hand) if hand else 0
    units = sorted(A.by_nearness(s), key=lambda u: A.edge_steps(s, u) is None)
    return {"side": A.side_id(s.side or ""), "do": "order", "card": card,
            "units": [u.id for u in units[:card]]}


def withdraw_move(s: A.State, u: E.Unit) -> Json:
    """R-BD-14: a unit that can leave by its own edge leaves; any other moves as near its
    edge row as it can (then as far from the enemy), or holds when no hex is nearer."""
    pid = A.side_id(u.side)
    if A.edge_steps(s, u) is not None:
        return {"side": pid, "do": "withdraw", "unit": u.id}
    row = A.home_row(s.battle, u.side)

    def key(h: H.Hex) -> tuple[int, int, tuple[int, int]]:
        return (abs(E.to_offset(h)[1] - row), -min(
            (E.distance(h, e.at) for e in s.battle.enemies(u)), default=99), E.to_offset(h))

    hexes = A.reachable(s, u)
    best = min(hexes, key=key) if hexes else None
    if best is None or key(best) >= key(u.at):
        return {"side": pid, "do": "hold", "unit": u.id}
    return {"side": pid, "do": "move", "unit": u.id, "to": list(E.to_offset(best))}


def play(s: A.State) -> A.State:
    """The default policy plays the battle out through the referee."""
    while s.side is not None:
        A.apply(s, choose(s))
    return s


def play_battle(battle_input: dict[str, Any], dice: Dice, *, keep_log: bool = True
                ) -> E.Battle:
    """A whole battle: deployed, then played out by the default policy for every side."""
    return play(A.start(battle_input, dice, keep_log=keep_log)).battle
