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
from battles.rulesets.mobius import plans as PL
from battles.rulesets.mobius import rules as R
from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.allocation import ALLOCATIONS, safest_host
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
           "objectives"]

casualty_rates = M.casualty_rates
objectives = M.objectives


def roster(battle_input: dict[str, Any]) -> list[Unit]:
    """Every side's units as the battle input lists them, before deployment (a battle's
    own: `build` plays on them)."""
    units = []
    for side, listed in battle_input["sides"].items():
        for u in listed:
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
    return units


def build(battle_input: dict[str, Any], dice: Dice, keep_log: bool = True,
          listed: list[Unit] | None = None) -> Battle:
    """The battle laid out and ready for its opening; `listed`: its `roster`, read once
    for many battles of the same input (the odds), each battle playing on fresh copies."""
    order = [str(s) for s in battle_input.get("order") or battle_input["sides"]]
    units = roster(battle_input) if listed is None else [u.fresh() for u in listed]
    b = Battle(order=order, defender=battle_input.get("defender"), units=units,
               terrain=list(battle_input["terrain"]), gap=float(battle_input["gap"]),
               mission=str(battle_input.get("mission") or "struggle_for_survival"),
               options=dict(battle_input.get("options") or {}), dice=dice,
               limits={str(k): int(v) for k, v in (battle_input.get("limits") or {}).items()},
               keep_log=keep_log)
    b.plans = PL.read(battle_input)
    b.fearsome = any("terrifying" in u.rules for u in units)
    b.strength = {side: PL.strength(units, side) for side in order}
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
    single-model infantry HQ joins the unit its owner keeps it safest in, one HQ to a unit:
    `allocation.safest_host`)."""
    taken: set[int] = set()
    for u in sorted(b.units, key=lambda x: x.id):
        if u.rank != "hq" or u.vehicle or len(u.hp) != 1 or u.reserve or u.inside is not None:
            continue
        host = safest_host(u, [h for h in b.units if not h.vehicle and not h.reserve
                               and h.inside is None and h.id not in taken])
        if host is None:
            continue
        taken.add(host.id)
        join(b, u, host)


def join(b: Battle, u: Unit, host: Unit) -> None:
    """Independents "can join friendly Units by entering Unit Cohesion (i.e. moving within
    1" of a member)": it stands, moves and is locked with its unit from now on."""
    u.joined, u.x = host.id, host.x
    u.locked = set(host.locked)
    if b.keep_log:
        b.note(side=u.side, unit=u.id, target=host.id, action="joins",
               text=f"{u.name} joins {host.name}")


def leave(b: Battle, u: Unit) -> None:
    """An Independent "can leave by simply moving away from it"."""
    host = b.unit(int(u.joined or 0))
    u.joined = None
    u.movement = "stationary"
    if b.keep_log:
        b.note(side=u.side, unit=u.id, target=host.id, action="leaves",
               text=f"{u.name} leaves {host.name}")


def _follow_hosts(b: Battle) -> None:
    """A joined Independent moves, charges and is locked with its unit; it leaves when
    the unit is gone (R-MOB-38)."""
    for u in b.units:
        if u.joined is None or not u.on_table:
            continue
        host = b.unit(u.joined)
        if not host.on_table:
            u.joined = None
            if b.keep_log:
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
            if b.keep_log:
                b.note(side=u.side, unit=u.id, action="reserve",
                       text=f"{u.name} waits in Reserve to ambush")
            continue
        if "vanguard" not in u.rules:
            continue
        foes = [e for e in b.units if e.side != u.side]
        if not foes:
            continue
        foe = min(foes, key=lambda e: (abs(e.x - u.x), e.id))
        gap = abs(foe.x - u.x)
        if gap > T.VANGUARD_GAP:
            u.x += (gap - T.VANGUARD_GAP) * (1.0 if foe.x > u.x else -1.0)
            if b.keep_log:
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
                if b.keep_log:
                    b.note(side=r.side, unit=r.id, target=v.id, action="embarked",
                           text=f"{r.name} begins inside {v.name}")


# --- helpers ------------------------------------------------------------------------------
def pick_for(u: Unit) -> R.Pick:
    """Which model takes each failed save's damage: the owner's standing choice (the layer's
    `allocate`), else the default policy's (`policy.ALLOCATIONS`)."""
    return ALLOCATIONS[u.allocation]


def targetable(b: Battle, shooter: Unit, target: Unit) -> bool:
    """The First Turn Curse; "Units may not target enemies in Melee Lock"; Combat in the
    Air: a flyer "may only be targeted for Ranged Commands and Attacks" (R-MOB-3)."""
    if target.destroyed or target.routed or target.reserve:  # not on the table
        return False
    if target.side not in b.had_turn:  # `R.first_turn_curse`
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
    start = x = u.x
    left = budget
    ignore = u.flying or "hover" in u.subtypes or "teleport" in u.rules
    sure_footed = bool({"all_terrain", "climb"} & u.rules)
    cap = budget
    # `b.terrain_at` step by step, read here (the open ground is neither closed nor
    # difficult to anyone)
    strips, last, gap = b.terrain, len(b.terrain) - 1, b.gap
    nxt = b.terrain_at(x)
    far, near = gap + EDGE_BEHIND, -EDGE_BEHIND
    while left >= 1 and (away or abs(goal - x) > stop_short + 0.5):
        here = nxt  # where the last step ended
        ahead = x + step
        nxt = "open" if ahead < 0 or ahead > gap else strips[min(last, int(ahead // STRIP))]
        if not ignore and nxt != "open":
            if not R.can_enter(nxt, vehicle=u.vehicle):
                break
            if T.TERRAIN[nxt].difficult and not sure_footed:
                cap = min(cap, float(u.move))
                if abs(ahead - start) > cap:
                    break
        x = ahead
        left -= 1
        if not ignore and (here == "trench") != (nxt == "trench"):
            u.movement = "rapid"
            break
        if (x <= near or x >= far) and away:
            break
    u.x = x
    return abs(x - start)


def _dangerous(b: Battle, u: Unit, where: float) -> None:
    if b.terrain_at(where) != "dangerous" or u.vehicle or u.flying or "hover" in u.subtypes:
        return
    hurt = R.dangerous_terrain(b.dice, u.alive, immune="climb" in u.rules)
    if hurt["damage"]:
        u.hp = R.allocate(b.dice, u.hp, hurt["damage"], 1, pick_for(u))["hp"]
        _check_dead(b, u)
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="movement", action="dangerous",
               rolls=hurt["rolls"], text=f"{u.name} crosses dangerous terrain: "
               f"{hurt['damage']} HP lost")


def _check_dead(b: Battle, u: Unit) -> None:
    if u.alive > 0 or u.destroyed:
        return
    if "immortal" in u.rules and not u.immortal_used:
        u.immortal_used = True
        rise = R.immortal_rise(b.dice, u.hp_start)
        if b.keep_log:
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
            if b.keep_log:
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
        if b.keep_log:
            b.note(side=p.side, unit=p.id, action="bail_out", target=v.id,
                   text=f"{p.name} " + ("is trapped in the burning wreck of " if trapped
                                        else "bails out of the wreck of ") + v.name)


# --- phases -------------------------------------------------------------------------------
def _start(b: Battle, side: str) -> None:
    for u in b.units:
        if u.side != side or u.destroyed or u.routed or u.reserve:  # not on the table
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
            if b.keep_log:
                b.note(side=side, unit=u.id, phase="start", action="immortal",
                       rolls=[rec["roll"]], text=f"{u.name} recovers to {rec['hp']} HP")
    cid = b.commander.get(side)
    if cid is not None and not b.unit(cid).on_table:
        others = [u for u in b.units if u.side == side and u.on_table and u.rank == "hq"]
        if others:
            roll = R.second_in_command(b.dice)
            if roll["new_commander"]:
                b.commander[side] = others[0].id
            if b.keep_log:
                b.note(side=side, phase="start", action="second_in_command",
                       rolls=[roll["roll"]],
                       text=f"Side {side} rolls {roll['roll']} for a second in command"
                            + (f": {others[0].name} takes over" if roll["new_commander"] else ""))
    M.score_start(b, side)


def plan_target(b: Battle, u: Unit) -> Unit | None:
    """The nearest enemy on the table (moving toward a unit is not targeting it)."""
    return nearest(u, b.enemies(u))


def nearest(u: Unit, foes: list[Unit]) -> Unit | None:
    """The first of `foes` in (distance from `u`, id) order (None: no foes)."""
    best: Unit | None = None
    best_d = 0.0
    x = u.x
    for e in foes:
        d = abs(e.x - x)
        if best is None or d < best_d or (d == best_d and e.id < best.id):
            best, best_d = e, d
    return best


def _cursed(b: Battle, target: Unit) -> bool:
    """The First Turn Curse: the target's player has not had a turn yet."""
    return not R.first_turn_curse(owner_has_had_turn=target.side in b.had_turn)


def allowance(b: Battle, u: Unit, kind: str) -> int:
    rapid = kind.endswith("rapid")
    if rapid and "heavy" in u.subtypes:
        bonus = R.rapid_bonus(u.subtypes_list, b.dice)["bonus"]
        a = R.move_allowance(move=u.move, kind=kind, subtypes=u.subtypes_list, bonus=bonus,
                             flying=u.flying, move_flying=u.move_flying,
                             start_terrain=b.terrain_at(u.x), rules=u.rules_list)
        return int(a["inches"]) if a["allowed"] else 0
    # no die: a pure function of the unit, the move, its flight and the ground it starts on
    key = (kind, u.flying, b.terrain_at(u.x))
    found = u.allowances.get(key)
    if found is None:
        a = R.move_allowance(move=u.move, kind=kind, subtypes=u.subtypes_list, bonus=None,
                             flying=u.flying, move_flying=u.move_flying,
                             start_terrain=key[2], rules=u.rules_list)
        found = u.allowances[key] = int(a["inches"]) if a["allowed"] else (
            0 if rapid else int(a["inches"]))
    return found


def begin_movement(b: Battle, side: str) -> None:
    """The Movement Phase opens: the side's units on the table (not those riding with a
    host) have not moved or fired yet, and a charger "locked" to a vehicle that drove off
    is free again (R-MOB-19). Reserves: "the Active Player may declare one Unit from their
    Reserve to enter the battlefield"; "If the Army's Commander is present on the
    battlefield (and alive), the Player may send in up to two additional Units" (R-MOB-36:
    counted as the phase opens)."""
    cid = b.commander.get(side)
    b.reserve_room[side] = R.reserves_allowed(
        commander_present=cid is not None and b.unit(cid).on_table)
    for u in b.units:  # (each unit on its own: no order needed)
        if u.side != side or not u.on_table or (u.joined is not None
                                                and b.shielded_by_host(u)):
            continue
        u.movement = "stationary"
        u.fired = False
        if u.panicked or not u.locked:
            continue
        u.locked = {i for i in u.locked if b.unit(i).on_table
                    and dist(u, b.unit(i)) <= T.MELEE_REACH}


def end_movement(b: Battle) -> None:
    _follow_hosts(b)


def rough_ground(b: Battle, u: Unit) -> bool:
    """Vehicles: "When a Vehicle begins its Move in any kind of Difficult Dangerous
    Terrain, their controlling Player rolls a D6. If a 1 is rolled, the Vehicle does not
    move. If this happens in Dangerous Terrain, the Vehicle also loses 1 HP". Answers
    whether the vehicle may go on."""
    if not u.vehicle or b.terrain_at(u.x) == "open":
        return True
    stuck = R.vehicle_terrain(b.dice, b.terrain_at(u.x))
    if stuck["roll"] is None:
        return True
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="movement", action="vehicle_terrain",
               rolls=[stuck["roll"]], text=f"{u.name} rolls {stuck['roll']} to "
               "move off rough ground" + ("" if stuck["moves"] else ": stuck"))
    if stuck["hp_lost"]:
        u.hp = R.allocate(b.dice, u.hp, stuck["hp_lost"], 1, pick_for(u))["hp"]
        _check_dead(b, u)
    return bool(stuck["moves"]) and u.on_table


def move_unit(b: Battle, u: Unit, act: dict[str, Any]) -> None:
    """One unit's Movement Phase, as its owner chose it (the layer has refereed `act`):
    `stay`, `move` (a Standard or Rapid Move toward a unit or a point), `charge`,
    `howl`; then the compulsory minimum move, dangerous ground and the record."""
    do = act["do"]
    if u.inside is not None:  # a passenger rides on where its transport is
        u.x = b.unit(u.inside).x
        return
    if u.panicked or u.locked:
        return
    if not rough_ground(b, u):
        return
    target = plan_target(b, u)
    if target is None and do == "stay":
        return
    start = u.x
    if do == "howl":
        u.howling = u.howl_used = u.skip_turn = True
        b.howled = True
        if b.keep_log:
            b.note(side=u.side, unit=u.id, phase="movement", action="war_howl",
                   text=f"{u.name} skips its turn for a War Howl")
        return
    if do == "move":
        kind = str(act["kind"])
        inches = act.get("inches")
        budget = float(allowance(b, u, kind) if inches is None else inches)
        if kind == "rapid" and budget == 0:
            kind, budget = "standard", float(allowance(b, u, "standard"))
        u.movement = kind
        toward = act.get("toward")
        if toward is not None:
            _move(b, u, b.unit(int(toward)).x, budget,
                  stop_short=float(act.get("keep", T.UNIT_GAP)))
        else:
            _move(b, u, float(act["to"]), budget)
    elif do == "charge":
        charge(b, u, b.unit(int(act["target"])), str(act["kind"]))
    if do == "move" and _beyond_edge(b, u):
        rout(b, u, start)
        return
    if target is not None and u.move_min and abs(u.x - start) < u.move_min and not u.locked:
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
        if b.keep_log:
            where = (f" ({dist(u, target):g}\" from {target.name})" if target is not None
                     else "")
            b.note(side=u.side, unit=u.id, phase="movement", action=u.movement + "_move",
                   to=u.x, text=f"{u.name} makes a {u.movement} move of "
                   f"{abs(u.x - start):g}\"{where}")


def _beyond_edge(b: Battle, u: Unit) -> bool:
    edge = b.edge(u.side)
    return u.x <= edge if edge < 0 else u.x >= edge


def rout(b: Battle, u: Unit, start: float) -> None:
    """Routing: "If a Unit moves off the battlefield (i.e. too far towards a table edge),
    they Rout from the battle"; its passengers and a joined Independent go with it. A unit
    of a side its plan withdraws has withdrawn (R-MOB-40)."""
    leaving = b.side_withdrawing(u.side)
    for m in [u, *b.passengers(u), *(i for i in b.units if i.joined == u.id and i.on_table)]:
        for other in list(m.locked):
            b.unit(other).locked.discard(m.id)
        m.locked.clear()
        m.x, m.routed, m.withdrew = u.x, True, leaving
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="movement", action="rout", to=u.x,
               text=f"{u.name} moves {abs(u.x - start):g}\" off the table and "
               + ("withdraws from the battle" if leaving else "routs"))


def bring_in(b: Battle, u: Unit) -> None:
    """One unit enters from Reserve (an Ambush unit anywhere 12" from the enemy, R-MOB-34;
    any other from its table edge, R-MOB-36); it has made its Standard Move."""
    b.reserve_room[u.side] = b.reserve_room.get(u.side, 0) - 1
    if "ambush" in u.rules:
        _from_reserve(b, u)
    else:
        _enter(b, u)


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
    if b.keep_log:
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
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="movement", action="ambush", to=u.x,
               text=f"{u.name} springs its ambush at {u.x:g}\"")


def disembark(b: Battle, u: Unit, toward: Unit | None) -> None:
    """Transport: "To get out of a Vehicle, the Unit is placed within 6" of it and counts
    as having made a Standard Move" (R-MOB-31: 6" toward `toward`, keeping 2" from it)."""
    if u.inside is None:
        return
    v = b.unit(u.inside)
    u.x = v.x
    u.inside = None
    if toward is not None:
        _move(b, u, toward.x, float(T.DISEMBARK), stop_short=T.UNIT_GAP)
    u.movement = "standard"
    if b.keep_log:
        where = f" ({dist(u, toward):g}\" from {toward.name})" if toward is not None else ""
        b.note(side=u.side, unit=u.id, phase="movement", action="disembark", target=v.id,
               text=f"{u.name} gets out of {v.name}{where}")


def embark(b: Battle, u: Unit, v: Unit) -> None:
    """Transport: "if a Unit comes within 1" of a Friendly Transport Vehicle (with enough
    space to hold all members), they may Embark, ending their Move as if it were Rapid"."""
    u.x, u.inside, u.movement = v.x, v.id, "rapid"
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="movement", action="embark", target=v.id,
               text=f"{u.name} gets into {v.name}")


def charge(b: Battle, u: Unit, target: Unit, kind: str) -> None:
    """A Charge: "either a Standard or Rapid Move, except made towards an enemy Unit. If the
    moving Unit comes within 1" of an enemy, both Units are placed in Melee Lock"."""
    need = dist(u, target) - T.LOCK_RANGE
    start = u.x
    moved = _move(b, u, target.x, need + 0.5, stop_short=T.LOCK_RANGE)
    u.movement = "rapid" if kind == "rapid" or u.movement == "rapid" else "standard"
    if dist(u, target) > T.LOCK_RANGE + 0.5:
        if b.keep_log:
            b.note(side=u.side, unit=u.id, phase="movement", action="charge_short",
                   text=f"{u.name} charges {target.name} but stops short after {moved:g}\"")
        return
    u.blip = target.blip = False  # a Blip is revealed when it "declares a Charge or is Charged"
    if u.flying and not target.flying:
        u.flying = False  # "If a Unit in Flight charges a Grounded enemy Unit, they must land"
    if b.keep_log:
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


def escape(b: Battle, u: Unit) -> None:
    """Attempting to Escape: "roll 2D6 and add the Unit's Move Value. If the number rolled
    is 10 or higher, they may escape and move the number rolled, counting it as a Rapid
    Move. If they fail, the Unit remains in Melee Lock and may not attack"."""
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
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="movement", action="escape", rolls=roll["rolls"],
               text=f"{u.name} tries to escape the melee ({roll['total']}): "
                    + ("escapes" if roll["escaped"] else "stays locked"))


#: `R.cover_level` by (terrain, dug in, vehicle, camouflage): a pure function of the four.
_COVER: dict[tuple[str, bool, bool, int], int] = {}


def _cover_for(b: Battle, target: Unit) -> int:
    if target.flying:
        return 0
    key = (b.terrain_at(target.x), target.dug_in, target.vehicle, target.camouflage)
    level = _COVER.get(key)
    if level is None:
        level = _COVER[key] = R.cover_level(key[0], dug_in=key[1], vehicle=key[2],
                                            camouflage=key[3])
    return level


#: `R.can_fire`'s answer (which AK stat fires, None: it cannot) by weapon type, movement
#: and Heavy Duty: a pure function of the three, asked for every weapon at every look.
_FIRES: dict[tuple[str, str, bool], str | None] = {}


def _weapon_ak(u: Unit, w: dict[str, Any], phase_movement: str) -> int:
    if u.vehicle and phase_movement != "rapid":
        # "Vehicles fire all Weapons as if they had remained Stationary": the movement
        # only limits how many (Vehicle Shooting/Movement).
        phase_movement = "stationary"
    key = (str(w["type"]), phase_movement, "heavy_duty" in u.rules)
    if key in _FIRES:
        stat = _FIRES[key]
    else:
        rule = R.can_fire(key[0], key[1], heavy_duty=key[2])
        stat = _FIRES[key] = str(rule["ak"]) if rule["fires"] else None
    if stat is None:
        return 0
    return int(w.get("ak2", w["ak"])) if stat == "second" else int(w["ak"])


def _hit_mod(b: Battle, u: Unit, target: Unit, w: dict[str, Any], *, overwatch: bool) -> int:
    w_rules = w.get("rules") or ()
    mod = R.flying_modifier(target_flying=target.flying, firer_flying=u.flying,
                            target_rapid=target.movement == "rapid",
                            anti_air="anti_air" in u.rules or "anti_air" in w_rules
                            ) if target.flying else 0
    if "unwieldy" in w_rules:
        mod -= 1
    if "spg" in u.subtypes:
        mod += R.spg_modifier(stationary=u.movement == "stationary")
    if "hatred_echidnas" in u.rules:  # (without the rule, no modifier: no need to ask)
        mod += R.hatred(rules=u.rules_list, target_faction=target.faction)
    if "stand_together" in u.rules:
        mod += int(R.stand_together(rules=u.rules_list, rank=u.rank,
                                    moved=u.movement != "stationary", fired=u.fired)["hit"])
    if overwatch:
        mod -= 1
    howlers = ([dist(u, e) for e in b.enemies(u) if e.howling]
               if b.howled and any(e.howling for e in b.units) else [])
    mod += int(R.war_howl(howlers)["modifier"]) if howlers else 0
    return mod


def firing_movement(u: Unit, hero: bool) -> str:
    """The movement a unit fires after ("Heroes and HQ Units may still play their Hero
    Phase" after a Rapid Move: as after a Standard one)."""
    return "standard" if (hero and u.movement == "rapid") else u.movement


def _firing(u: Unit, movement: str) -> list[dict[str, Any]]:
    """The unit's ranged weapons that may fire after `movement` (whatever the range: a pure
    function of the unit and the movement, kept on the unit for the battle)."""
    found = u.firing.get(movement)
    if found is None:
        found = u.firing[movement] = [w for w in u.ranged() if _weapon_ak(u, w, movement) > 0]
    return found


def firing_reach(u: Unit, movement: str) -> float:
    """The longest range among the weapons the unit may fire after `movement` (-1: none)."""
    found = u.firing_reach.get(movement)
    if found is None:
        found = u.firing_reach[movement] = max((w["rng"] for w in _firing(u, movement)),
                                               default=-1)
    return found


def usable_weapons(u: Unit, target: Unit, hero: bool = False, *, ranked: bool = True
                   ) -> list[dict[str, Any]]:
    """The unit's ranged weapons that reach `target` and may fire after its movement, the
    best expected damage first (R-MOB-19) when `ranked`."""
    d = dist(u, target)
    movement = firing_movement(u, hero)
    if not ranked:
        return [w for w in _firing(u, movement) if w["rng"] >= d]
    # The ranking of every weapon that may fire at this target is a pure function of the
    # two units and the movement: sorted once, then cut to the weapons in range (a stable
    # sort, so the order is the one sorting the weapons in range would give).
    key = (movement, target.id)
    best = u.ranked.get(key)
    if best is None:
        best = u.ranked[key] = sorted(
            _firing(u, movement), key=lambda w: (-_expected(u, w, target, movement), w["key"]))
    return [w for w in best if w["rng"] >= d]


def weapon_limit(u: Unit, hero: bool) -> int | None:
    """How many weapons a vehicle fires after its movement (None: all)."""
    movement = firing_movement(u, hero)
    return R.vehicle_weapons("standard" if hero and movement != "stationary" else movement)


def _chosen_volleys(u: Unit, usable: list[dict[str, Any]], chosen: list[str]
                    ) -> list[tuple[dict[str, Any], int]]:
    """The weapons the owner chose, those that can reach and fire: a vehicle's or a
    Giant's each once (a Giant's with every model); one for each model of other units,
    where the models whose weapon is out of range miss ("If the distance is higher than
    the Weapon's Range (RNG) value, all that Models' shots instantly miss")."""
    fits = {w["key"]: w for w in usable}
    if u.vehicle or "giant" in u.subtypes:
        return [(fits[k], 1 if u.vehicle else u.alive) for k in chosen if k in fits]
    per_model = chosen * u.alive if len(chosen) == 1 else chosen[:u.alive]
    counts: dict[str, int] = {}
    for k in per_model:
        if k in fits:
            counts[k] = counts.get(k, 0) + 1
    return [(fits[k], n) for k, n in counts.items()]


def _shoot(b: Battle, u: Unit, target: Unit, *, overwatch: bool = False,
           hero: bool = False, only: int | None = None,
           chosen: list[str] | None = None) -> bool:
    """One Ranged Attack of a unit at one target: every model (or a vehicle's allowed
    weapons) with the weapon its owner chose (`chosen`), or else its best weapon in range
    (R-MOB-19 picks the weapon)."""
    d = dist(u, target)
    movement = firing_movement(u, hero)
    usable = usable_weapons(u, target, hero, ranked=chosen is None)
    if not usable or u.rc is None:
        return False
    if chosen is not None:
        volleys = _chosen_volleys(u, usable, chosen)
    elif u.vehicle:
        limit = weapon_limit(u, hero)
        volleys = [(w, 1) for w in usable[:limit if limit is not None else len(usable)]]
    elif "giant" in u.subtypes:
        volleys = [(w, u.alive) for w in R.giant_attacks(usable)]
    else:
        volleys = [(usable[0], u.alive)]
    if only is not None:
        volleys = volleys[:only]
    fired = False
    # the same for every volley (no volley moves the firer or changes the target's cover)
    in_trench = b.terrain_at(u.x) == "trench" and not u.flying
    cover = _cover_for(b, target)
    pick = pick_for(target)
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
        if in_trench:
            total = R.trench_attacks(ak * models)
            ak, models = total, 1
        rules = list(w.get("rules") or ())
        shot = R.ranged_attack(
            b.dice, models=models, ak=ak, rc=int(u.rc), st=int(w["st"]), dam=w["dam"],
            target_hp=target.hp, target_def=target.dfc, cover=cover,
            hit_modifier=_hit_mod(b, u, target, w, overwatch=overwatch) + bonus,
            power=int(w.get("power") or 0), rules=rules, pick=pick,
            steel_skin="steel_skin" in target.rules, shielded=target.shielded,
            target_vehicle=target.vehicle, target_arm=target.arm,
            target_start_hp=target.hp_start, heavy="heavy" in target.subtypes,
            open_topped="open_topped" in target.subtypes)
        fired = True
        target.blip = False  # "A Blip is revealed when it ... is targeted for any Ranged Attacks"
        _apply(b, target, shot)
        if b.keep_log:
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
        if b.keep_log:
            b.note(side=target.side, unit=target.id, action="explodes",
                   text=f"{target.name} explodes: units within 6\" must test")
        for other in b.units:
            if other.on_table and dist(other, target) <= T.EXPLODE_RADIUS:
                other.must_panic = True


def take_cover(b: Battle, u: Unit, phase: str = "action") -> None:
    """Taking Cover: "If a Unit spends their Action Phase or Hero Phase doing so, they
    become 'Dug In'"."""
    u.dug_in = True
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase=phase, action="take_cover",
               text=f"{u.name} takes cover (Dug In)")


def fire(b: Battle, u: Unit, target: Unit, weapons: list[str], *, hero: bool = False) -> None:
    """A Ranged Attack the owner chose (refereed by the layer): in the Hero Phase "any one
    of their Ranged Weapons"."""
    _shoot(b, u, target, hero=hero, only=1 if hero else None, chosen=weapons)


def reveal_blip(b: Battle, u: Unit, target: Unit) -> None:
    """Reveal Blip: "The Blip targets another Blip within 36" and Line of Sight and reveals
    it without revealing itself"."""
    target.blip = False
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="action", action="reveal_blip", target=target.id,
               text=f"{u.name} reveals the blip of {target.name}")


def push_it(b: Battle, u: Unit, toward: Unit) -> None:
    """Push It: "The Hero/HQ moves 1D6" in any direction, abiding by their Terrain rules.
    They may not use this to Charge" (it keeps 2" from the enemy)."""
    push = R.push_it(b.dice)
    moved = _move(b, u, toward.x, float(push["inches"]), stop_short=T.UNIT_GAP)
    if b.keep_log:
        b.note(side=u.side, unit=u.id, phase="hero", action="push_it",
               rolls=[push["roll"]], text=f"{u.name} pushes it {moved:g}\"")


def hero_fight(b: Battle, u: Unit) -> None:
    """Hero Phase Melee: "If the HQ or Hero is in a Melee Lock, they may use their Hero
    Phase to make a round of Melee Attacks"."""
    _fight_unit(b, u, hero=True)


def _fight_unit(b: Battle, u: Unit, *, hero: bool = False) -> int:
    """One unit's round of melee attacks against the weakest enemy locked with it (R-MOB-19);
    answers the HP it took."""
    if u.vehicle or u.alive == 0:
        return 0
    # the first enemy locked with it, on the table and within reach, in (HP left, id) order
    target: Unit | None = None
    least = 0
    for i in u.locked:
        f = b.unit(i)
        if not f.on_table or abs(u.x - f.x) > T.MELEE_REACH:
            continue
        left = f.hp_left
        if target is None or left < least or (left == least and f.id < target.id):
            target, least = f, left
    if target is None:
        return 0
    w = u.best_melee()
    extra = max(0, len(u.melee_weapons()) - 1)
    ak = R.melee_ak(int(w["ak"]), extra_melee_weapons=extra, charged=u.charged,
                    furious_charge="furious_charge" in u.rules)
    if "stand_together" in u.rules:  # (without the rule, no bonus: no need to ask)
        ak += R.stand_together(rules=u.rules_list, rank=u.rank, moved=True,
                               fired=u.fired)["ak"]
    mod = 1 if u.charged and "furious_charge" in u.rules else 0
    if "hatred_echidnas" in u.rules:
        mod += R.hatred(rules=u.rules_list, target_faction=target.faction)
    models = min(u.alive, T.BUILDING_FIGHT_ATTACKERS) if b.terrain_at(u.x) == "building" \
        else u.alive
    blow = R.melee_attack(
        b.dice, models=models, ak=ak, cqc=u.cqc, target_cqc=target.cqc, st=int(w["st"]),
        dam=w["dam"], target_hp=target.hp, target_def=target.dfc, hit_modifier=mod,
        power=int(w.get("power") or 0), rules=list(w.get("rules") or ()),
        pick=pick_for(target), steel_skin="steel_skin" in target.rules,
        shielded=target.shielded,
        target_vehicle=target.vehicle, target_arm=target.arm, target_start_hp=target.hp_start,
        target_movement=target.movement, giant="giant" in u.subtypes,
        heavy="heavy" in target.subtypes, open_topped="open_topped" in target.subtypes)
    _apply(b, target, blow)
    if b.keep_log:
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
    for start in sorted((u for u in b.units if u.locked and u.on_table), key=lambda u: u.id):
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


def _terror(b: Battle, u: Unit, fearsome: bool) -> list[float]:
    """How far each Terrifying enemy on the table is (none at all: no need to look)."""
    return [dist(u, e) for e in b.enemies(u) if "terrifying" in e.rules] if fearsome else []


def _end(b: Battle, active: str) -> None:
    fearsome = b.fearsome
    for u in b.units:
        u.unpanicked_now = False
        if u.side == active and u.panicked and u.on_table:
            u.panicked = False
            u.unpanicked_now = True
    if fearsome:  # no Terrifying unit in the battle: nobody is made to test by one
        for u in b.units:
            if not u.on_table:
                continue
            terror = _terror(b, u, fearsome)
            if terror and R.terrifying_penalty(terror)["must_test"]:
                u.must_panic = True
    for side in b.order:
        # only a unit told to test may test (no test sets another's `must_panic`)
        for u in sorted((x for x in b.units if x.side == side and x.must_panic),
                        key=lambda x: x.id):
            if not (u.on_table and u.must_panic):
                continue
            u.must_panic = False
            if b.shielded_by_host(u):  # tested with its unit (R-MOB-38)
                continue
            riders = [i for i in b.units if i.joined == u.id and i.on_table]
            terror = _terror(b, u, fearsome)
            mod = R.terrifying_penalty(terror, fearless="fearless" in u.rules)["pan_modifier"]
            mod += R.strength_in_numbers(rules=u.rules_list, rank=u.rank,
                                         models=u.alive)
            pan = max([u.pan, *(i.pan for i in riders)])  # "the highest PAN"
            test = R.panic_test(b.dice, pan, fearless="fearless" in u.rules, modifier=mod,
                                roll_modifier=1 if u.unpanicked_now else 0,
                                name_of_freedom="in_the_name_of_freedom" in u.rules)
            if b.keep_log:
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
    if b.keep_log:
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
    if b.keep_log:
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
    # (a duel only ever unlocks: a unit not locked as the phase opens has no rival)
    for u in sorted((x for x in b.units if x.side == active and x.locked), key=lambda x: x.id):
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


def opening(b: Battle) -> None:
    """Before the first turn: a random mission's D3 and the compulsory duels."""
    if b.mission == "random":
        face = b.dice.d6()
        b.mission = T.MISSIONS[T.d3(face)]
        if b.keep_log:
            b.note(action="mission", rolls=[face], text=f"Mission: {b.mission} (D3 = "
                   f"{T.d3(face)})")
    b.points_owner = [None] * len(M.objectives(b))
    _compulsory_duels(b)
    b.end_reason = ""


def start_turn(b: Battle, side: str) -> None:
    b.turns_played[side] += 1
    _start(b, side)


def end_turn(b: Battle, side: str) -> None:
    """The Melee Phase and the End Phase of the active side's turn, then its score."""
    _melee(b, side)
    _end(b, side)
    b.had_turn.add(side)
    M.score_end_of_turn(b, side)


def conclude(b: Battle, rounds: int) -> None:
    """The battle is over: the mission decides."""
    if b.mission == "last_standing" and len(b.standing()) > 1 and b.winner is None:
        b.mission = "struggle_for_survival"
    if not b.end_reason and b.round >= rounds and len(b.standing()) > 1:
        b.end_reason = "rounds"
    M.decide(b)
