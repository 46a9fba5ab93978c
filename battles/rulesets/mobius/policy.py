"""The default policy (R-MOB-19): what a sensible owner does with each unit, phase by
phase, as an action the layer referees (`actions.py`). Each decision is a small function
(which target, whether to close in or hold, when to get out, escape or howl) so that a
sealed battle plan (issue 29) can steer it; none rolls a die or changes the battle.

Which model takes the damage is the owner's choice too: `allocation.keep_alive`.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.mobius import engine as E
from battles.rulesets.mobius import plans as PL
from battles.rulesets.mobius import rules as R
from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.state import Battle, Unit, dist

Json = dict[str, Any]


# --- the decisions --------------------------------------------------------------------------
def target_of(b: Battle, u: Unit) -> Unit | None:
    """Which enemy a unit goes for: the nearest on the table (R-MOB-19), or the one its
    side's plan focuses on (R-MOB-43)."""
    if not b.plans or PL.focus(b, u.side) == "nearest":
        return E.plan_target(b, u)
    foes = b.enemies(u)
    return min(foes, key=_focus_key(b, u)) if foes else None


def _focus_key(b: Battle, u: Unit) -> Any:
    """How a unit ranks the enemies (R-MOB-43): nearest first (None: `engine.nearest`,
    by distance and id); the fewest HP left first (`weakest`) or the most (`strongest`),
    the nearer first among equals."""
    focus = PL.focus(b, u.side) if b.plans else "nearest"
    if focus == "weakest":
        return lambda e: (e.hp_left, dist(u, e), e.id)
    if focus == "strongest":
        return lambda e: (-e.hp_left, dist(u, e), e.id)
    return None


def wants_escape(u: Unit) -> bool:
    """Whether a locked unit tries to escape: when its shooting is worth more than its
    melee (R-MOB-19); vehicles are never locked in their own right."""
    return not u.melee_minded() and not u.vehicle


def gets_out(b: Battle, u: Unit, carrier: Unit) -> Unit | None:
    """Whether a passenger gets out, and toward whom (R-MOB-31): once the nearest enemy is
    within its longest range, or its charge, plus the 6" of getting out."""
    foe = _nearest_from(b, u, carrier.x)
    if foe is None:
        return None
    reach = (E.allowance(b, u, "standard") + T.LOCK_RANGE if u.melee_minded()
             else max((w["rng"] for w in u.ranged()), default=0))
    return foe if abs(carrier.x - foe.x) <= reach + T.DISEMBARK else None


def howls(b: Battle, u: Unit, target: Unit) -> bool:
    """R-MOB-25: a Cry of the Wolf unit that cannot charge this turn howls once, when an
    enemy is within the howl's 18"."""
    if "cry_of_the_wolf" not in u.rules or u.howl_used or u.vehicle:
        return False
    reach = max(E.allowance(b, u, "standard"), _rapid(b, u)) + T.LOCK_RANGE
    d = dist(u, target)
    return not (d <= reach or d > T.WAR_HOWL_RANGE)


def closes_in(u: Unit, target: Unit) -> bool:
    """Whether a unit closes in to fight (R-MOB-19): melee is its strength (or it has no
    gun), and the target is not a flyer out of its reach in the air."""
    return u.melee_minded() and not (target.flying and not u.flying)


def reserve_to_bring(b: Battle, side: str) -> Unit | None:
    """Which unit comes from Reserve next: the first waiting, in campaign-id order; an
    Ambush unit from its army's second turn (R-MOB-34, R-MOB-36)."""
    if b.reserve_room.get(side, 0) <= 0 or PL.stance(b, side) == "withdraw":
        return None
    first: Unit | None = None  # the first in id order that may come
    early = b.turns_played[side] < 2
    for u in b.units:
        if not (u.reserve and u.side == side and u.in_play) or (early and "ambush" in u.rules):
            continue
        if first is None or u.id < first.id:
            first = u
    return first


def weapons_for(b: Battle, u: Unit, target: Unit, *, hero: bool = False) -> list[str]:
    """The weapons a unit fires at `target`: each model its best in range; a vehicle its
    best allowed weapons, a Giant its best two; one in the Hero Phase (R-MOB-19)."""
    usable = E.usable_weapons(u, target, hero)
    if u.vehicle:
        limit = E.weapon_limit(u, hero)
        keys = [w["key"] for w in usable[:limit if limit is not None else len(usable)]]
    elif "giant" in u.subtypes:
        keys = [w["key"] for w in R.giant_attacks(usable)]
    else:
        keys = [w["key"] for w in usable[:1]]
    return keys[:1] if hero else keys


def shooting_target(b: Battle, u: Unit, *, hero: bool = False) -> Unit | None:
    """The nearest enemy the unit may target and reach with a weapon (the Hero Phase looks
    at the nearest only)."""
    if u.rc is None:
        return None
    had_turn = b.had_turn  # `E.targetable` of an enemy on the table
    targets = [e for e in b.enemies(u) if e.side in had_turn and not (e.locked and not e.vehicle)]
    if not targets:
        return None
    # The first target in focus order that a weapon able to fire reaches: the first in
    # that order among those within the longest such range.
    reach = E.firing_reach(u, E.firing_movement(u, hero))
    key = _focus_key(b, u)
    x = u.x
    if hero:
        first = min(targets, key=key) if key is not None else E.nearest(u, targets)
        return first if first is not None and abs(first.x - x) <= reach else None
    within = [e for e in targets if abs(e.x - x) <= reach]
    if key is None:
        return E.nearest(u, within)
    return min(within, key=key) if within else None


# --- one unit's choice in each phase ----------------------------------------------------------
def movement(b: Battle, u: Unit) -> Json:
    """The unit's Movement Phase (R-MOB-19); a unit that cannot move stays ("Units with a
    Move value of 0" may not Move at all")."""
    act = _movement(b, u)
    if act["do"] == "move" and act.get("inches") is not None and int(act["inches"]) <= 0:
        return {"do": "stay"}
    return act


def _movement(b: Battle, u: Unit) -> Json:
    if u.panicked:
        return {"do": "stay"}
    stance = PL.stance(b, u.side)
    if stance == "withdraw":
        return withdrawal(b, u)
    if stance == "hold":
        return holding(b, u)
    if u.locked:
        return {"do": "escape"} if wants_escape(u) else {"do": "stay"}
    if u.inside is not None:
        foe = gets_out(b, u, b.unit(u.inside))
        return {"do": "disembark", "toward": foe.id} if foe is not None else {"do": "stay"}
    target = target_of(b, u)
    if target is None:
        return {"do": "stay"}
    if howls(b, u, target):
        return {"do": "howl"}
    d = dist(u, target)
    std = E.allowance(b, u, "standard")
    if closes_in(u, target):
        if not R.first_turn_curse(owner_has_had_turn=target.side in b.had_turn):
            # no charge at a unit that may not be targeted: keep out of its reach
            return {"do": "move", "kind": "standard", "toward": target.id, "inches": std,
                    "keep": T.UNIT_GAP + std}
        need = d - T.LOCK_RANGE
        rapid = _rapid(b, u)
        if need <= std:
            return {"do": "charge", "target": target.id, "kind": "standard"}
        if rapid and need <= rapid:
            return {"do": "charge", "target": target.id, "kind": "rapid"}
        return _full_move(b, u, target, rapid)
    reach = max((w["rng"] for w in u.ranged()), default=0)
    if d <= reach:
        return {"do": "stay"}
    if d - std <= reach:
        return {"do": "move", "kind": "standard", "toward": target.id,
                "inches": min(d - reach + 0.5, float(std))}
    return _full_move(b, u, target, None)


def action(b: Battle, u: Unit) -> Json:
    """The unit's Action Phase: fire at the nearest enemy it can, else take cover."""
    target = shooting_target(b, u)
    if target is not None:
        return {"do": "fire", "target": target.id, "weapons": weapons_for(b, u, target)}
    if not u.vehicle and R.take_cover(infantry=True, subtypes=u.subtypes_list,
                                      rules=u.rules_list)["allowed"]:
        return {"do": "take_cover"}
    return {"do": "hold"}


def hero(b: Battle, u: Unit) -> Json:
    """The Hero Phase: fight if locked, else fire one weapon at the nearest enemy, else
    Push It toward it when melee is the hero's strength."""
    if u.locked and not u.vehicle:
        return {"do": "fight"}
    target = shooting_target(b, u, hero=True)
    if target is not None:
        return {"do": "fire", "target": target.id,
                "weapons": weapons_for(b, u, target, hero=True)}
    foe = target_of(b, u)
    if (foe is not None and u.melee_minded() and dist(u, foe) > T.UNIT_GAP
            and u.joined is None and PL.stance(b, u.side) == "attack"):
        return {"do": "push_it", "toward": foe.id}
    return {"do": "hold"}


def withdrawal(b: Battle, u: Unit) -> Json:
    """R-MOB-40: a withdrawing unit makes for its own table edge as fast as it may (a Rapid
    Move, else a Standard one) and routs off it; a locked one first tries to escape; a
    passenger rides its transport off."""
    if u.locked:
        return {"do": "escape"} if not u.vehicle else {"do": "stay"}
    if u.inside is not None:
        return {"do": "stay"}
    rapid, kind = _rapid(b, u), "rapid"
    if not rapid:
        rapid, kind = E.allowance(b, u, "standard"), "standard"
    return _move_to(b, u, b.edge(u.side), rapid, kind)


def holding(b: Battle, u: Unit) -> Json:
    """R-MOB-42: a holding unit keeps its ground: no move or charge toward the enemy, no
    getting out of its transport; a locked one fights on (or escapes as R-MOB-19 says); a
    unit with a minimum Move makes it back toward its own edge."""
    if u.locked:
        return {"do": "escape"} if wants_escape(u) else {"do": "stay"}
    if u.inside is None and u.move_min and not b.shielded_by_host(u):
        edge = b.edge(u.side)
        room = abs(edge - u.x) - 1  # not off the table: holding is not leaving
        return _move_to(b, u, edge, min(float(u.move_min), room), "standard")
    return {"do": "stay"}


def _move_to(b: Battle, u: Unit, goal: float, inches: float, kind: str) -> Json:
    """A move of `inches` toward the point `goal` (not past it), or staying where the
    move would end within 2" of an enemy or not move at all."""
    step = min(float(int(inches)), abs(goal - u.x))
    if step < 1:
        return {"do": "stay"}
    to = u.x + (step if goal > u.x else -step)
    if any(abs(e.x - to) < T.UNIT_GAP for e in b.enemies(u)):
        return {"do": "stay"}
    return {"do": "move", "kind": kind, "to": to}


# --- helpers --------------------------------------------------------------------------------
def _full_move(b: Battle, u: Unit, target: Unit, rapid: int | None) -> Json:
    """As far as it may toward the target, keeping 2" away: a Rapid Move where it may."""
    allowed = R.move_allowance(move=u.move, kind="rapid", subtypes=u.subtypes_list,
                               bonus=0, flying=u.flying, move_flying=u.move_flying,
                               start_terrain=b.terrain_at(u.x),
                               rules=u.rules_list)["allowed"]
    if allowed and (rapid is None or rapid):
        return {"do": "move", "kind": "rapid", "toward": target.id}
    return {"do": "move", "kind": "standard", "toward": target.id,
            "inches": E.allowance(b, u, "standard")}


def _rapid(b: Battle, u: Unit) -> int:
    """The Rapid Move allowance without rolling: a Heavy unit's +D6 counts as +1 here."""
    if "heavy" not in u.subtypes:
        return E.allowance(b, u, "rapid")
    a = R.move_allowance(move=u.move, kind="rapid", subtypes=u.subtypes_list, bonus=1,
                         flying=u.flying, move_flying=u.move_flying,
                         start_terrain=b.terrain_at(u.x), rules=u.rules_list)
    return int(a["inches"]) if a["allowed"] else 0


def _nearest_from(b: Battle, u: Unit, x: float) -> Unit | None:
    foes = b.enemies(u)
    return min(foes, key=lambda e: (abs(x - e.x), e.id)) if foes else None
