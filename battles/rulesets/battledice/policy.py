"""The default battle-dice player (R-BD-11), one decision per function, choosing only what
the referee (`actions.legal`/`actions.apply`) allows: which card and units to order, whether
a unit closes in or holds, where a free Leader takes refuge (R-BD-12), which enemy to
battle. Issue 29's battle plans will steer these functions, not replace them."""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Json, RulesetError
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
    if s.phase == "order":
        return order_choice(s)
    if s.phase == "move":
        for uid in s.ordered:
            u = A._unit(s, uid)
            if u.id in s.moved or not u.alive:
                continue
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
    goal = nearest_enemy(s, u)
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
    return any(H.distance(u.at, e.at) == 1 for e in s.battle.enemies(u))


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
    return min((H.distance(u.at, e.at) for e in s.battle.enemies(u)), default=99)


def hits_left(u: E.Unit) -> int:
    return u.stats.size - u.damage if u.single else u.models


def target_choice(s: A.State, u: E.Unit) -> E.Unit | None:
    """An adjacent enemy must be close-assaulted (the smallest, then the fullest first);
    otherwise the nearest enemy in range and sight; None: the unit holds."""
    b = s.battle
    adjacent = [e for e in b.enemies(u) if H.distance(u.at, e.at) == 1]
    if adjacent:
        return min(adjacent, key=lambda e: (e.stats.size * 10 - e.models, e.id))
    visible = [e for e in b.enemies(u) if H.distance(u.at, e.at) <= u.stats.range
               and E._can_see(b, u, e)]
    if not visible:
        return None
    return min(visible, key=lambda e: (H.distance(u.at, e.at), e.id))


def play(s: A.State) -> A.State:
    """The default policy plays the battle out through the referee."""
    while s.side is not None:
        A.apply(s, choose(s))
    return s


def play_battle(battle_input: dict[str, Any], dice: Dice, *, keep_log: bool = True
                ) -> E.Battle:
    """A whole battle: deployed, then played out by the default policy for every side."""
    return play(A.start(battle_input, dice, keep_log=keep_log)).battle
