"""A whole Mobius battle, played by a deterministic default policy for every side.

The table is one axis (R-MOB-3): the first side's deployment line at 0, the last side's at
the deployment gap (others evenly between), each edge 12" behind the nearest line ("Lines
Drawn ... within 12" of it"); the ground is cut into 6" strips whose terrain comes from the
territory's buildings and the battle's seed. Turns follow the Turn Structure (Start,
Movement, Action, Hero, Melee, End) in turn order, round after round; every die goes
through the `Dice` seam in the order the rules call for them.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.mobius import missions as M
from battles.rulesets.mobius import rules as R
from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.state import (
    EDGE_BEHIND,
    STRIP,
    UNARMED,
    Battle,
    Unit,
    avg_dam,
    dist,
)
from campaign.rules.dice import Dice

__all__ = ["EDGE_BEHIND", "STRIP", "UNARMED", "Battle", "Unit", "build", "casualty_rates",
           "objectives", "play"]

casualty_rates = M.casualty_rates
objectives = M.objectives


def build(battle_input: dict[str, Any], dice: Dice, keep_log: bool = True) -> Battle:
    order = [str(s) for s in battle_input.get("order") or battle_input["sides"]]
    units = []
    for side, roster in battle_input["sides"].items():
        for u in roster:
            faction = str(u.get("faction") or "")
            abilities = T.FACTIONS.get(faction, ("", ()))[1]
            subtypes = set(u.get("subtypes") or ())
            granted = {r for s in subtypes for r in T.GRANTED_RULES.get(s, ())}
            units.append(Unit(
                id=int(u["id"]), side=str(side), name=str(u.get("name") or u["id"]),
                faction=faction, rank=str(u.get("rank", "troops")),
                vehicle=u.get("type") == "vehicle", subtypes=subtypes,
                rules=set(u.get("rules") or ()) | set(abilities) | granted,
                hp=[int(h) for h in u["hp"]], hp_start=int(u["hp_start"]),
                models_start=len(u["hp"]), move=int(u["move"]),
                move_flying=int(u.get("move_flying") or 0),
                move_min=int(u.get("move_min") or 0), cqc=int(u.get("cqc") or 0),
                rc=u.get("rc"), pan=int(u["pan"]), dfc=int(u.get("def") or 0),
                arm=int(u.get("arm") or 0), weapons=list(u.get("weapons") or ()),
                points=int(u.get("points") or 0), x=float(u.get("x", 0)),
                camouflage=int(u.get("camouflage") or 0), shielded=u.get("shielded"),
                variant_of=str(u.get("variant_of") or ""),
                capacity=int(u.get("transport") or 0),
                reserve=bool(u.get("reserve")),
                flying=bool({"flying", "airborne"} & subtypes)))
    b = Battle(order=order, defender=battle_input.get("defender"), units=units,
               terrain=list(battle_input["terrain"]), gap=float(battle_input["gap"]),
               mission=str(battle_input.get("mission") or "struggle_for_survival"),
               options=dict(battle_input.get("options") or {}), dice=dice,
               limits={str(k): int(v) for k, v in (battle_input.get("limits") or {}).items()},
               keep_log=keep_log)
    for side in order:
        mine = sorted((u for u in units if u.side == side),
                      key=lambda u: (0 if u.rank == "hq" else 1 if u.rank == "heroes" else 2,
                                     u.id))
        b.commander[side] = mine[0].id if mine and mine[0].hero else None
        b.vp[side] = 0
        b.turns_played[side] = 0
        _embark_at_start(b, [u for u in units if u.side == side])
    _deploy_specials(b)
    _join_independents(b)
    return b


def _join_independents(b: Battle) -> None:
    """Independents: "Independents can join friendly Units by entering Unit Cohesion";
    Bodyguard: "both the Bodyguard and the HQ are considered the same Unit" (R-MOB-38: each
    single-model infantry HQ joins its side's first Bodyguard unit, else its first infantry
    Troops unit on the table, one HQ to a unit)."""
    taken: set[int] = set()
    for u in sorted(b.units, key=lambda x: x.id):
        if u.rank != "hq" or u.vehicle or len(u.hp) != 1 or u.reserve or u.inside is not None:
            continue
        host = next((h for h in sorted(b.units, key=lambda x: (x.rank != "bodyguard", x.id))
                     if h.side == u.side and h.rank in ("bodyguard", "troops")
                     and not h.vehicle and not h.reserve and h.inside is None
                     and h.id not in taken), None)
        if host is None:
            continue
        taken.add(host.id)
        u.joined, u.x = host.id, host.x
        b.note(side=u.side, unit=u.id, target=host.id, action="joins",
               text=f"{u.name} joins {host.name}")


def _follow_hosts(b: Battle) -> None:
    """A joined Independent moves, charges and is locked with its unit; it leaves when
    the unit is gone (R-MOB-38)."""
    for u in b.units:
        if u.joined is None or not u.on_table:
            continue
        host = b.unit(u.joined)
        if not host.on_table:
            u.joined = None
            b.note(side=u.side, unit=u.id, action="alone",
                   text=f"{u.name} fights on alone")
            continue
        u.x, u.movement, u.charged = host.x, host.movement, host.charged
        u.locked = set(host.locked)


def _deploy_specials(b: Battle) -> None:
    """R-MOB-34: units with Ambush begin in Reserve; units with Vanguard deploy forward,
    "providing they are at least 18" away from the nearest enemy Unit"."""
    for u in sorted(b.units, key=lambda u: u.id):
        if u.inside is not None or u.reserve:
            continue
        if "ambush" in u.rules:
            u.reserve = True
            b.note(side=u.side, unit=u.id, action="reserve",
                   text=f"{u.name} waits in Reserve to ambush")
            continue
        foes = [e for e in b.units if e.side != u.side]
        if "vanguard" not in u.rules or not foes:
            continue
        foe = min(foes, key=lambda e: (abs(e.x - u.x), e.id))
        gap = abs(foe.x - u.x)
        if gap > T.VANGUARD_GAP:
            u.x += (gap - T.VANGUARD_GAP) * (1.0 if foe.x > u.x else -1.0)
            b.note(side=u.side, unit=u.id, action="vanguard", to=u.x,
                   text=f"{u.name} deploys forward (Vanguard), 18\" from {foe.name}")


def _embark_at_start(b: Battle, mine: list[Unit]) -> None:
    """Transport: "Units with Transport assigned to them must begin inside it" (R-MOB-31:
    each Transport-rank vehicle takes the side's infantry Troops, in id order, that fit
    its capacity; no Giants or Cavalry)."""
    riders = [u for u in sorted(mine, key=lambda u: u.id) if not u.vehicle and not u.reserve
              and u.rank == "troops" and not ({"giant", "cavalry"} & u.subtypes)]
    for v in sorted(mine, key=lambda u: u.id):
        if v.reserve or not (v.vehicle and v.rank == "transport" and "transport" in v.subtypes):
            continue
        room = v.capacity
        for r in riders:
            if r.inside is None and r.alive <= room:
                r.inside, r.x = v.id, v.x
                room -= r.alive
                b.note(side=r.side, unit=r.id, target=v.id, action="embarked",
                       text=f"{r.name} begins inside {v.name}")


# --- helpers ------------------------------------------------------------------------------
def _targetable(b: Battle, shooter: Unit, target: Unit) -> bool:
    """The First Turn Curse; "Units may not target enemies in Melee Lock"; Combat in the
    Air: a flyer "may only be targeted for Ranged Commands and Attacks" (R-MOB-3)."""
    if not target.on_table:
        return False
    if not R.first_turn_curse(owner_has_had_turn=target.side in b.had_turn):
        return False
    return not (target.locked and not target.vehicle)


def _toward(u: Unit, x: float) -> float:
    return 1.0 if x > u.x else -1.0


def _move(b: Battle, u: Unit, goal: float, budget: float, *, stop_short: float = 0.0,
          away: bool = False) -> float:
    """Walk `budget` inches toward `goal` (or away from it), 1" at a time, through the
    strips: Difficult Terrain stops the unit at its regular Move value, a Building stops a
    vehicle, moving into or out of a Trench ends the move (R-MOB-3)."""
    if budget <= 0:
        return 0.0
    step = -_toward(u, goal) if away else _toward(u, goal)
    start = u.x
    left = budget
    ignore = u.flying or "hover" in u.subtypes or "teleport" in u.rules
    cap = budget
    while left >= 1 and (away or abs(goal - u.x) > stop_short + 0.5):
        here = b.terrain_at(u.x)
        nxt = b.terrain_at(u.x + step)
        if not ignore:
            if not R.can_enter(nxt, vehicle=u.vehicle):
                break
            if T.TERRAIN[nxt].difficult and not {"all_terrain", "climb"} & u.rules:
                cap = min(cap, float(u.move))
                if abs(u.x + step - start) > cap:
                    break
        u.x += step
        left -= 1
        if not ignore and (here == "trench") != (nxt == "trench"):
            u.movement = "rapid"
            break
        if (u.x <= -EDGE_BEHIND or u.x >= b.gap + EDGE_BEHIND) and away:
            break
    return abs(u.x - start)


def _dangerous(b: Battle, u: Unit, where: float) -> None:
    if b.terrain_at(where) != "dangerous" or u.vehicle or u.flying or "hover" in u.subtypes:
        return
    hurt = R.dangerous_terrain(b.dice, u.alive, immune="climb" in u.rules)
    if hurt["damage"]:
        u.hp = R.allocate(b.dice, u.hp, hurt["damage"], 1)["hp"]
        _check_dead(b, u)
    b.note(side=u.side, unit=u.id, phase="movement", action="dangerous",
           rolls=hurt["rolls"], text=f"{u.name} crosses dangerous terrain: "
           f"{hurt['damage']} HP lost")


def _check_dead(b: Battle, u: Unit) -> None:
    if u.alive > 0 or u.destroyed:
        return
    if "immortal" in u.rules and not u.immortal_used:
        u.immortal_used = True
        rise = R.immortal_rise(b.dice, u.hp_start)
        b.note(side=u.side, unit=u.id, action="immortal", rolls=[rise["roll"]],
               text=f"{u.name} falls" + (f" and gets back up with {rise['hp']} HP"
                                         if rise["rises"] else " for good"))
        if rise["rises"]:
            u.hp = [rise["hp"]]
            return
    u.destroyed = True
    u.hp = []
    for other in b.units:
        other.locked.discard(u.id)
    u.locked.clear()
    if u.vehicle:
        _bail_out(b, u)
    for rider in b.units:  # an Independent whose unit is gone stands alone (R-MOB-38)
        if rider.joined == u.id:
            rider.joined = None
            for foe_id in rider.locked:
                b.unit(foe_id).locked.add(rider.id)
            b.note(side=rider.side, unit=rider.id, action="alone",
                   text=f"{rider.name} fights on alone")


def _bail_out(b: Battle, v: Unit) -> None:
    """Destroying Vehicles with Transport: the passengers "must make a Rapid Move away from
    the wreckage and roll a Panic Test ... must not pass, or end within 3" of, an enemy
    Unit. If this isn't possible, the Unit's members are all trapped"."""
    for p in b.passengers(v):
        p.inside = None
        trapped = any(dist(v, e) <= 3 for e in b.enemies(p))
        fate = R.transport_destroyed(enemy_within_3=trapped)
        if fate["passengers_destroyed"]:
            p.destroyed = True
            p.hp = []
        else:
            _move(b, p, b.edge(p.side), float(p.move + T.RAPID_BONUS))
            p.movement = "rapid"
            p.must_panic = True
        b.note(side=p.side, unit=p.id, action="bail_out", target=v.id,
               text=f"{p.name} " + ("is trapped in the burning wreck of " if trapped
                                    else "bails out of the wreck of ") + v.name)


# --- phases -------------------------------------------------------------------------------
def _start(b: Battle, side: str) -> None:
    for u in b.units:
        if u.side != side or not u.on_table:
            continue
        u.dug_in = False
        u.charged = False
        u.escape_failed = False
        u.howling = False
        u.skip_turn = False
        if ({"flying", "airborne"} & u.subtypes and not u.flying and not u.locked
                and not u.panicked):
            u.flying = True  # "They may declare to change this during their own Start Phase"
        if "immortal" in u.rules and u.alive and u.hp_left < u.hp_start * len(u.hp):
            rec = R.immortal_recover(b.dice, u.hp[0], u.hp_start)
            u.hp[0] = rec["hp"]
            b.note(side=side, unit=u.id, phase="start", action="immortal",
                   rolls=[rec["roll"]], text=f"{u.name} recovers to {rec['hp']} HP")
    cid = b.commander.get(side)
    if cid is not None and not b.unit(cid).on_table:
        others = [u for u in b.units if u.side == side and u.on_table and u.rank == "hq"]
        if others:
            roll = R.second_in_command(b.dice)
            if roll["new_commander"]:
                b.commander[side] = others[0].id
            b.note(side=side, phase="start", action="second_in_command",
                   rolls=[roll["roll"]],
                   text=f"Side {side} rolls {roll['roll']} for a second in command"
                        + (f": {others[0].name} takes over" if roll["new_commander"] else ""))
    M.score_start(b, side)


def _plan_target(b: Battle, u: Unit) -> Unit | None:
    """The nearest enemy on the table (moving toward a unit is not targeting it)."""
    foes = b.enemies(u)
    return min(foes, key=lambda e: (dist(u, e), e.id)) if foes else None


def _cursed(b: Battle, target: Unit) -> bool:
    """The First Turn Curse: the target's player has not had a turn yet."""
    return not R.first_turn_curse(owner_has_had_turn=target.side in b.had_turn)


def _allowance(b: Battle, u: Unit, kind: str) -> int:
    bonus = None
    if kind.endswith("rapid") and "heavy" in u.subtypes:
        bonus = R.rapid_bonus(sorted(u.subtypes), b.dice)["bonus"]
    a = R.move_allowance(move=u.move, kind=kind, subtypes=sorted(u.subtypes), bonus=bonus,
                         flying=u.flying, move_flying=u.move_flying,
                         start_terrain=b.terrain_at(u.x), rules=sorted(u.rules))
    return int(a["inches"]) if a["allowed"] else (0 if kind.endswith("rapid") else
                                                   int(a["inches"]))


def _movement(b: Battle, side: str) -> None:
    arrived = _reserves(b, side)
    for u in sorted((x for x in b.units if x.side == side), key=lambda x: x.id):
        if not u.on_table or u.id in arrived or b.shielded_by_host(u):
            continue
        u.movement = "stationary"
        u.fired = False
        if u.panicked:
            continue
        # A charger "locked" to a vehicle that drove off is free again (R-MOB-19).
        u.locked = {i for i in u.locked if b.unit(i).on_table
                    and dist(u, b.unit(i)) <= T.MELEE_REACH}
        if u.locked:
            _try_escape(b, u)
            continue
        if u.inside is not None:
            _ride_or_leave(b, u)
            continue
        if u.vehicle and b.terrain_at(u.x) != "open":
            stuck = R.vehicle_terrain(b.dice, b.terrain_at(u.x))
            if stuck["roll"] is not None:
                b.note(side=side, unit=u.id, phase="movement", action="vehicle_terrain",
                       rolls=[stuck["roll"]], text=f"{u.name} rolls {stuck['roll']} to "
                       "move off rough ground" + ("" if stuck["moves"] else ": stuck"))
                if stuck["hp_lost"]:
                    u.hp = R.allocate(b.dice, u.hp, stuck["hp_lost"], 1)["hp"]
                    _check_dead(b, u)
                if not stuck["moves"] or not u.on_table:
                    continue
        target = _plan_target(b, u)
        if target is None:
            continue
        start = u.x
        d = dist(u, target)
        if _howls(b, u, target, d):
            continue
        if u.melee_minded() and not (target.flying and not u.flying):
            if _cursed(b, target):  # no charge at a unit that may not be targeted
                u.movement = "standard"
                _move(b, u, target.x, _allowance(b, u, "standard"),
                      stop_short=T.UNIT_GAP + _allowance(b, u, "standard"))
            else:
                _charge_or_close(b, u, target, d)
        else:
            reach = max((w["rng"] for w in u.ranged()), default=0)
            if d <= reach:
                pass
            elif d - _allowance(b, u, "standard") <= reach:
                u.movement = "standard"
                _move(b, u, target.x, d - reach + 0.5, stop_short=T.UNIT_GAP)
            else:
                rapid = _allowance(b, u, "rapid")
                u.movement = "rapid" if rapid else "standard"
                _move(b, u, target.x, rapid or _allowance(b, u, "standard"),
                      stop_short=T.UNIT_GAP)
        if u.move_min and abs(u.x - start) < u.move_min and not u.locked:
            _move(b, u, target.x, u.move_min - abs(u.x - start), stop_short=T.UNIT_GAP)
        if u.x != start:
            if u.movement == "stationary":
                u.movement = "standard"
            _dangerous(b, u, start)
            if u.on_table and b.terrain_at(u.x) != b.terrain_at(start):
                _dangerous(b, u, u.x)
        if u.x != start and not u.charged and u.on_table:
            for p in b.passengers(u):
                p.x = u.x
            b.note(side=side, unit=u.id, phase="movement", action=u.movement + "_move",
                   to=u.x, text=f"{u.name} makes a {u.movement} move of "
                   f"{abs(u.x - start):g}\" ({dist(u, target):g}\" from {target.name})")
    _follow_hosts(b)


def _howls(b: Battle, u: Unit, target: Unit, d: float) -> bool:
    """R-MOB-25: a Cry of the Wolf unit that cannot charge this turn howls once, when an
    enemy is within the howl's 18", and skips the rest of its turn."""
    if "cry_of_the_wolf" not in u.rules or u.howl_used or u.vehicle:
        return False
    reach = max(_allowance(b, u, "standard"), _allowance(b, u, "rapid")) + T.LOCK_RANGE
    if d <= reach or d > T.WAR_HOWL_RANGE:
        return False
    u.howling = u.howl_used = u.skip_turn = True
    b.note(side=u.side, unit=u.id, phase="movement", action="war_howl",
           text=f"{u.name} skips its turn for a War Howl")
    return True


def _reserves(b: Battle, side: str) -> set[int]:
    """Reserves: "the Active Player may declare one Unit from their Reserve to enter the
    battlefield"; "If the Army's Commander is present on the battlefield (and alive), the
    Player may send in up to two additional Units" (R-MOB-36). Answers the units that came
    in (they have made their Standard Move)."""
    waiting = sorted((u for u in b.units if u.side == side and u.reserve and u.in_play),
                     key=lambda u: u.id)
    if not waiting:
        return set()
    cid = b.commander.get(side)
    allowed = R.reserves_allowed(commander_present=cid is not None and b.unit(cid).on_table)
    arrived: set[int] = set()
    for u in waiting:
        if len(arrived) >= allowed:
            break
        if "ambush" in u.rules:
            if b.turns_played[side] < 2:
                continue
            _from_reserve(b, u)
        else:
            _enter(b, u)
        arrived.add(u.id)
    return arrived


def _enter(b: Battle, u: Unit) -> None:
    """"The Player places this Unit anywhere within 12" of their designated table edge ...
    If they're within 6" of an enemy Unit, they must move again, the minimum distance
    required to be at least 6" away"; it "counts as having made a Standard Move and may not
    Charge that Turn" (R-MOB-36: 12" in from its edge, toward the enemy)."""
    edge = b.edge(u.side)
    u.x = edge + (T.RESERVE_EDGE if edge < 0 else -T.RESERVE_EDGE)
    foes = b.enemies(u)
    nearest = min((abs(e.x - u.x) for e in foes), default=float(T.RESERVE_EDGE))
    entry = R.reserve_entry(distance_from_edge=T.RESERVE_EDGE, nearest_enemy=nearest)
    u.x += float(entry["push"]) * (-1.0 if edge < 0 else 1.0)
    u.reserve = False
    u.movement = "standard"
    b.note(side=u.side, unit=u.id, phase="movement", action="from_reserve", to=u.x,
           text=f"{u.name} arrives from Reserve at {u.x:g}\"")


def _from_reserve(b: Battle, u: Unit) -> None:
    """Ambush: "When entering from Reserve ... may deploy anywhere on the battlefield,
    providing it's at least 12" away from any enemy Units. The Unit then ends their
    Movement Phase immediately as if they had made a Standard Move" (R-MOB-34: in its
    army's second turn, 12" from the nearest enemy on its own side of it)."""
    foes = b.enemies(u)
    u.reserve = False
    u.movement = "standard"
    if foes:
        foe = min(foes, key=lambda e: (abs(e.x - b.line(u.side)), e.id))
        step = 1.0 if b.line(u.side) <= foe.x else -1.0
        u.x = foe.x - step * T.RESERVE_EDGE
        while any(abs(e.x - u.x) < T.RESERVE_EDGE for e in foes) and abs(u.x) < 1000:
            u.x -= step
    b.note(side=u.side, unit=u.id, phase="movement", action="ambush", to=u.x,
           text=f"{u.name} springs its ambush at {u.x:g}\"")


def _ride_or_leave(b: Battle, u: Unit) -> None:
    """R-MOB-31: a passenger gets out ("placed within 6" of it and counts as having made a
    Standard Move") once an enemy is within its reach: its longest range, or its
    charge, plus the 6" of getting out; otherwise it rides on."""
    if u.inside is None:
        return
    v = b.unit(u.inside)
    u.x = v.x
    foe = _plan_target(b, u)
    if foe is None:
        return
    reach = (_allowance(b, u, "standard") + T.LOCK_RANGE if u.melee_minded()
             else max((w["rng"] for w in u.ranged()), default=0))
    if dist(u, foe) > reach + T.DISEMBARK:
        return
    u.inside = None
    _move(b, u, foe.x, float(T.DISEMBARK), stop_short=T.UNIT_GAP)
    u.movement = "standard"
    b.note(side=u.side, unit=u.id, phase="movement", action="disembark", target=v.id,
           text=f"{u.name} gets out of {v.name} ({dist(u, foe):g}\" from {foe.name})")


def _charge_or_close(b: Battle, u: Unit, target: Unit, d: float) -> None:
    need = d - T.LOCK_RANGE
    std = _allowance(b, u, "standard")
    rapid = _allowance(b, u, "rapid")
    kind = "standard" if need <= std else "rapid" if rapid and need <= rapid else ""
    if not kind:
        u.movement = "rapid" if rapid else "standard"
        _move(b, u, target.x, rapid or std, stop_short=T.UNIT_GAP)
        return
    start = u.x
    moved = _move(b, u, target.x, need + 0.5, stop_short=T.LOCK_RANGE)
    u.movement = "rapid" if kind == "rapid" or u.movement == "rapid" else "standard"
    if dist(u, target) > T.LOCK_RANGE + 0.5:
        b.note(side=u.side, unit=u.id, phase="movement", action="charge_short",
               text=f"{u.name} charges {target.name} but stops short after {moved:g}\"")
        return
    if u.flying and not target.flying:
        u.flying = False  # "If a Unit in Flight charges a Grounded enemy Unit, they must land"
    b.note(side=u.side, unit=u.id, phase="movement", action="charge", target=target.id,
           text=f"{u.name} charges {target.name} ({abs(u.x - start):g}\", {kind} move)")
    if "overwatch" in target.rules and not target.locked and target.ranged():
        _shoot(b, target, u, overwatch=True)
    if not u.on_table:
        return
    u.charged = True
    if not target.vehicle:
        u.locked.add(target.id)
        target.locked.add(u.id)
    else:
        u.locked.add(target.id)  # "attacked by enemy Models within 1" ... as if" locked


def _try_escape(b: Battle, u: Unit) -> None:
    """R-MOB-19: a unit whose shooting is worth more than its melee tries to escape."""
    if u.melee_minded() or u.vehicle:
        return
    fast = bool({"cavalry", "super_speed"} & u.subtypes)
    roll = R.escape(b.dice, move=u.move, escapist="escapist" in u.rules, fast=fast)
    if roll["escaped"]:
        for other in list(u.locked):
            b.unit(other).locked.discard(u.id)
        u.locked.clear()
        u.movement = "rapid"
        foe = min(b.enemies(u), key=lambda e: (dist(u, e), e.id), default=None)
        if foe is not None:
            _move(b, u, foe.x, float(roll["distance"]), away=True)
    else:
        u.escape_failed = True
    b.note(side=u.side, unit=u.id, phase="movement", action="escape", rolls=roll["rolls"],
           text=f"{u.name} tries to escape the melee ({roll['total']}): "
                + ("escapes" if roll["escaped"] else "stays locked"))


def _cover_for(b: Battle, target: Unit) -> int:
    if target.flying:
        return 0
    return R.cover_level(b.terrain_at(target.x), dug_in=target.dug_in, vehicle=target.vehicle,
                         camouflage=target.camouflage)


def _weapon_ak(u: Unit, w: dict[str, Any], phase_movement: str) -> int:
    if u.vehicle and phase_movement != "rapid":
        # "Vehicles fire all Weapons as if they had remained Stationary": the movement
        # only limits how many (Vehicle Shooting/Movement).
        phase_movement = "stationary"
    rule = R.can_fire(w["type"], phase_movement, heavy_duty="heavy_duty" in u.rules)
    if not rule["fires"]:
        return 0
    return int(w.get("ak2", w["ak"])) if rule["ak"] == "second" else int(w["ak"])


def _hit_mod(b: Battle, u: Unit, target: Unit, w: dict[str, Any], *, overwatch: bool) -> int:
    mod = R.flying_modifier(target_flying=target.flying, firer_flying=u.flying,
                            target_rapid=target.movement == "rapid",
                            anti_air="anti_air" in u.rules or "anti_air" in (
                                w.get("rules") or ()))
    if "unwieldy" in (w.get("rules") or ()):
        mod -= 1
    if "spg" in u.subtypes:
        mod += R.spg_modifier(stationary=u.movement == "stationary")
    mod += R.hatred(rules=sorted(u.rules), target_faction=target.faction)
    mod += int(R.stand_together(rules=sorted(u.rules), rank=u.rank,
                                moved=u.movement != "stationary", fired=u.fired)["hit"])
    if overwatch:
        mod -= 1
    howlers = [dist(u, e) for e in b.enemies(u) if e.howling]
    mod += int(R.war_howl(howlers)["modifier"]) if howlers else 0
    return mod


def _shoot(b: Battle, u: Unit, target: Unit, *, overwatch: bool = False,
           hero: bool = False, only: int | None = None) -> bool:
    """One Ranged Attack of a unit at one target: every model (or a vehicle's allowed
    weapons) with its best weapon in range; R-MOB-19 picks the weapon."""
    d = dist(u, target)
    movement = "standard" if (hero and u.movement == "rapid") else u.movement
    usable = [w for w in u.ranged() if w["rng"] >= d and _weapon_ak(u, w, movement) > 0]
    if not usable or u.rc is None:
        return False
    usable.sort(key=lambda w: (-_expected(u, w, target, movement), w["key"]))
    if u.vehicle:
        limit = R.vehicle_weapons("standard" if hero and movement != "stationary"
                                  else movement)
        volleys = [(w, 1) for w in usable[:limit if limit is not None else len(usable)]]
    elif "giant" in u.subtypes:
        volleys = [(w, u.alive) for w in R.giant_attacks(usable)]
    else:
        volleys = [(usable[0], u.alive)]
    if only is not None:
        volleys = volleys[:only]
    fired = False
    for w, models in volleys:
        if not target.on_table:
            break
        ak = _weapon_ak(u, w, movement)
        bonus = 0
        if "artillery" in u.subtypes and w["type"] in ("artillery", "heavy"):
            # "the whole Unit is dedicated to the Guns": one gun fires, +1 with two crew
            gun = R.artillery_fire(u.alive, moved=movement != "stationary")
            models, bonus = 1, int(gun["modifier"])
        if w.get("blast"):
            # Blast (X): AK times the members within X" of the marked model (R-MOB-30)
            ak = R.blast_pool(ak, R.blast_members(target.alive, int(w["blast"])))
        if b.terrain_at(u.x) == "trench" and not u.flying:
            total = R.trench_attacks(ak * models)
            ak, models = total, 1
        rules = list(w.get("rules") or ())
        shot = R.ranged_attack(
            b.dice, models=models, ak=ak, rc=int(u.rc), st=int(w["st"]), dam=w["dam"],
            target_hp=target.hp, target_def=target.dfc, cover=_cover_for(b, target),
            hit_modifier=_hit_mod(b, u, target, w, overwatch=overwatch) + bonus,
            power=int(w.get("power") or 0), rules=rules,
            steel_skin="steel_skin" in target.rules, shielded=target.shielded,
            target_vehicle=target.vehicle, target_arm=target.arm, target_start_hp=target.hp_start,
            heavy="heavy" in target.subtypes, open_topped="open_topped" in target.subtypes)
        fired = True
        _apply(b, target, shot)
        b.note(side=u.side, unit=u.id, phase="hero" if hero else "overwatch" if overwatch
               else "action", action="fire", target=target.id, weapon=w["key"],
               rolls=shot["hit_rolls"] + shot["cover_rolls"] + shot["saves"],
               pool=shot["pool"], hits=shot["hits"], hp_lost=shot["hp_lost"],
               text=f"{u.name} {'fires overwatch' if overwatch else 'fires'} {w['name']} at "
                    f"{target.name} ({d:g}\"): {shot['hits']} hit(s), "
                    f"{shot['past_cover']} past cover, {shot['hp_lost']} HP lost"
                    + (", destroyed" if not target.on_table else ""))
    if fired and not hero and not overwatch:
        u.fired = True
    return fired


def _expected(u: Unit, w: dict[str, Any], target: Unit, movement: str) -> float:
    ak = _weapon_ak(u, w, movement)
    st = int(w["st"]) + (T.TANKBUSTER_ST if target.vehicle and "tankbuster" in (
        w.get("rules") or ()) else 0)
    if target.vehicle:
        return float(ak * max(0, st - target.arm))
    save = R.save_needed(target.dfc, st, power=int(w.get("power") or 0))
    return ak * avg_dam(w["dam"]) * min(1.0, max(0.0, (save - 1) / 6))


def _apply(b: Battle, target: Unit, hit: dict[str, Any]) -> None:
    target.hp = list(hit["hp"])
    if hit.get("panic") or (target.vehicle and hit["hp_lost"] > 0):
        target.must_panic = True
    _check_dead(b, target)
    if hit.get("explodes"):
        b.note(side=target.side, unit=target.id, action="explodes",
               text=f"{target.name} explodes: units within 6\" must test")
        for other in b.units:
            if other.on_table and dist(other, target) <= T.EXPLODE_RADIUS:
                other.must_panic = True


def _action(b: Battle, side: str) -> None:
    for u in sorted((x for x in b.units if x.side == side), key=lambda x: x.id):
        if not u.on_table or u.panicked or u.skip_turn or u.inside is not None or (
                u.movement == "rapid") or (u.locked and not u.vehicle):
            continue
        targets = sorted((e for e in b.enemies(u) if _targetable(b, u, e)),
                         key=lambda e: (dist(u, e), e.id))
        shot = False
        for t in targets:
            if _shoot(b, u, t):
                shot = True
                break
        if not shot and not u.vehicle:
            cover = R.take_cover(infantry=True, subtypes=sorted(u.subtypes),
                                 rules=sorted(u.rules))
            if cover["allowed"]:
                u.dug_in = True
                b.note(side=side, unit=u.id, phase="action", action="take_cover",
                       text=f"{u.name} takes cover (Dug In)")


def _hero(b: Battle, side: str) -> None:
    for u in sorted((x for x in b.units if x.side == side), key=lambda x: x.id):
        blitz = R.blitz(rules=sorted(u.rules), vehicle=u.vehicle, turn=b.turns_played[side])
        if not u.on_table or u.panicked or u.skip_turn or u.inside is not None or not (
                u.hero or blitz):
            continue
        if u.locked and not u.vehicle:
            _fight_unit(b, u, hero=True)
            continue
        targets = sorted((e for e in b.enemies(u) if _targetable(b, u, e)),
                         key=lambda e: (dist(u, e), e.id))
        if any(_shoot(b, u, t, hero=True, only=1) for t in targets[:1]):
            continue
        foe = _plan_target(b, u)
        if (foe is not None and u.melee_minded() and dist(u, foe) > T.UNIT_GAP
                and u.joined is None):
            push = R.push_it(b.dice)
            moved = _move(b, u, foe.x, float(push["inches"]), stop_short=T.UNIT_GAP)
            b.note(side=side, unit=u.id, phase="hero", action="push_it",
                   rolls=[push["roll"]], text=f"{u.name} pushes it {moved:g}\"")


def _fight_unit(b: Battle, u: Unit, *, hero: bool = False) -> int:
    """One unit's round of melee attacks against the weakest enemy locked with it (R-MOB-19);
    answers the HP it took."""
    foes = [b.unit(i) for i in sorted(u.locked) if b.unit(i).on_table]
    foes = [f for f in foes if dist(u, f) <= T.MELEE_REACH]
    if not foes or u.vehicle or u.alive == 0:
        return 0
    target = min(foes, key=lambda f: (f.hp_left, f.id))
    w = u.best_melee()
    extra = max(0, len(u.melee_weapons()) - 1)
    ak = R.melee_ak(int(w["ak"]), extra_melee_weapons=extra, charged=u.charged,
                    furious_charge="furious_charge" in u.rules)
    ak += R.stand_together(rules=sorted(u.rules), rank=u.rank, moved=True,
                           fired=u.fired)["ak"]
    mod = (1 if u.charged and "furious_charge" in u.rules else 0) + R.hatred(
        rules=sorted(u.rules), target_faction=target.faction)
    models = min(u.alive, T.BUILDING_FIGHT_ATTACKERS) if b.terrain_at(u.x) == "building" \
        else u.alive
    blow = R.melee_attack(
        b.dice, models=models, ak=ak, cqc=u.cqc, target_cqc=target.cqc, st=int(w["st"]),
        dam=w["dam"], target_hp=target.hp, target_def=target.dfc, hit_modifier=mod,
        power=int(w.get("power") or 0), rules=list(w.get("rules") or ()),
        steel_skin="steel_skin" in target.rules, shielded=target.shielded,
        target_vehicle=target.vehicle, target_arm=target.arm, target_start_hp=target.hp_start,
        target_movement=target.movement, giant="giant" in u.subtypes,
        heavy="heavy" in target.subtypes, open_topped="open_topped" in target.subtypes)
    _apply(b, target, blow)
    b.note(side=u.side, unit=u.id, phase="hero" if hero else "melee", action="melee",
           target=target.id, weapon=w["key"], rolls=blow["hit_rolls"] + blow["saves"],
           hits=blow["hits"], hp_lost=blow["hp_lost"],
           text=f"{u.name} attacks {target.name} with {w['name']}: {blow['hits']} hit(s), "
                f"{blow['hp_lost']} HP lost" + (", destroyed" if not target.on_table else ""))
    return int(blow["hp_lost"])


def _melee(b: Battle, active: str) -> None:
    _hero_duels(b, active)
    seen: set[int] = set()
    rotation = b.order[b.order.index(active):] + b.order[:b.order.index(active)]
    for start in sorted((u for u in b.units if u.on_table and u.locked), key=lambda u: u.id):
        if start.id in seen:
            continue
        fight: set[int] = set()
        stack = [start.id]
        while stack:
            i = stack.pop()
            if i in fight:
                continue
            fight.add(i)
            stack += [j for j in b.unit(i).locked if j not in fight]
            stack += [e.id for e in b.units if i in e.locked and e.id not in fight]
        seen |= fight
        members = [b.unit(i) for i in sorted(fight)]
        before = {s: sum(u.hp_left for u in members if u.side == s) for s in rotation}
        queues = {s: [u for u in members if u.side == s] for s in rotation}
        while any(queues.values()):
            for s in rotation:
                if queues[s]:
                    u = queues[s].pop(0)
                    if u.on_table and not u.escape_failed:
                        _fight_unit(b, u)
        lost = {s: before[s] - sum(u.hp_left for u in members if u.side == s and u.on_table)
                for s in rotation if any(u.side == s for u in members)}
        for s in R.melee_losers(lost):
            for u in members:
                if u.side == s and u.on_table:
                    u.must_panic = True
        for u in members:
            if u.on_table and not any(b.unit(i).on_table for i in u.locked):
                u.locked.clear()


def _end(b: Battle, active: str) -> None:
    for u in b.units:
        u.unpanicked_now = False
        if u.side == active and u.panicked and u.on_table:
            u.panicked = False
            u.unpanicked_now = True
    for u in b.units:
        if not u.on_table:
            continue
        terror = [dist(u, e) for e in b.enemies(u) if "terrifying" in e.rules]
        if terror and R.terrifying_penalty(terror)["must_test"]:
            u.must_panic = True
    for side in b.order:
        for u in sorted((x for x in b.units if x.side == side), key=lambda x: x.id):
            if not (u.on_table and u.must_panic):
                continue
            u.must_panic = False
            if b.shielded_by_host(u):  # tested with its unit (R-MOB-38)
                continue
            riders = [i for i in b.units if i.joined == u.id and i.on_table]
            terror = [dist(u, e) for e in b.enemies(u) if "terrifying" in e.rules]
            mod = R.terrifying_penalty(terror, fearless="fearless" in u.rules)["pan_modifier"]
            mod += R.strength_in_numbers(rules=sorted(u.rules), rank=u.rank,
                                         models=u.alive)
            pan = max([u.pan, *(i.pan for i in riders)])  # "the highest PAN"
            test = R.panic_test(b.dice, pan, fearless="fearless" in u.rules, modifier=mod,
                                roll_modifier=1 if u.unpanicked_now else 0,
                                name_of_freedom="in_the_name_of_freedom" in u.rules)
            b.note(side=side, unit=u.id, phase="end", action="panic", rolls=test["rolls"],
                   passed=test["passed"], text=f"{u.name} tests Panic ({test['total']} vs "
                   f"PAN {test['pan']}): " + ("holds" if test["passed"] else "panics"))
            if test["passed"]:
                continue
            _flee(b, u)
            for i in riders:
                for other in list(i.locked):
                    b.unit(other).locked.discard(i.id)
                i.locked.clear()
                i.x, i.panicked, i.routed = u.x, True, u.routed


def _flee(b: Battle, u: Unit) -> None:
    flight = R.panic_flight(b.dice, vehicle=u.vehicle)
    for other in list(u.locked):
        b.unit(other).locked.discard(u.id)
    u.locked.clear()
    u.panicked = True
    if not u.vehicle:
        u.flying = False
    edge = b.edge(u.side)
    moved = _move(b, u, edge, float(flight["inches"]))
    if (edge < 0 and u.x <= edge) or (edge > 0 and u.x >= edge):
        u.routed = True
    b.note(side=u.side, unit=u.id, phase="end", action="flee", rolls=flight["rolls"],
           text=f"{u.name} flees {moved:g}\"" + (" and routs off the table" if u.routed
                                                 else ""))


def _duel(b: Battle, first: Unit, second: Unit, why: str) -> Unit | None:
    """One duel fought to the end (R-MOB-15); answers the winner (None: no winner)."""
    fighters = []
    for u in (first, second):
        w = u.best_melee()
        fighters.append({"name": str(u.id), "hp": u.hp_left, "cqc": u.cqc, "def": u.dfc,
                         "ak": w["ak"], "st": w["st"], "dam": w["dam"],
                         "power": w.get("power") or 0})
    fight = R.duel(b.dice, fighters)
    first.hp, second.hp = [fight["hp"][0]], [fight["hp"][1]]
    winner = (first if fight["winner"] == str(first.id)
              else second if fight["winner"] == str(second.id) else None)
    b.note(action="duel", unit=first.id, target=second.id, rolls=[],
           text=f"{why}: {first.name} against {second.name}, {fight['rounds']} round(s): "
                + (f"{winner.name} wins" if winner else "no winner"))
    for loser in (first, second):
        if winner is not None and loser is not winner:
            loser.hp = [0]
            _check_dead(b, loser)
    return winner


def _compulsory_duels(b: Battle) -> None:
    """Named Characters: "if more than one side has Variants of the same character, all
    those characters are placed aside for a compulsory duel. The winner of the duel (if
    there is one) then joins the battle" (R-MOB-15: in turn order, the winner of each duel
    meets the next; a duel with no winner sends both back to the battle)."""
    groups: dict[str, list[Unit]] = {}
    for u in b.units:
        if u.variant_of and not u.vehicle:
            groups.setdefault(u.variant_of, []).append(u)
    for name in sorted(groups):
        group = sorted(groups[name], key=lambda u: (b.order.index(u.side), u.id))
        if len({u.side for u in group}) < 2:
            continue
        champion = group[0]
        for challenger in group[1:]:
            if challenger.side == champion.side or not champion.on_table:
                continue
            won = _duel(b, champion, challenger,
                        f"Compulsory duel of the {name} variants")
            if won is not None:
                champion = won


def _hero_duels(b: Battle, active: str) -> None:
    """Duels: "When more than one HQ or Hero Unit enters Melee Lock with each other, they
    may choose to move outside of the Melee Lock and fight amongst themselves" (R-MOB-37:
    the active player's single-model HQ or Hero challenges the enemy one locked with it,
    and the challenge is always taken up)."""
    for u in sorted((x for x in b.units if x.side == active), key=lambda x: x.id):
        if not (u.on_table and u.hero and not u.vehicle and len(u.hp) == 1):
            continue
        foes = [b.unit(i) for i in sorted(u.locked)]
        rival = next((e for e in foes if e.on_table and e.hero and not e.vehicle
                      and len(e.hp) == 1), None)
        if rival is None:
            continue
        u.locked.discard(rival.id)
        rival.locked.discard(u.id)
        _duel(b, u, rival, "Duel")


def play(battle_input: dict[str, Any], dice: Dice, *, keep_log: bool = True) -> Battle:
    b = build(battle_input, dice, keep_log)
    if b.mission == "random":
        face = dice.d6()
        b.mission = T.MISSIONS[T.d3(face)]
        b.note(action="mission", rolls=[face], text=f"Mission: {b.mission} (D3 = "
               f"{T.d3(face)})")
    b.points_owner = [None] * len(M.objectives(b))
    _compulsory_duels(b)
    rounds = int(b.options.get("mobius_rounds", T.OPTIONS["mobius_rounds"]))
    b.end_reason = ""
    while b.round < rounds and b.winner is None:
        b.round += 1
        for side in b.order:
            if len(b.standing()) < 2 or b.winner is not None:
                break
            if side not in b.standing():
                continue
            b.turns_played[side] += 1
            _start(b, side)
            if b.winner is not None:
                break
            _movement(b, side)
            _action(b, side)
            _hero(b, side)
            _melee(b, side)
            _end(b, side)
            b.had_turn.add(side)
            M.score_end_of_turn(b, side)
        if len(b.standing()) < 2:
            break
    if b.mission == "last_standing" and len(b.standing()) > 1 and b.winner is None:
        b.mission = "struggle_for_survival"
    if not b.end_reason and b.round >= rounds and len(b.standing()) > 1:
        b.end_reason = "rounds"
    M.decide(b)
    return b
