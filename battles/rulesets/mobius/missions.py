"""Basic Missions (R-MOB-6): King of the Hill, Control Points and Struggle for Survival
score a Mobius battle and decide its winner."""

from __future__ import annotations

from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.state import Battle


def objectives(b: Battle) -> list[float]:
    """R-MOB-6: King of the Hill's objective at the centre; Control Points' five spread
    evenly from line to line (one in each deployment zone)."""
    if b.mission == "king_of_the_hill":
        return [b.gap / 2]
    if b.mission == "control_points":
        return [b.gap * i / (T.CONTROL_POINTS - 1) for i in range(T.CONTROL_POINTS)]
    return []


def near(b: Battle, x: float, *, vehicles: bool) -> set[str]:
    return {u.side for u in b.units if u.on_table and abs(u.x - x) <= T.OBJECTIVE_RANGE
            and (vehicles or not u.vehicle) and u.inside is None}


def update_points(b: Battle) -> None:
    for i, x in enumerate(objectives(b)):
        anyone = near(b, x, vehicles=True)
        holders = near(b, x, vehicles=False)
        if len(anyone) > 1:
            b.points_owner[i] = None
        elif len(holders) == 1:
            b.points_owner[i] = next(iter(holders))


def score_start(b: Battle, side: str) -> None:
    if b.mission == "king_of_the_hill":
        x = objectives(b)[0]
        holders = near(b, x, vehicles=False)
        if side in holders:  # "If they are the only Player with a Unit within 2"" (any unit)
            alone = near(b, x, vehicles=True) == {side}
            b.vp[side] += T.KING_HOLD_VP + (T.KING_ALONE_VP if alone else 0)
    elif b.mission == "control_points":
        update_points(b)
        if b.held_all == side and all(o == side for o in b.points_owner):
            b.winner = side
            b.end_reason = "all_control_points"
        b.held_all = None


def score_end_of_turn(b: Battle, side: str) -> None:
    if b.mission == "control_points":
        update_points(b)
        if b.points_owner and all(o == side for o in b.points_owner):
            b.held_all = side


def casualty_rates(b: Battle) -> dict[str, int]:
    """Struggle for Survival: the points of destroyed units, half the points of units at
    half their HP or less ("total LP", read as HP, R-MOB-6); a wiped army "the game's full
    Points Limit"."""
    out = {}
    for side in b.order:
        mine = [u for u in b.units if u.side == side]
        if not any(u.in_play for u in mine):
            out[side] = max(b.limits.get(side, 0), sum(u.points for u in mine))
            continue
        rate = 0
        for u in mine:
            if not u.in_play:
                rate += u.points
            elif u.hp_left * 2 <= u.hp_start * u.models_start:
                rate += u.points // 2
        out[side] = rate
    return out


def decide(b: Battle) -> None:
    standing = b.standing()
    if b.winner is not None:
        return
    if len(standing) <= 1:
        b.winner = standing[0] if standing else None
        b.end_reason = b.end_reason or ("one_side_left" if standing else "all_gone")
        return
    rates = casualty_rates(b)
    rates = {s: r for s, r in rates.items() if s in standing}
    if b.mission == "king_of_the_hill":
        holders = near(b, objectives(b)[0], vehicles=False)
        if len(holders) == 1 and near(b, objectives(b)[0], vehicles=True) == holders:
            b.vp[next(iter(holders))] += T.KING_END_VP
        best = max(b.vp[s] for s in standing)
        top = [s for s in standing if b.vp[s] == best]
        if len(top) == 1:
            b.winner, b.end_reason = top[0], "victory_points"
            return
        rates = {s: rates[s] for s in top}
    elif b.mission == "control_points":
        update_points(b)
        held = {s: sum(1 for o in b.points_owner if o == s) for s in standing}
        best = max(held.values())
        top = [s for s in standing if held[s] == best]
        if len(top) == 1:
            b.winner, b.end_reason = top[0], "control_points"
            return
        rates = {s: rates[s] for s in top}
    low = min(rates.values())
    top = [s for s, r in rates.items() if r == low]
    b.end_reason = b.end_reason or "casualty_rate"
    if len(top) == 1:
        b.winner = top[0]
    else:  # R-MOB-6: a tie leaves the field with the defender, if it is among them
        b.winner = b.defender if b.defender in top else None


