"""The battle-dice game as refereed choices (issue 28): the `ActionLayer` of seed 004.

A side's turn is the seed's Game Turn: play an order card and announce the units it
orders (`order`), move them one at a time (`move`, or `hold` a unit where it is), battle
with them one at a time (`battle`, or `hold`), then `end` the turn (the next card was drawn
when the card was played). `apply` checks everything before it changes anything, so a
refusal (`ActionRefused`) leaves the battle as it was. The default policy (`policy.py`)
chooses through `legal`/`apply` like a player. Verbs and `set` keys:
docs/rulings/battledice.md (R-BD-12).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from battles.rulesets.base import ActionRefused, Json, Plan, plans_of
from battles.rulesets.battledice import engine as E
from battles.rulesets.battledice import rules as R
from battles.rulesets.battledice import tables as T
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

#: The seed's sentences the referee quotes.
ONE_CARD = "Play an order card"
ORDER = ("ORDER Announce all that units you intend to order, within the limits of the "
         "order card just played.")
MOVE_ONCE = "A unit may only move once during a turn, though an ordered unit does not " \
            "have to move."
MOVES_FIRST = "you must complete all movements before moving on to the battle phase."
NOT_ONTO = ("Two units may not occupy the same hex. When moving a unit, you may not move "
            "through or on to a hex occupied by a friendly or enemy unit.")
BATTLE_ONCE = "A unit may only battle once per, though an ordered unit does not have to " \
              "battle."
CLOSE = ("An ordered unit that is adjacent to an enemy unit must 'Close Assault' that unit, "
         "if it chooses to battle and cannot choose another more distant enemy unit.")
SIGHT = ("An ordered unit can 'Fire' through any intervening occupied or terrain hex as "
         "long as long as both the 'Firing' unit and the target enemy unit are both of a "
         "larger size than the blocking hex.")
RANGE = "Check battle range and line of site"
LEAVE = ("An attached Leader can leave a unit when the unit is ordered, allowing the unit "
         "and Leader to move independently.")
NO_REJOIN = "A Leader may not leave a unit and attach themselves to another during the " \
            "same move."
LEADER_UNIT = "A Leader unit cannot attach itself to a unit until it is reduced to a " \
              "single model."
MOVES_AS = "When attached to a unit a single Leader moves as the unit"
ATTACH = "Single leaders may attach themselves to a unit by moving into the same hex."


@dataclass
class State:
    """A battle-dice battle between choices: the engine's battle, whose turn it is and
    what the side to act has done this turn."""

    battle: E.Battle
    order: list[str]
    max_turns: int
    index: int = 0
    phase: str = "order"  # order -> move -> battle; "over" when the battle has ended
    ordered: list[int] = field(default_factory=list)
    moved: set[int] = field(default_factory=set)
    battled: set[int] = field(default_factory=set)
    left: dict[int, int] = field(default_factory=dict)  # leader -> the unit it left
    #: Issue 29: the sides' sealed plans (side key -> Plan) and the sides that withdraw.
    plans: dict[str, Plan] = field(default_factory=dict)
    withdrawing: set[str] = field(default_factory=set)

    @property
    def side(self) -> str | None:
        return None if self.phase == "over" else self.order[self.index]


def side_id(side: str) -> int:
    return int(side)


def single_leader(u: E.Unit) -> bool:
    return u.stats.unit_class == "leader" and u.models == 1


def attached(u: E.Unit) -> bool:
    return u.leader_of is not None


# --- start -------------------------------------------------------------------------


def start(battle_input: Json, dice: Dice, setup: Json | None = None, *,
          keep_log: bool = True) -> State:
    plans = plans_of(battle_input)  # a malformed plan is refused before anything happens
    b = E.build(battle_input, dice, keep_log)
    max_turns = int(b.options.get("battledice_max_turns", T.OPTIONS["battledice_max_turns"]))
    order = ([b.defender] if b.defender in b.sides else []) + [s for s in b.sides
                                                               if s != b.defender]
    s = State(battle=b, order=[str(x) for x in order], max_turns=max_turns, plans=plans)
    b.turn = 1
    if setup:
        _set(s, setup)
    if len(b.standing()) < 2:
        _over(s, "one_side_left")
    elif s.side not in b.standing():
        _next_side(s)
    return s


def _set(s: State, setup: Json) -> None:
    """A case's situation: `turn`, `side` (whose turn), `phase`, `hand` (the side's cards),
    `ordered`/`moved`/`battled` (unit ids), and `units: {id: {at, models, damage,
    leader_of, rank}}`."""
    b = s.battle
    for uid, change in (setup.get("units") or {}).items():
        u = _unit(s, uid)
        if "at" in change:
            u.at = E.to_axial(*change["at"])
        for key in ("models", "damage", "rank"):
            if key in change:
                setattr(u, key, int(change[key]))
        if "leader_of" in change:
            u.leader_of = None if change["leader_of"] is None else int(change["leader_of"])
    if "turn" in setup:
        b.turn = int(setup["turn"])
    if "side" in setup:
        s.index = s.order.index(str(setup["side"]))
    if "hand" in setup:
        b.hands[s.order[s.index]] = [int(c) for c in setup["hand"]]
    s.phase = str(setup.get("phase", s.phase))
    s.ordered = [int(u) for u in setup.get("ordered") or ()]
    s.moved = {int(u) for u in setup.get("moved") or ()}
    s.battled = {int(u) for u in setup.get("battled") or ()}
    if s.phase != "order" and not s.ordered:
        s.ordered = [u.id for u in b.units if u.side == s.side and u.alive
                     and not attached(u)]


def _unit(s: State, uid: Any) -> E.Unit:
    try:
        wanted = int(uid)
    except (TypeError, ValueError):
        raise ActionRefused("unknown_unit", f"{uid!r} is not a unit of this battle.") \
            from None
    for u in s.battle.units:
        if u.id == wanted:
            return u
    raise ActionRefused("unknown_unit", f"There is no unit {wanted} in this battle.")


# --- the referee -------------------------------------------------------------------


def actor(s: State) -> int | None:
    return None if s.side is None else side_id(s.side)


def apply(s: State, action: Json) -> None:
    do = action.get("do")
    handler = _VERBS.get(str(do))
    if handler is None:
        raise ActionRefused("unknown_action", f"Battle dice has no action {do!r} (one of "
                            f"{', '.join(_VERBS)}).")
    if s.side is None:
        raise ActionRefused("battle_over", "The battle is over; nobody acts any more.")
    if str(action.get("side")) != s.side:
        raise ActionRefused("not_your_turn", f"It is side {s.side}'s turn, not side "
                            f"{action.get('side')}'s.", "Battle with one ordered unit at "
                            "a time")
    handler(s, action)


def _own(s: State, uid: Any) -> E.Unit:
    u = _unit(s, uid)
    if u.side != s.side:
        raise ActionRefused("not_your_unit", f"{u.name} is not side {s.side}'s unit.")
    if not u.alive:
        raise ActionRefused("unit_gone", f"{u.name} is no longer on the field.")
    return u


def _order(s: State, action: Json) -> None:
    b = s.battle
    if s.phase != "order":
        raise ActionRefused("already_ordered", "This side has played its order card for "
                            "this turn.", ONE_CARD)
    hand = b.hands[s.side or ""]
    card = action.get("card", max(hand) if hand else 0)
    if hand and card not in hand:
        raise ActionRefused("card_not_in_hand", f"Side {s.side} holds no order card for "
                            f"{card} (its hand: {', '.join(map(str, hand))}).", ONE_CARD)
    ids = action.get("units") or []
    if not isinstance(ids, list):
        raise ActionRefused("bad_units", "An order names its units as a list of unit ids.",
                            ORDER)
    if len(ids) > int(card or 0):
        raise ActionRefused("too_many_units", f"An order card for {card} orders at most "
                            f"{card} unit(s), not {len(ids)}.", ORDER)
    units = [_own(s, uid) for uid in ids]
    if len({u.id for u in units}) < len(units):
        raise ActionRefused("ordered_twice", "A unit is ordered once per turn.", ORDER)
    for u in units:
        if attached(u):
            raise ActionRefused("leader_attached", f"{u.name} is attached to a unit and is "
                                "ordered with it.", LEAVE)
    played = 0
    if hand:
        played, b.hands[s.side or ""], b.deck = R.play_card(hand, b.deck, int(card))
    s.ordered = [u.id for u in units]
    s.phase = "move"
    if b.keep_log:  # the odds keep no log: build no text for one
        b.note(side=s.side, action="order", card=played, ordered=list(s.ordered),
               text=f"Side {s.side} plays an order card for {played} unit(s): "
                    + ", ".join(u.name for u in units))


def _movable(s: State, action: Json, verb: str) -> E.Unit:
    if s.phase == "order":
        raise ActionRefused("not_ordered", f"Play an order card before you {verb}.", ORDER)
    if s.phase == "battle":
        raise ActionRefused("move_after_battle", "Battles have begun this turn; no unit "
                            "moves any more.", MOVES_FIRST)
    u = _own(s, action.get("unit"))
    host = _unit(s, u.leader_of) if attached(u) else None
    if u.id not in s.ordered and not (host is not None and host.id in s.ordered):
        raise ActionRefused("not_ordered", f"{u.name} was not ordered this turn.",
                            LEAVE if host is not None else ORDER)
    if u.id in s.moved:
        raise ActionRefused("moved_twice", f"{u.name} has already moved this turn.",
                            MOVES_AS if host is not None else MOVE_ONCE)
    return u


def _path_length(s: State, u: E.Unit, goal: H.Hex, *, onto_friend: bool) -> int | None:
    """Hexes on the shortest way from `u` to `goal` within its move, never through an
    occupied hex (nor onto one, unless a single Leader attaches): None if there is none."""
    occupied = s.battle.occupied()
    seen = {u.at: 0}
    queue = deque([u.at])
    while queue:
        h = queue.popleft()
        steps = seen[h]
        if steps >= u.stats.move:
            continue
        for n in H.neighbours(h):
            if n in seen or not E.on_board(n):
                continue
            if n == goal and (onto_friend or n not in occupied):
                return steps + 1
            if n not in occupied:
                seen[n] = steps + 1
                queue.append(n)
    return None


def _move(s: State, action: Json) -> None:
    b = s.battle
    u = _movable(s, action, "move")
    try:
        goal = E.to_axial(*(int(x) for x in action["to"]))
    except (KeyError, TypeError, ValueError):
        raise ActionRefused("bad_hex", "A move names the hex it goes to as [column, "
                            "row].") from None
    if not E.on_board(goal):
        raise ActionRefused("off_board", f"Hex {list(E.to_offset(goal))} is off the "
                            "board.", NOT_ONTO)
    if goal == u.at:
        raise ActionRefused("not_a_move", f"{u.name} is already there; hold it instead.",
                            MOVE_ONCE)
    host = _unit(s, u.leader_of) if attached(u) else None
    occupant = b.at(goal)
    joins = None
    if occupant is not None:
        if occupant.side == u.side and u.stats.unit_class == "leader":
            if not single_leader(u):
                raise ActionRefused("leader_unit_cannot_attach", f"{u.name} still has "
                                    f"{u.models} models and cannot attach to a unit.",
                                    LEADER_UNIT)
            if host is not None or u.id in s.left:
                raise ActionRefused("leader_rejoin", f"{u.name} left a unit in this move "
                                    "and cannot attach to another.", NO_REJOIN)
            if b.leader_with(occupant) is not None or occupant.stats.unit_class == "leader":
                raise ActionRefused("hex_occupied", f"{occupant.name} already has a Leader "
                                    "with it.", NOT_ONTO)
            joins = occupant
        else:
            whose = "a friendly" if occupant.side == u.side else "an enemy"
            raise ActionRefused("hex_occupied", f"{u.name} cannot move onto {whose} unit "
                                f"({occupant.name}).", NOT_ONTO)
    if E.distance(u.at, goal) > u.stats.move:
        raise ActionRefused("too_far", f"{u.name} moves at most {u.stats.move} hex(es); "
                            f"that hex is {E.distance(u.at, goal)} away.", MOVE_ONCE)
    steps = _path_length(s, u, goal, onto_friend=joins is not None)
    if steps is None:
        raise ActionRefused("path_blocked", f"{u.name} cannot reach that hex without "
                            "moving through another unit.", NOT_ONTO)
    # Everything is checked: now the move.
    if host is not None:  # the Leader leaves its unit and moves on its own
        u.leader_of = None
        s.left[u.id] = host.id
    leader = b.leader_with(u)
    u.at = goal
    s.moved.add(u.id)
    if leader is not None:
        leader.at = goal  # "a single Leader moves as the unit"
        s.moved.add(leader.id)
    if joins is not None:
        u.leader_of = joins.id
    if b.keep_log:
        b.note(side=s.side, unit=u.id, action="move", to=list(E.to_offset(goal)),
               hexes=steps, text=f"{u.name} moves {steps} hex(es) to {E.to_offset(goal)}"
               + (f" and joins {joins.name}" if joins is not None else ""))


def _hold(s: State, action: Json) -> None:
    if s.phase == "battle":
        u = _battler(s, action)
        s.battled.add(u.id)
        return
    u = _movable(s, action, "hold a unit")
    s.moved.add(u.id)
    leader = s.battle.leader_with(u)
    if leader is not None:
        s.moved.add(leader.id)


def home_row(b: E.Battle, side: str) -> int:
    """R-BD-14: the row of a side's own table edge: row 0 for the defender (or, without
    one, the first side), the far row for everyone else (R-BD-4's deployment)."""
    first = b.defender if b.defender in b.sides else b.sides[0]
    return 0 if side == first else T.ROWS - 1


def edge_steps(s: State, u: E.Unit) -> int | None:
    """R-BD-14: the hexes `u` must move to stand on its own edge row, never through a unit
    (0: it stands there), if it can then step off the board within its move; None: it
    cannot leave this turn."""
    row = home_row(s.battle, u.side)
    if E.to_offset(u.at)[1] == row:
        return 0
    occupied = s.battle.occupied()
    seen = {u.at: 0}
    queue = deque([u.at])
    while queue:
        h = queue.popleft()
        if seen[h] >= u.stats.move - 1:
            continue
        for n in H.neighbours(h):
            if n in seen or not E.on_board(n) or n in occupied:
                continue
            if E.to_offset(n)[1] == row:
                return seen[h] + 1
            seen[n] = seen[h] + 1
            queue.append(n)
    return None


def _withdraw(s: State, action: Json) -> None:
    """R-BD-14: an ordered unit that has not moved leaves the field by its own table edge
    (as a unit retreated off the board does, R-BD-5) when it can reach its edge row and
    step off it within its move; an attached Leader leaves with its unit."""
    b = s.battle
    u = _movable(s, action, "withdraw")
    steps = edge_steps(s, u)
    if steps is None:
        raise ActionRefused("edge_out_of_reach", f"{u.name} cannot reach its own table "
                            f"edge (row {home_row(b, u.side)}) and step off it within its "
                            f"{u.stats.move} hex(es) of move.", MOVE_ONCE)
    # Everything is checked: now the unit leaves.
    if attached(u):  # a Leader leaving its unit leaves on its own
        s.left[u.id] = u.leader_of or 0
        u.leader_of = None
    leader = b.leader_with(u)
    u.off_board = True
    s.moved.add(u.id)
    if leader is not None:
        leader.off_board = True
        s.moved.add(leader.id)
    if b.keep_log:
        b.note(side=s.side, unit=u.id, action="withdraw", hexes=steps + 1,
               text=f"{u.name} leaves the field by its own table edge"
                    + (f" with {leader.name}" if leader is not None else ""))
    if len(b.standing()) < 2:
        _over(s, "one_side_left")


def _battler(s: State, action: Json) -> E.Unit:
    if s.phase == "order":
        raise ActionRefused("not_ordered", "Play an order card before you battle.", ORDER)
    u = _own(s, action.get("unit"))
    if attached(u):
        raise ActionRefused("leader_attached", f"{u.name} is attached to a unit: it "
                            "battles with the unit, not on its own.", MOVES_AS)
    if u.id not in s.ordered:
        raise ActionRefused("not_ordered", f"{u.name} was not ordered this turn.", ORDER)
    if u.id in s.battled:
        raise ActionRefused("battled_twice", f"{u.name} has already battled this turn.",
                            BATTLE_ONCE)
    return u


def refusal(s: State, u: E.Unit, target: E.Unit) -> ActionRefused | None:
    """Why `u` may not battle `target` now (None: it may): the seed's battle steps 1
    (range and line of sight) and the duty to close-assault an adjacent enemy."""
    b = s.battle
    if target.side == u.side:
        return ActionRefused("not_an_enemy", f"{target.name} is on {u.name}'s side.",
                             "Select an enemy unit")
    if not target.alive:
        return ActionRefused("unit_gone", f"{target.name} is no longer on the field.")
    if attached(target):
        return ActionRefused("target_attached_leader", f"{target.name} is attached to a "
                             "unit: battle the unit.", "When battle dice are rolled "
                             "against a unit containing a leader any Leader symbols rolled "
                             "will cause the Leader to become a casualty")
    d = E.distance(u.at, target.at)
    if d > 1 and any(E.distance(u.at, e.at) == 1 for e in b.enemies(u)):
        return ActionRefused("must_close_assault", f"{u.name} is adjacent to an enemy and "
                             "must close-assault it, not a more distant unit.", CLOSE)
    if d > 1 and d > u.stats.range:
        return ActionRefused("out_of_range", f"{target.name} is {d} hexes away; "
                             f"{u.name}'s range is {u.stats.range}.", RANGE)
    if d > 1 and not E._can_see(b, u, target):
        return ActionRefused("no_line_of_sight", f"{u.name} cannot see {target.name}.",
                             SIGHT)
    return None


def _battle(s: State, action: Json) -> None:
    b = s.battle
    u = _battler(s, action)
    target = _unit(s, action.get("target"))
    why = refusal(s, u, target)
    if why is not None:
        raise why
    s.phase = "battle"
    s.battled.add(u.id)
    E._battle(b, u, target)
    if len(b.standing()) < 2:
        _over(s, "one_side_left")


def _battles(s: State, action: Json) -> None:
    """Movement is complete: the battle phase begins (no unit moves any more)."""
    if s.phase == "order":
        raise ActionRefused("not_ordered", "Play an order card before battles begin.",
                            ORDER)
    if s.phase == "battle":
        raise ActionRefused("already_battling", "Battles have already begun this turn.",
                            MOVES_FIRST)
    s.phase = "battle"


def _end(s: State, action: Json) -> None:
    if s.phase == "order":
        raise ActionRefused("order_first", "Play an order card before the turn ends.",
                            ONE_CARD)
    _next_side(s)


_VERBS = {"order": _order, "move": _move, "hold": _hold, "withdraw": _withdraw,
          "battles": _battles, "battle": _battle, "end": _end}


def _next_side(s: State) -> None:
    b = s.battle
    s.ordered, s.moved, s.battled, s.left = [], set(), set(), {}
    s.phase = "order"
    while True:
        if len(b.standing()) < 2:
            _over(s, "one_side_left")
            return
        s.index += 1
        if s.index >= len(s.order):
            if b.turn >= s.max_turns:
                _over(s, "turn_limit")
                return
            b.turn += 1
            s.index = 0
        if s.order[s.index] in b.standing():
            return


def _over(s: State, end: str) -> None:
    b = s.battle
    s.phase = "over"
    standing = b.standing()
    if len(standing) == 1:
        winner: str | None = standing[0]
    elif not standing:
        winner = None
    elif b.defender in standing:
        winner = b.defender  # R-BD-6: at the turn limit the defender holds
    else:
        winner = standing[0]
    b.options["winner"], b.options["end_reason"] = winner, end


# --- what a side may do --------------------------------------------------------------


def reachable(s: State, u: E.Unit) -> dict[H.Hex, int]:
    """Empty hexes `u` can move to this turn (and their distance), never through a unit."""
    occupied = s.battle.occupied()
    seen = {u.at: 0}
    queue = deque([u.at])
    while queue:
        h = queue.popleft()
        if seen[h] >= u.stats.move:
            continue
        for n in H.neighbours(h):
            if n not in seen and E.on_board(n) and n not in occupied:
                seen[n] = seen[h] + 1
                queue.append(n)
    del seen[u.at]
    return seen


def joinable(s: State, u: E.Unit) -> list[E.Unit]:
    """Friendly units a free single Leader can attach to in this move."""
    if not single_leader(u) or attached(u) or u.id in s.left:
        return []
    b = s.battle
    return [f for f in b.units if f.side == u.side and f.alive and not attached(f)
            and f.id != u.id and f.stats.unit_class != "leader" and b.leader_with(f) is None
            and _path_length(s, u, f.at, onto_friend=True) is not None]


def legal(s: State) -> list[Json]:
    """The actions the side to act may take now. Ordering: for each card in hand, the
    units nearest the enemy (any other choice of at most that many units is legal too)."""
    b = s.battle
    side = s.side
    if side is None:
        return []
    pid = side_id(side)
    if s.phase == "order":
        return [{"side": pid, "do": "order", "card": card,
                 "units": [u.id for u in by_nearness(s)[:card]]}
                for card in sorted(set(b.hands[side]))] or [
            {"side": pid, "do": "order", "card": 0, "units": []}]
    out: list[Json] = []
    if s.phase == "move":
        for uid in s.ordered:
            u = _unit(s, uid)
            if not u.alive or u.id in s.moved:
                continue
            out.append({"side": pid, "do": "hold", "unit": u.id})
            if edge_steps(s, u) is not None:
                out.append({"side": pid, "do": "withdraw", "unit": u.id})
            out += [{"side": pid, "do": "move", "unit": u.id, "to": list(E.to_offset(h))}
                    for h in sorted(reachable(s, u), key=E.to_offset)]
            out += [{"side": pid, "do": "move", "unit": u.id, "to": list(E.to_offset(f.at))}
                    for f in joinable(s, u)]
            leader = b.leader_with(u)
            if leader is not None and leader.id not in s.moved and single_leader(leader):
                out += [{"side": pid, "do": "move", "unit": leader.id,
                         "to": list(E.to_offset(h))}
                        for h in sorted(reachable(s, leader), key=E.to_offset)]
        out.append({"side": pid, "do": "battles"})
    for uid in s.ordered:
        u = _unit(s, uid)
        if not u.alive or attached(u) or u.id in s.battled:
            continue
        if s.phase == "battle":
            out.append({"side": pid, "do": "hold", "unit": u.id})
        out += [{"side": pid, "do": "battle", "unit": u.id, "target": t.id}
                for t in b.enemies(u) if refusal(s, u, t) is None]
    out.append({"side": pid, "do": "end"})
    return out


def by_nearness(s: State) -> list[E.Unit]:
    """The side's units that can be ordered, nearest the enemy first."""
    b = s.battle
    mine = [u for u in b.units if u.side == s.side and u.alive and not attached(u)]
    return sorted(mine, key=lambda u: (min((E.distance(u.at, e.at) for e in b.enemies(u)),
                                           default=99), u.id))


# --- the state as JSON -------------------------------------------------------------------


def view(s: State) -> Json:
    b = s.battle
    return {
        "turn": b.turn, "side": actor(s), "phase": s.phase,
        "hand": list(b.hands[s.side]) if s.side else [],
        "ordered": list(s.ordered), "moved": sorted(s.moved), "battled": sorted(s.battled),
        "units": {str(u.id): {"side": side_id(u.side), "name": u.name, "key": u.key,
                              "models": max(0, u.models), "damage": u.damage,
                              "at": list(E.to_offset(u.at)), "leader_of": u.leader_of,
                              "off_board": u.off_board, "alive": u.alive}
                  for u in b.units},
        "over": s.phase == "over",
        "winner": (side_id(b.options["winner"]) if s.phase == "over"
                   and b.options.get("winner") is not None else None),
        "end_reason": b.options.get("end_reason") if s.phase == "over" else None,
    }
