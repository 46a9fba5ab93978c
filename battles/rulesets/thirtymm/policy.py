"""The default policy of 30 Minute Missions (R-30-14): what a sensible owner does with
the unit whose turn it is, one choice at a time, always an action the layer accepts.

Each decision is a small function (which unit, which enemy to close on, where to move,
which way to face, which attack, whether to shoot a structure down, which way to make a
thruster run), so a battle plan (issue 29) can steer each one: a side's plan
(R-30-24..27) makes it withdraw over its own table edge (`withdrawing`, `withdrawal`),
keep its ground (`hold`) and hurt the enemy its focus names first (`focus_target`). A
side without a plan plays exactly as before.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import ActionRefused, Plan
from battles.rulesets.thirtymm import actions as A
from battles.rulesets.thirtymm import engine as E
from battles.rulesets.thirtymm import rules as R
from battles.rulesets.thirtymm import tables as T
from campaign.rules import hexgrid as H

Json = dict[str, Any]
Attack = tuple[tuple[float, int, str, int], Json, E.Unit]


def choose(play: A.Play) -> Json:
    """The default policy's next action for the side to act."""
    side = A.actor(play)
    if side is None:
        raise A.refuse("battle_over", "The battle is over.", A.Q_OVER)
    turn = play.turn
    plan = play.plans.get(str(side)) if play.plans else None
    leaving = plan is not None and withdrawing(play, str(side), plan)
    if turn is None:
        if leaving:
            return {"side": side, "do": "activate",
                    "unit": nearest_the_edge(play, str(side)).id}
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
    if leaving and turn.phase == "move":
        step = withdrawal(play, turn)
        if step is not None:
            return {**act, **step}
        turn.memo["structure_tried"] = True  # no detours on the way out
        if u.utype == "aerial":
            return {**act, "do": "end_turn"}
        return {**act, "do": "phase", "to": "ranged"}
    holding = plan is not None and plan.stance == "hold" and not leaving
    if u.utype == "aerial":
        if turn.phase == "move" and not turn.moved and A._thrust_length(play.b, u) > 0:
            return {**act, "do": "thrust", "direction": thruster_run(play.b, u, holding)}
        return {**act, "do": "end_turn"}
    if turn.phase == "move":
        step = movement(play, turn, goal, holding)
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
    found: E.Unit | None = None
    best = best_id = 0
    theirs: list[H.Hex] | None = None  # the enemies' hexes, listed once
    for u in b.units:  # `min` by (nearest enemy, id), as a loop
        if u.alive and u.id not in acted and u.side == side:
            if theirs is None:
                theirs = [e.at for e in b.units
                          if e.side != side and e.condition != "destroyed" and not e.left]
            near, at = 99, u.at  # `E._nearest_enemy`: 99 with no enemy left
            for h in theirs:
                d = E.hex_distance(at, h)
                if d < near:
                    near = d
            if found is None or near < best or (near == best and u.id < best_id):
                found, best, best_id = u, near, u.id
    if found is None:
        raise ValueError("which_unit() has no unit to choose from")
    return found


def goal_of(play: A.Play, turn: A.Turn) -> E.Unit | None:
    """The enemy the unit closes on this turn: the one its side's plan focuses on
    (R-30-27), else the nearest when its turn began."""
    if "goal" not in turn.memo:
        enemies = play.b.enemies(turn.unit)
        focus = focus_target(play, turn.unit)
        turn.memo["focus"] = focus
        turn.memo["goal"] = focus if focus is not None else nearest(turn.unit, enemies)
    goal: E.Unit | None = turn.memo["goal"]
    return goal


def nearest(u: E.Unit, enemies: list[E.Unit]) -> E.Unit | None:
    """The nearest of `enemies` (then the lowest id); None: there is none."""
    found: E.Unit | None = None
    best = best_id = 0
    at = u.at
    for e in enemies:  # the lowest (distance, id), compared item by item
        d = E.hex_distance(at, e.at)
        if found is None or d < best or (d == best and e.id < best_id):
            found, best, best_id = e, d, e.id
    return found


# -- the side's plan (issue 29; R-30-24..27) ----------------------------------------------

def withdrawing(play: A.Play, side: str, plan: Plan) -> bool:
    """R-30-25: a `withdraw` stance leaves at once; otherwise the side withdraws once it
    has lost `retreat_at` percent of its starting strength (100 fights to the end). The
    decision is logged once (`plan_withdraw`) and stands for the rest of the battle."""
    if side in play.withdrawing:
        return True
    start = play.start_strength.get(side, 0)
    lost = A.lost_share(play, side)
    if plan.stance == "withdraw" or (plan.retreat_at < 100 and start > 0 and 100 * (
            start - A.kept_strength(play, side)) >= plan.retreat_at * start):
        play.withdrawing.add(side)
        play.b.note(event="plan_withdraw", side=side, lost=lost,
                    retreat_at=plan.retreat_at, stance=plan.stance,
                    text=f"Side {side} withdraws by its plan ({lost}% of its strength lost)")
        return True
    return False


def nearest_the_edge(play: A.Play, side: str) -> E.Unit:
    """A withdrawing side activates the unit nearest its table edge first (then the
    lowest id), so the front does not block the way out."""
    edge = play.home.get(side, A.WEST)
    mine = [u for u in play.b.units if u.alive and u.id not in play.acted and u.side == side]
    return min(mine, key=lambda u: (edge_distance(u.at, edge), u.id))


def edge_distance(h: H.Hex, edge: int) -> int:
    """Hexes from h to the side's short table edge along its row."""
    col, row = E.offset_of(h)
    return col if edge == A.WEST else T.row_length(row) - 1 - col


def withdrawal(play: A.Play, turn: A.Turn) -> Json | None:
    """R-30-24: step off the battlefield when the referee allows it; else face the edge
    (the free rotation), move as near it as the points allow, and step off if a point
    is left; an aerial vehicle runs its thrusters towards the edge. None: nothing more
    to do in the movement phase."""
    b, u = play.b, turn.unit
    edge = play.home.get(u.side, A.WEST)
    leave = {"do": "withdraw"}
    try:
        A.check(play, {"side": int(u.side), "unit": u.id, **leave})
        return leave
    except ActionRefused:
        pass
    if "holding" in u.status and not turn.memo.get("released"):
        turn.memo["released"] = True  # let go of the enemy it holds, to be free to leave
        return {"do": "release"}
    if not u.operative or pinned(u):
        return None
    if u.utype == "aerial":
        if not turn.moved and not turn.thrust and A._thrust_length(b, u) > 0:
            return {"do": "thrust", "direction": edge}
        return None
    if u.facing != edge and not turn.rotated and turn.points > 0:
        return {"do": "rotate", "facing": edge}
    if not turn.memo.get("moved"):
        turn.memo["moved"] = True
        taken = frozenset(o.at for o in b.units if o.alive and o is not u)
        reach, came = E.reachable(b, u, turn.points, u.facing, taken)
        swims = swimmer(u)

        def score(h: H.Hex) -> tuple[int, int, int, tuple[int, int]]:
            colour = b.colour.get(h, "grey")
            hazard = 1 if colour == "red" or (colour == "dark_blue" and not swims) else 0
            return (edge_distance(h, edge), hazard, reach[h], E.offset_of(h))

        dest = min(reach, key=score)
        if dest != u.at:
            return {"do": "move", "to": list(E.offset_of(dest)),
                    "path": [list(E.offset_of(h)) for h in E.path_to(came, u.at, dest)]}
    return None


def focus_target(play: A.Play, u: E.Unit) -> E.Unit | None:
    """R-30-27: the enemy the side's plan hurts first: `weakest` the one with the fewest
    durability points left in its sections, `strongest` the most (then the lowest id);
    `nearest`, or no plan: None (the default choice)."""
    plan = play.plans.get(u.side)
    if plan is None or plan.focus == "nearest":
        return None
    enemies = play.b.enemies(u)
    if not enemies:
        return None
    sign = 1 if plan.focus == "weakest" else -1
    return min(enemies, key=lambda e: (sign * sum(max(0, int(s["durability"]))
                                                  for s in e.sections), e.id))


def recover(play: A.Play, turn: A.Turn, act: Json) -> Json | None:
    """Free itself first, in the movement phase: a held unit breaks the grapple, a unit
    on the ground gets up, when the referee allows it (AP enough, a free hex behind);
    otherwise it stays where it is and fights."""
    u = turn.unit
    status = u.status
    if turn.phase != "move" or not ("hold" in status or "grounded" in status):
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

def pinned(u: E.Unit) -> bool:
    """It holds or is held, is on the ground or stuck: it cannot move (the set
    intersection `{"hold", "holding", "grounded", "stuck"} & u.status`, without
    building the sets)."""
    status = u.status
    return "hold" in status or "holding" in status or "grounded" in status or \
        "stuck" in status


def swimmer(u: E.Unit) -> bool:
    """It cruises or swims (deep water is no hazard to it)."""
    return "cruise" in u.systems or "swim" in u.systems


def movement(play: A.Play, turn: A.Turn, goal: E.Unit, holding: bool = False
             ) -> Json | None:
    """The next movement-phase action: turn towards the goal with the free rotation,
    close in, then face the goal; None when the movement phase is done. A side holding
    its ground (R-30-26) only turns on its hex."""
    b, u = play.b, turn.unit
    can_move = u.operative and not pinned(u)
    if not can_move:
        return None
    if not turn.memo.get("moved"):
        towards = E.direction_to(u.at, goal.at) if goal.at != u.at else u.facing
        if turn.points > 0 and u.facing != towards and not turn.rotated:
            return {"do": "rotate", "facing": towards}
        turn.memo["moved"] = True
        dest = None if holding else destination(b, u, turn.points, goal)
        if dest is not None:
            return {"do": "move", "to": list(E.offset_of(dest[0])),
                    "path": [list(E.offset_of(h)) for h in dest[1]]}
    if not turn.memo.get("faced"):
        turn.memo["faced"] = True
        face = facing_for(u, goal, turn)
        if face is not None:
            return {"do": "rotate", "facing": face}
    return None


def wanted_range(u: E.Unit) -> int:
    """How close the unit wants to be: its longest ranged weapon it has the AP for."""
    longest = -1
    for w in u.usable("ranged"):  # `max` over those it has the AP for, as a loop
        if E._weapon_ap(u, w) <= u.ap:
            reach = int(w["range"])
            if longest < 0 or reach > longest:
                longest = reach
    return longest if longest >= 0 else 1


def destination(b: E.Battle, u: E.Unit, points: int, goal: E.Unit
                ) -> tuple[H.Hex, list[H.Hex]] | None:
    """Where to close in to (and the path): within its longest range of the goal, off
    lava and (unless it swims) deep water, out of a structure's shadow, high ground, the
    fewest points; None: hold where it stands. The policy never shares a hex, not even
    with a friend."""
    if points <= 0:
        return None
    want = wanted_range(u)
    swims = swimmer(u)
    cover = want > 1 and bool(b.structures)
    target, colours, heights = goal.at, b.colour, b.height
    at = u.at
    colour = colours.get(at, "grey")
    if not (colour == "red" or (colour == "dark_blue" and not swims)) and \
            E.hex_distance(at, target) <= want and not (cover and E._blocked(b, at, target)):
        # Where it stands is off the hazards, in range and out of a shadow: only higher
        # ground within its points (every step costs one at least) could be better.
        here = heights.get(at, 0)
        if not any(e > here and E.hex_distance(at, h) <= points for h, e in b.hills):
            return None
    taken = frozenset(o.at for o in b.units if o.alive and o is not u)
    key = (u.utype, u.systems, at, u.facing, points, want, target, taken,
           b.standing_structures)
    if key in b.destinations:  # the board's colours are those of its standing structures
        return b.destinations[key]
    b.destinations[key] = found = _destination(b, u, points, target, want, taken, swims,
                                               cover)
    return found


def _destination(b: E.Battle, u: E.Unit, points: int, target: H.Hex, want: int,
                 taken: frozenset[H.Hex], swims: bool, cover: bool
                 ) -> tuple[H.Hex, list[H.Hex]] | None:
    """`destination` worked out: the movement search and the choice of a hex."""
    reach, came = E.reachable(b, u, points, u.facing, taken)
    colours, heights = b.colour, b.height

    # The lowest (hazard, beyond the wanted range + in a shadow, -height, points, offset
    # coordinates), the first reached on a tie: `min` with the key inlined and compared
    # item by item, so a hex already worse on an item costs no more of its key (the
    # shadow, the costliest item, is looked for only when the distance ties or wins).
    found = False
    best_hazard = best_far = best_up = best_spent = 0
    best_at = (0, 0)
    dest = u.at
    for h, spent in reach.items():
        colour = colours.get(h, "grey")
        hazard = 1 if colour == "red" or (colour == "dark_blue" and not swims) else 0
        if found and hazard > best_hazard:
            continue
        same = found and hazard == best_hazard
        far = E.hex_distance(h, target) - want
        if far < 0:
            far = 0
        if same and far > best_far:
            continue
        if cover and E._blocked(b, h, target) is not None:
            far += 1
        if same and far > best_far:
            continue
        same = same and far == best_far
        up = -heights.get(h, 0)
        if same and up > best_up:
            continue
        same = same and up == best_up
        if same and spent > best_spent:
            continue
        offset = E.offset_of(h)
        if same and spent == best_spent and offset >= best_at:
            continue
        found = True
        best_hazard, best_far, best_up, best_spent, best_at, dest = (
            hazard, far, up, spent, offset, h)
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


def thruster_run(b: E.Battle, u: E.Unit, holding: bool = False) -> int:
    """An aerial vehicle's run: over the most enemies, the full length (no fall), ending
    nearest an enemy, then the lowest direction. Holding its ground (R-30-26) it cannot
    stay on its hex ("must move the full amount"), so it makes the run that at no point
    comes nearer the nearest enemy, of its full length when one is, ending as near as it
    was (when every run comes nearer, the one that comes least)."""
    enemies = b.enemies(u)
    length = A._thrust_length(b, u)
    before = min(E.hex_distance(u.at, e.at) for e in enemies)

    # The enemies a run passes over (one elevation below it), counted by hex, and the
    # hexes of all of them: each run's key then reads these instead of every enemy.
    level = u.elevation - 1
    below: dict[H.Hex, int] = {}
    spots: list[H.Hex] = []
    for e in enemies:
        spots.append(e.at)
        if e.elevation == level:
            below[e.at] = below.get(e.at, 0) + 1
    best: tuple[int, int, int, int] | None = None
    run = 0
    for d in range(6):  # `min` over the directions, the key inlined
        p = A.thrust_path(b, u, d)
        end = p[-1] if p else u.at
        near = -1
        for s in spots:
            gap = E.hex_distance(end, s)
            if near < 0 or gap < near:
                near = gap
        full = 0 if len(p) == length else 1
        if holding:
            closer = before
            if p:
                closer = -1
                for h in p:
                    for s in spots:
                        gap = E.hex_distance(h, s)
                        if closer < 0 or gap < closer:
                            closer = gap
            key = (1 if closer < before else 0, full, abs(near - before), d)
        else:
            over = 0
            if below:
                for h in p:
                    over += below.get(h, 0)
            key = (-over, full, near, d)
        if best is None or key < best:
            best, run = key, d
    return run


# -- combat ------------------------------------------------------------------------------

def pick(ranked: list[Attack], ap: int, focus: E.Unit | None) -> Attack | None:
    """The best of `ranked_attacks` the AP covers on an enemy still on the field; on the
    `focus` first when one of them reaches it (R-30-27)."""
    if focus is not None and focus.alive:
        for found in ranked:
            if found[2] is focus and -found[0][1] <= ap:
                return found
    for found in ranked:
        target = found[2]
        if -found[0][1] <= ap and target.condition != "destroyed" and not target.left:
            return found
    return None


def ranked_attacks(b: E.Battle, u: E.Unit, melee: bool, targets: list[E.Unit]
                   ) -> list[Attack]:
    """Every attack on one of `targets`, the most expected damage per AP first (then the
    cheaper, the weapon key, the lower target id), whatever the AP left: what
    `E._reach`/`E._melee_reach` and `E._expected` say of each weapon and target, with
    what does not depend on the weapon (distance, view, sight, modifiers) worked out once
    per target. The key's second item is minus the AP the attack costs."""
    if melee and "hold" in u.status:
        return []  # a held unit "cannot make Assault Rolls"
    at, utype = u.at, u.utype
    if melee:  # a blow reaches the adjacent hex only: none there, no attack to rank
        for target in targets:
            if E.hex_distance(at, target.at) == 1:
                break
        else:
            return []
    options = [*u.usable("melee"), A.BASIC] if melee else u.usable("ranged")
    costed = []  # (weapon, basic attack, AP, listed range: ranged weapons only)
    longest = 1  # no weapon reaches beyond its listed range (green hexes only halve it,
    for w in options:  # R-30-8); a melee attack reaches the adjacent hex only
        basic = w["key"] == "basic"
        listed = 0 if melee else int(w["range"])
        if listed > longest:
            longest = listed
        costed.append((w, basic, int(w["ap"]) if basic else E._weapon_ap(u, w), listed))
    found: list[Attack] = []
    if not costed:
        return found
    # A target further than the longest reach is skipped before its sight line and
    # modifiers are worked out.
    stat = u.stats["assault" if melee else "accuracy"]
    for target in targets:
        d = E.hex_distance(at, target.at)
        if d > longest or d < 1:
            continue
        if not R.field_of_view(u.facing, E.direction_to(at, target.at), utype):
            continue
        greens = 0 if melee else E._sight(b, at, target.at)[0]
        blocked: bool | None = None
        atk, ev = E._modifiers(b, u, target, melee)
        evades = "hold" not in target.status and "grounded" not in target.status
        p_evade = E._p_evade(target.stats["evasion"], ev) if evades else 0.0
        for w, basic, cost, listed in costed:
            if melee:
                if not R.in_range(d, int(w.get("range") or 1)):
                    continue
            else:
                rng = R.weapon_range(listed, unit_type=utype, green_between=greens)
                if not R.in_range(d, rng):
                    continue
                if R.needs_line_of_sight(utype, w):
                    if blocked is None:
                        blocked = E._blocked(b, at, target.at) is not None
                    if blocked:
                        continue
            value = E.expected_damage(stat, atk, p_evade, int(w["damage"]), basic) / cost
            found.append(((value, -cost, w["key"], -target.id), w, target))
    if len(found) > 1:
        found.sort(key=_attack_key, reverse=True)
    return found


def _attack_key(attack: Attack) -> tuple[float, int, str, int]:
    return attack[0]


def _ranked_now(b: E.Battle, turn: A.Turn, melee: bool) -> list[Attack]:
    """`ranked_attacks` on the unit's enemies, worked out once per turn after its
    movement phase: in its combat phases the unit neither moves nor turns nor is hurt,
    and its targets neither move nor change status (only a structure falling changes a
    sight line: it is worked out again then), so the ranking stands and only the AP and
    the targets left filter it (the melee ranking the ranged phase weighs is the close
    combat phase's)."""
    key = "ranked melee" if melee else "ranked ranged"
    kept = turn.memo.get(key)
    if kept is None or kept[0] is not b.standing_structures:
        kept = turn.memo[key] = (b.standing_structures,
                                 ranked_attacks(b, turn.unit, melee, b.enemies(turn.unit)))
    ranked: list[Attack] = kept[1]
    return ranked


def one_side_standing(b: E.Battle) -> bool:
    """`len(b.standing()) < 2` without building its set and list: at most one of the
    battle's sides has an operative unit on the field."""
    first: str | None = None
    sides = b.sides
    for u in b.units:
        if u.condition == "operative" and not u.left and u.side in sides:
            if first is None:
                first = u.side
            elif u.side != first:
                return False
    return True


def ranged_choice(play: A.Play, turn: A.Turn, goal: E.Unit) -> Json | None:
    """Fire while AP lasts, keeping the AP for the close combat phase when a melee
    weapon or a basic attack would do more per AP there; then, with no enemy in its
    sights, shoot down a structure between it and its goal (once)."""
    b, u = play.b, turn.unit
    if not turn.memo.get("ranged_done"):
        found = None
        if u.alive and u.ap > 0 and not (turn.attacks["ranged"] and one_side_standing(b)):
            focus = turn.memo.get("focus")
            found = pick(_ranked_now(b, turn, False), u.ap, focus)
            if found is not None:
                close = pick(_ranked_now(b, turn, True), u.ap, focus)
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
    if u.ap <= 0 or not goal.alive:
        return None
    ranged = u.usable("ranged")
    for e in b.enemies(u):  # an enemy in its sights (a weapon reaches no further than
        d = E.hex_distance(u.at, e.at)  # its listed range: R-30-8)
        for w in ranged:
            if 1 <= d <= int(w["range"]) and E._reach(b, u, w, e):
                return None
    h = E._blocked(b, u.at, goal.at)
    if h is None:
        return None
    if not R.field_of_view(u.facing, E.direction_to(u.at, h), u.utype):
        return None
    weapons = [w for w in ranged if E._weapon_ap(u, w) <= u.ap
               and E.hex_distance(u.at, h) <= int(w["range"])]
    if not weapons:
        return None
    w = max(weapons, key=lambda w: (int(w["damage"]) / E._weapon_ap(u, w), w["key"]))
    return {"do": "attack", "structure": list(E.offset_of(h)), "weapon": w["key"]}


def close_choice(play: A.Play, turn: A.Turn) -> Json | None:
    """Strike while AP lasts with the most expected damage per AP."""
    b, u = play.b, turn.unit
    if not u.alive or u.ap <= 0 or (turn.attacks["close"] and one_side_standing(b)):
        return None
    found = pick(_ranked_now(b, turn, True), u.ap, turn.memo.get("focus"))
    if found is None:
        return None
    return {"do": "attack", "target": found[2].id, "weapon": found[1]["key"]}

