"""The default policy of 30 Minute Missions (R-30-14): what a sensible owner does with
the unit whose turn it is, one choice at a time, always an action the layer accepts.

Each decision is a small function (which unit, which enemy to close on, where to move,
which way to face, which attack, whether to shoot a structure down, which way to make a
thruster run), so a battle plan (issue 29) can steer each one.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import ActionRefused
from battles.rulesets.thirtymm import actions as A
from battles.rulesets.thirtymm import engine as E
from battles.rulesets.thirtymm import rules as R
from campaign.rules import hexgrid as H

Json = dict[str, Any]
Attack = tuple[tuple[float, int, str, int], Json, E.Unit]


def choose(play: A.Play) -> Json:
    """The default policy's next action for the side to act."""
    side = A.actor(play)
    if side is None:
        raise A.refuse("battle_over", "The battle is over.", A.Q_OVER)
    turn = play.turn
    if turn is None:
        return {"side": side, "do": "activate", "unit": which_unit(play.b, play.acted,
                                                                   str(side)).id}
    u = turn.unit
    act = {"side": side, "unit": u.id}
    if turn.grappling is not None:
        return {**act, "do": "hold"}
    goal = goal_of(play, turn)
    if goal is None or turn.thrust:
        return {**act, "do": "end_turn"}
    recovery = recover(play, turn, act)
    if recovery is not None:
        return recovery
    if u.utype == "aerial":
        if turn.phase == "move" and not turn.moved and A._thrust_length(play.b, u) > 0:
            return {**act, "do": "thrust", "direction": thruster_run(play.b, u)}
        return {**act, "do": "end_turn"}
    if turn.phase == "move":
        step = movement(play, turn, goal)
        if step is not None:
            return {**act, **step}
        return {**act, "do": "phase", "to": "ranged"}
    if turn.phase == "ranged":
        shot = ranged_choice(play, turn, goal)
        if shot is not None:
            return {**act, **shot}
        return {**act, "do": "phase", "to": "close"}
    blow = close_choice(play, turn)
    if blow is not None:
        return {**act, **blow}
    return {**act, "do": "end_turn"}


def which_unit(b: E.Battle, acted: set[int], side: str) -> E.Unit:
    """The unit to activate: the side's unit nearest an enemy (then the lowest id)."""
    mine = [u for u in b.units if u.alive and u.id not in acted and u.side == side]
    return min(mine, key=lambda u: (E._nearest_enemy(b, u), u.id))


def goal_of(play: A.Play, turn: A.Turn) -> E.Unit | None:
    """The enemy the unit closes on this turn: the nearest when its turn began."""
    if "goal" not in turn.memo:
        enemies = play.b.enemies(turn.unit)
        turn.memo["goal"] = min(enemies, key=lambda e: (H.distance(turn.unit.at, e.at),
                                                        e.id)) if enemies else None
    goal: E.Unit | None = turn.memo["goal"]
    return goal


def recover(play: A.Play, turn: A.Turn, act: Json) -> Json | None:
    """Free itself first, in the movement phase: a held unit breaks the grapple, a unit
    on the ground gets up, when the referee allows it (AP enough, a free hex behind);
    otherwise it stays where it is and fights."""
    u = turn.unit
    if turn.phase != "move" or not {"hold", "grounded"} & u.status:
        return None
    for do in ("break_grapple", "get_up"):
        action = {**act, "do": do}
        try:
            A.check(play, action)
        except ActionRefused:
            continue
        return action
    return None


# -- movement ----------------------------------------------------------------------------

def movement(play: A.Play, turn: A.Turn, goal: E.Unit) -> Json | None:
    """The next movement-phase action: turn towards the goal with the free rotation,
    close in, then face the goal; None when the movement phase is done."""
    b, u = play.b, turn.unit
    can_move = (u.operative and not {"hold", "holding", "grounded", "stuck"} & u.status)
    if not can_move:
        return None
    if not turn.memo.get("moved"):
        towards = E.direction_to(u.at, goal.at) if goal.at != u.at else u.facing
        if turn.points > 0 and u.facing != towards and not turn.rotated:
            return {"do": "rotate", "facing": towards}
        turn.memo["moved"] = True
        dest = destination(b, u, turn.points, goal)
        if dest is not None:
            return {"do": "move", "to": list(H.to_offset(dest[0])),
                    "path": [list(H.to_offset(h)) for h in dest[1]]}
    if not turn.memo.get("faced"):
        turn.memo["faced"] = True
        face = facing_for(u, goal, turn)
        if face is not None:
            return {"do": "rotate", "facing": face}
    return None


def wanted_range(u: E.Unit) -> int:
    """How close the unit wants to be: its longest ranged weapon it has the AP for."""
    ranged = [int(w["range"]) for w in u.usable("ranged") if E._weapon_ap(u, w) <= u.ap]
    return max(ranged) if ranged else 1


def destination(b: E.Battle, u: E.Unit, points: int, goal: E.Unit
                ) -> tuple[H.Hex, list[H.Hex]] | None:
    """Where to close in to (and the path): within its longest range of the goal, off
    lava and (unless it swims) deep water, out of a structure's shadow, high ground, the
    fewest points; None: hold where it stands. The policy never shares a hex, not even
    with a friend."""
    if points <= 0:
        return None
    want = wanted_range(u)
    taken = frozenset(o.at for o in b.units if o.alive and o is not u)
    reach, came = E.reachable(b, u, points, u.facing, taken)
    swims = bool({"cruise", "swim"} & set(u.systems))
    cover = want > 1 and bool(b.structures)

    def score(h: H.Hex) -> tuple[int, int, int, int, tuple[int, int]]:
        d = H.distance(h, goal.at)
        colour = b.colour.get(h, "grey")
        hazard = 1 if colour == "red" or (colour == "dark_blue" and not swims) else 0
        blocked = 1 if cover and E._blocked(b, h, goal.at) else 0
        return (hazard, max(0, d - want) + blocked, -b.height.get(h, 0), reach[h],
                H.to_offset(h))

    dest = min(reach, key=score)
    if dest == u.at:
        return None
    return dest, E.path_to(came, u.at, dest)


def facing_for(u: E.Unit, goal: E.Unit, turn: A.Turn) -> int | None:
    """Face the goal before firing: with the free rotation when it is unused, or for a
    movement point when the goal is out of view; None: keep the facing."""
    if goal.at == u.at:
        return None
    towards = E.direction_to(u.at, goal.at)
    if towards == u.facing:
        return None
    if not turn.rotated:
        return towards
    in_view = (towards - u.facing) % 6 in E.FRONT
    return towards if turn.points >= 1 and not in_view else None


def thruster_run(b: E.Battle, u: E.Unit) -> int:
    """An aerial vehicle's run: over the most enemies, the full length (no fall), ending
    nearest an enemy, then the lowest direction."""
    enemies = b.enemies(u)
    length = A._thrust_length(b, u)

    def score(d: int) -> tuple[int, int, int, int]:
        p = A.thrust_path(b, u, d)
        over = sum(1 for h in p for e in enemies if e.at == h and e.elevation
                   == u.elevation - 1)
        end = p[-1] if p else u.at
        near = min(H.distance(end, e.at) for e in enemies)
        return (-over, 0 if len(p) == length else 1, near, d)

    return min(range(6), key=score)


# -- combat ------------------------------------------------------------------------------

def best_attack(b: E.Battle, u: E.Unit, melee: bool) -> Attack | None:
    """The attack with the most expected damage per AP this phase allows (R-30-14)."""
    best: tuple[float, int, str, int] | None = None
    choice: tuple[Json, E.Unit] | None = None
    if melee and "hold" in u.status:
        return None  # a held unit "cannot make Assault Rolls"
    for target in b.enemies(u):
        if melee:
            if H.distance(u.at, target.at) != 1:
                continue
            options = [*u.usable("melee"), A.BASIC]
        else:
            options = u.usable("ranged")
        for w in options:
            basic = w["key"] == "basic"
            cost = int(w["ap"]) if basic else E._weapon_ap(u, w)
            if cost > u.ap:
                continue
            if not (E._melee_reach(b, u, w, target) if melee else E._reach(b, u, w, target)):
                continue
            value = E._expected(b, u, w, target, melee, basic) / cost
            key = (value, -cost, w["key"], -target.id)
            if best is None or key > best:
                best, choice = key, (w, target)
    if best is None or choice is None:
        return None
    return best, choice[0], choice[1]


def ranged_choice(play: A.Play, turn: A.Turn, goal: E.Unit) -> Json | None:
    """Fire while AP lasts, keeping the AP for the close combat phase when a melee
    weapon or a basic attack would do more per AP there; then, with no enemy in its
    sights, shoot down a structure between it and its goal (once)."""
    b, u = play.b, turn.unit
    if not turn.memo.get("ranged_done"):
        found = None
        if u.alive and u.ap > 0 and not (turn.attacks["ranged"] and len(b.standing()) < 2):
            found = best_attack(b, u, melee=False)
            if found is not None:
                close = best_attack(b, u, melee=True)
                if close is not None and close[0][0] > found[0][0]:
                    found = None
        if found is not None:
            return {"do": "attack", "target": found[2].id, "weapon": found[1]["key"]}
        turn.memo["ranged_done"] = True
    if not turn.memo.get("structure_tried"):
        turn.memo["structure_tried"] = True
        return structure_shot(b, u, goal)
    return None


def structure_shot(b: E.Battle, u: E.Unit, goal: E.Unit) -> Json | None:
    """R-30-15: fire at the structure standing between the unit and the enemy it closes
    on, when no enemy is in its sights: the weapon with the most damage per AP."""
    if u.ap <= 0 or not goal.alive or any(E._reach(b, u, w, e) for e in b.enemies(u)
                                          for w in u.usable("ranged")):
        return None
    h = E._blocked(b, u.at, goal.at)
    if h is None:
        return None
    if not R.field_of_view(u.facing, E.direction_to(u.at, h), u.utype):
        return None
    weapons = [w for w in u.usable("ranged") if E._weapon_ap(u, w) <= u.ap
               and H.distance(u.at, h) <= int(w["range"])]
    if not weapons:
        return None
    w = max(weapons, key=lambda w: (int(w["damage"]) / E._weapon_ap(u, w), w["key"]))
    return {"do": "attack", "structure": list(H.to_offset(h)), "weapon": w["key"]}


def close_choice(play: A.Play, turn: A.Turn) -> Json | None:
    """Strike while AP lasts with the most expected damage per AP."""
    b, u = play.b, turn.unit
    if not u.alive or u.ap <= 0 or (turn.attacks["close"] and len(b.standing()) < 2):
        return None
    found = best_attack(b, u, melee=True)
    if found is None:
        return None
    return {"do": "attack", "target": found[2].id, "weapon": found[1]["key"]}

