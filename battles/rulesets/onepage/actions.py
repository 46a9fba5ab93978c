"""The one-page rules as refereed choices (issue 28): the `ActionLayer` of seed 001.

A turn opens with the initiative roll (no choice: the layer rolls it). The side holding the
initiative `activate`s one of its units not yet activated this turn (its Activation roll);
the unit then takes its Actions one at a time (`move`, `fire`, `aim`, `assault`, `embark`,
`disembark`) or gives up the rest (`done`). After a failed Activation the initiative passes
to the next side; when every unit has tried, the next turn begins. `apply` checks everything
before it changes anything, so a refusal (`ActionRefused`) leaves the battle as it was.
The default policy (`policy.py`) chooses through `legal`/`apply`. Verbs and `set` keys:
docs/rulings/onepage.md (R-OP-16).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.rulesets.base import ActionRefused, Json, Plan, plans_of
from battles.rulesets.onepage import engine as E
from battles.rulesets.onepage import rules as R
from battles.rulesets.onepage import tables as T
from campaign.rules.dice import Dice

INITIATIVE = ("If the Activation is successful, the player may continue to Activate his "
              "Units until he fails an Activation. After a failed Activation, initiative "
              "passes to the next player who follows the same procedure.")
ONCE = ("Once all players have attempted to activate all their Units, the Turn ends.")
TWO = ("A Unit that successfully Activates may take two Actions. If the Unit fails to "
       "Activate it may take one Action")
MOVE = "May move up to maximum movement based on unit type."
ASSAULT = "May move up to half movement and fight an Assault (infantry only)."
FIRE = ("Each member of a Unit is able to Fire one weapon during a Fire Action at any enemy "
        "figures or vehicles that they have a clear line of sight to.")
SMALL_ARMS = "Vehicles may not be affected by Small Arms unless they have a 6+ Armour Save."
IMMOBILISED = "5 Vehicle immobilised for the rest of game."
HOVER = ("May move over all terrain types but may not end Move on top of any type of "
         "terrain except Open Water.")
TERRAIN = ("Move at half speed through Soft Cover. Only Heavy (4+ save) vehicles may move "
           "through Moderate Cover.")
PASSENGERS = "If a vehicle makes its save, passengers inside do not have to."


@dataclass
class State:
    """A one-page battle between choices: the engine's battle, the initiative and the
    Activation under way."""

    battle: E.Battle
    max_turns: int
    order: list[str] = field(default_factory=list)  # this turn's initiative order
    current: int = 0
    pending: dict[str, list[int]] = field(default_factory=dict)
    active: int | None = None
    actions_left: int = 0
    failed: bool = False
    spent: set[int] = field(default_factory=set)  # activated this turn, no actions left
    last_lower: str | None = None
    over: bool = False
    by_id: dict[int, E.Unit] = field(default_factory=dict)
    #: The side holding the initiative (None once the battle is over); kept by `_sync`.
    side: str | None = None
    #: Issue 29: the sides' sealed plans (side key -> Plan) and the sides that withdraw.
    plans: dict[str, Plan] = field(default_factory=dict)
    withdrawing: set[str] = field(default_factory=set)

    def _sync(self) -> None:
        self.side = (None if self.over or not self.order
                     else self.order[self.current % len(self.order)])


def side_id(side: str) -> int:
    return int(side)


# --- start and the turn's bookkeeping -----------------------------------------------------


def start(battle_input: Json, dice: Dice, setup: Json | None = None, *,
          keep_log: bool = True) -> State:
    plans = plans_of(battle_input)  # a malformed plan is refused before anything happens
    b = E.build(battle_input, dice, keep_log)
    s = State(battle=b, max_turns=int(b.options.get("onepage_max_turns",
                                                    T.OPTIONS["onepage_max_turns"])),
              by_id={u.id: u for u in b.units}, plans=plans)
    if setup and "initiative" in setup:
        b.turn = int(setup.get("turn", 1))
        _set(s, setup)
        _settle(s)
    else:
        _new_turn(s)
        if setup:
            _set(s, setup)
            _settle(s)
    return s


def _set(s: State, setup: Json) -> None:
    """A case's situation: `initiative` (the sides in this turn's order; no roll),
    `side` (who holds it now), `pending: {side: [ids]}` (default: every unit on the
    table), `active`, `actions_left`, `failed`, and `units: {id: {x, figures, suppressed,
    stunned, aimed, damage, figures_in_cover, aboard}}`."""
    b = s.battle
    for uid, change in (setup.get("units") or {}).items():
        u = unit(s, uid)
        for key in ("x",):
            if key in change:
                setattr(u, key, float(change[key]))
        for key in ("figures", "suppressed"):
            if key in change:
                setattr(u, key, int(change[key]))
        for key in ("stunned", "aimed"):
            if key in change:
                setattr(u, key, bool(change[key]))
        if "damage" in change:
            u.damage = list(change["damage"])
        if "figures_in_cover" in change:
            u.figures_in_cover = (None if change["figures_in_cover"] is None
                                  else int(change["figures_in_cover"]))
        if "aboard" in change:
            u.aboard = None if change["aboard"] is None else int(change["aboard"])
    if "initiative" in setup:
        s.order = [str(x) for x in setup["initiative"]]
        s.current = 0
        s.pending = {side: [u.id for u in b.units if u.side == side and u.on_table]
                     for side in s.order}
    if "side" in setup:
        s.current = s.order.index(str(setup["side"]))
    if "pending" in setup:
        s.pending = {str(k): [int(i) for i in v] for k, v in setup["pending"].items()}
        for side in s.order:
            s.pending.setdefault(side, [])
    if "active" in setup:
        s.active = None if setup["active"] is None else int(setup["active"])
        if s.active is not None:
            for ids in s.pending.values():
                if s.active in ids:
                    ids.remove(s.active)
    s.actions_left = int(setup.get("actions_left", 2 if s.active is not None else 0))
    s.failed = bool(setup.get("failed", False))
    s._sync()


def _new_turn(s: State) -> None:
    """'Each turn begins with players rolling 1D6': the initiative, rolled by the layer."""
    b = s.battle
    if b.turn >= s.max_turns:
        _over(s, "turn_limit")
        return
    b.turn += 1
    standing = b.standing_sides()
    if len(standing) < 2:
        _over(s, "one_side_left")
        return
    for u in b.units:
        u.turn_damage = []
    init = R.initiative(b.dice, standing, last_lower=s.last_lower, first_turn=b.turn == 1,
                        attacker=b.attacker)
    s.last_lower = init["lowest"]
    if b.keep_log:
        b.note(action="initiative", rolls=list(init["rolls"].values()),
               winner=init["winner"], text=f"Initiative: side {init['winner']} "
               f"({', '.join(f'{x}: {r}' for x, r in init['rolls'].items())})")
    s.order = list(init["order"])
    s.current = 0
    s.pending = {side: [u.id for u in b.units if u.side == side and u.on_table]
                 for side in standing}
    s.spent = set()
    s._sync()


def _settle(s: State) -> None:
    """After an Activation ends: the battle may be over, the initiative may move on to a
    side with units still to activate, or the turn may end."""
    b = s.battle
    while not s.over and s.active is None:
        if len(b.standing_sides()) < 2:
            _over(s, "one_side_left")
            return
        for _ in range(len(s.order)):
            ids = s.pending.get(s.order[s.current % len(s.order)])
            if ids:
                ids[:] = [i for i in ids if s.by_id[i].on_table]
            if ids:
                s._sync()
                return
            s.current += 1
        _new_turn(s)  # every unit has tried to activate: the turn ends


def _end_activation(s: State) -> None:
    if s.active is not None:
        s.spent.add(s.active)
    s.active, s.actions_left = None, 0
    if s.failed:
        s.current += 1  # "After a failed Activation, initiative passes to the next player"
    s.failed = False
    s._sync()
    _settle(s)


def _over(s: State, end: str) -> None:
    s.over = True
    s.active = None
    s._sync()
    E._finish(s.battle, end)


def unit(s: State, uid: Any) -> E.Unit:
    found = s.by_id.get(uid) if isinstance(uid, int) else None
    if found is not None:
        return found
    try:
        wanted = int(uid)
    except (TypeError, ValueError):
        raise ActionRefused("unknown_unit", f"{uid!r} is not a unit of this battle.") \
            from None
    if wanted in s.by_id:
        return s.by_id[wanted]
    raise ActionRefused("unknown_unit", f"There is no unit {wanted} in this battle.")


# --- the referee -----------------------------------------------------------------------


def actor(s: State) -> int | None:
    return None if s.side is None else side_id(s.side)


def apply(s: State, action: Json) -> None:
    do = str(action.get("do"))
    handler = _VERBS.get(do)
    if handler is None:
        raise ActionRefused("unknown_action", f"The one-page rules have no action {do!r} "
                            f"(one of {', '.join(_VERBS)}).")
    if s.side is None:
        raise ActionRefused("battle_over", "The battle is over; nobody acts any more.")
    if str(action.get("side")) != s.side:
        raise ActionRefused("not_your_initiative", f"Side {s.side} holds the initiative, "
                            f"not side {action.get('side')}.", INITIATIVE)
    handler(s, action)


def _activate(s: State, action: Json) -> None:
    b = s.battle
    u = unit(s, action.get("unit"))
    if u.side != s.side:
        raise ActionRefused("not_your_unit", f"{u.name} is not side {s.side}'s unit.")
    if s.active is not None:
        raise ActionRefused("activation_under_way", f"{unit(s, s.active).name} is still "
                            "taking its Actions; finish them (or `done`) first.", TWO)
    if not u.on_table:
        raise ActionRefused("unit_gone", f"{u.name} is no longer on the table.")
    if u.id not in s.pending.get(u.side, []):
        raise ActionRefused("already_activated", f"{u.name} has already tried to activate "
                            "this turn.", ONCE)
    s.pending[u.side].remove(u.id)
    half = (not u.vehicle) and u.figures * 2 <= u.figures_max
    roll = R.activation(b.dice, u.training, suppressed=u.suppressed,
                        no_enemy_in_range=not E._visible_enemy_in_range(b, u),
                        stunned=u.stunned, half_casualties=half)
    u.suppressed = 0  # "After each Activation roll ... remove all Suppression markers"
    u.stunned = False
    if b.keep_log:
        b.note(side=u.side, unit=u.id, action="activation", rolls=[roll["roll"]],
               success=roll["success"], actions=roll["actions"],
               text=f"{u.name} {'activates' if roll['success'] else 'fails to activate'} "
                    f"({roll['roll']}{roll['modifier']:+d} vs {roll['needed']}+)")
    s.active, s.actions_left, s.failed = u.id, int(roll["actions"]), not roll["success"]
    if roll["falls_back"]:
        E._fall_back(b, u)
        s.actions_left = 0
    if s.actions_left <= 0:
        _end_activation(s)


def _actor_unit(s: State, action: Json) -> E.Unit:
    u = unit(s, action.get("unit"))
    if u.side != s.side:
        raise ActionRefused("not_your_unit", f"{u.name} is not side {s.side}'s unit.")
    if s.active != u.id:
        if u.id in s.spent:
            raise ActionRefused("no_actions_left", f"{u.name} has taken all the Actions its "
                                "Activation gave it this turn.", TWO)
        raise ActionRefused("not_activated", f"{u.name} has not activated: activate it "
                            "first.", "To Activate a Unit a player must roll equal to, or "
                            "more than, the Activation number")
    return u


def _spend(s: State, u: E.Unit) -> None:
    s.actions_left -= 1
    if s.actions_left <= 0 or not u.on_table or len(s.battle.standing_sides()) < 2:
        _end_activation(s)


def move_refusal(s: State, u: E.Unit, to: float) -> ActionRefused | None:
    """Why `u` cannot end a Move action at `to` (None: it can)."""
    if u.aboard is not None:
        return ActionRefused("aboard", f"{u.name} is aboard a transport: disembark first.",
                             PASSENGERS)
    if u.immobilised:
        return ActionRefused("immobilised", f"{u.name} is immobilised.", IMMOBILISED)
    if to == u.x:
        return ActionRefused("not_a_move", f"{u.name} is already there.", MOVE)
    reached = E.reach(s.battle, u, to, T.UNIT_TYPES[u.type].move_cm)
    if reached != to:
        blocked = E.blocked_at(s.battle, u, to)
        if blocked is not None:
            return ActionRefused("terrain_blocks", f"{u.name} cannot enter the "
                                 f"{s.battle.cover_at(blocked)} cover at {blocked:g} cm.",
                                 TERRAIN)
        return ActionRefused("too_far", f"{u.name} can move only to {reached:g} cm with "
                             "one Move action.", MOVE)
    if u.type == "hover" and s.battle.cover_at(to) not in ("open", "water"):
        return ActionRefused("hover_ends_on_terrain", f"{u.name} may not end its move on "
                             f"{s.battle.cover_at(to)} cover.", HOVER)
    return None


def _move(s: State, action: Json) -> None:
    b = s.battle
    u = _actor_unit(s, action)
    try:
        to = float(action["to"])
    except (KeyError, TypeError, ValueError):
        raise ActionRefused("bad_position", "A move names where it ends: `to`, in cm "
                            "along the table.") from None
    why = move_refusal(s, u, to)
    if why is not None:
        raise why
    start_x = u.x
    u.x = to
    riders = [p.id for p in E.passengers(b, u)] if b.keep_log else []
    E.carry(b, u)
    if b.beyond_own_edge(u):  # R-OP-18: off its own table edge, with whoever rides in it
        for rider in E.passengers(b, u):
            rider.off_table = True
        u.off_table = True
        if b.keep_log:
            b.note(side=u.side, unit=u.id, action="move", to=u.x, cm=abs(to - start_x),
                   off_table=True, **({"carried": riders} if riders else {}),
                   text=f"{u.name} moves {abs(to - start_x):g} cm and leaves the table by "
                        "its own edge")
        _spend(s, u)
        return
    if b.keep_log:
        target = E._nearest(b, u)  # only the log says how far it now is
        b.note(side=u.side, unit=u.id, action="move", to=u.x, cm=abs(to - start_x),
               **({"carried": riders} if riders else {}),
               text=f"{u.name} moves {abs(to - start_x):g} cm"
                    + (f" (now {E._distance(u, target):g} cm from {target.name})"
                       if target is not None else ""))
    _spend(s, u)


def fire_refusal(s: State, u: E.Unit, target: E.Unit) -> ActionRefused | None:
    if target.side == u.side:
        return ActionRefused("not_an_enemy", f"{target.name} is on {u.name}'s side.", FIRE)
    if not target.on_table:
        return ActionRefused("unit_gone", f"{target.name} is no longer on the table.")
    if target.aboard is not None:
        return ActionRefused("target_aboard", f"{target.name} is inside a transport: fire "
                             "at the vehicle.", PASSENGERS)
    if u.aboard is not None:
        return ActionRefused("aboard", f"{u.name} is aboard a transport and cannot fire.",
                             PASSENGERS)
    if E._in_range(u, target):
        return None
    d = E._distance(u, target)
    weapons = u.firing_weapons()
    if not weapons:
        return ActionRefused("no_weapon", f"{u.name} has no weapon that can fire.",
                             "A Suppressed figure cannot fire")
    if not any(R.fire_points(w, d) > 0 for w in weapons):
        return ActionRefused("out_of_range", f"{target.name} is {d:g} cm away, beyond the "
                             f"range of {u.name}'s weapons.", "Small Arms Range Firepoints")
    return ActionRefused("no_effect", f"{u.name}'s weapons in range cannot hurt "
                         f"{target.name}.", SMALL_ARMS)


def _fire(s: State, action: Json) -> None:
    u = _actor_unit(s, action)
    target = unit(s, action.get("target"))
    why = fire_refusal(s, u, target)
    if why is not None:
        raise why
    E._fire(s.battle, u, target)
    _spend(s, u)


def _aim(s: State, action: Json) -> None:
    b = s.battle
    u = _actor_unit(s, action)
    if u.aboard is not None:
        raise ActionRefused("aboard", f"{u.name} is aboard a transport.", PASSENGERS)
    u.aimed = True
    if b.keep_log:
        b.note(side=u.side, unit=u.id, action="aim", text=f"{u.name} aims")
    _spend(s, u)


def assault_refusal(s: State, u: E.Unit, target: E.Unit) -> ActionRefused | None:
    if u.vehicle:
        return ActionRefused("not_infantry", f"{u.name} is a vehicle: only infantry "
                             "assaults.", ASSAULT)
    if u.aboard is not None:
        return ActionRefused("aboard", f"{u.name} is aboard a transport: disembark first.",
                             PASSENGERS)
    if target.side == u.side:
        return ActionRefused("not_an_enemy", f"{target.name} is on {u.name}'s side.",
                             ASSAULT)
    if not target.on_table:
        return ActionRefused("unit_gone", f"{target.name} is no longer on the table.")
    if target.aboard is not None:
        return ActionRefused("target_aboard", f"{target.name} is inside a transport.",
                             PASSENGERS)
    half = T.UNIT_TYPES[u.type].move_cm / 2
    if E._distance(u, target) > half:
        return ActionRefused("too_far_to_assault", f"{target.name} is "
                             f"{E._distance(u, target):g} cm away; {u.name} assaults "
                             f"within half its move ({half:g} cm).", ASSAULT)
    return None


def _assault(s: State, action: Json) -> None:
    u = _actor_unit(s, action)
    target = unit(s, action.get("target"))
    why = assault_refusal(s, u, target)
    if why is not None:
        raise why
    E._assault(s.battle, u, target)
    _spend(s, u)


def _done(s: State, action: Json) -> None:
    _actor_unit(s, action)
    _end_activation(s)


def embark_refusal(s: State, u: E.Unit, carrier: E.Unit) -> ActionRefused | None:
    if u.vehicle:
        return ActionRefused("not_infantry", f"{u.name} is a vehicle and rides in nothing.",
                             PASSENGERS)
    if u.aboard is not None:
        return ActionRefused("aboard", f"{u.name} is already aboard.", PASSENGERS)
    if carrier.side != u.side or not carrier.on_table:
        return ActionRefused("not_a_transport", f"{carrier.name} is not a friendly vehicle "
                             "on the table.", PASSENGERS)
    room = E.room(s.battle, carrier)
    if carrier.capacity <= 0:
        return ActionRefused("not_a_transport", f"{carrier.name} carries no passengers.",
                             PASSENGERS)
    if room < u.figures:
        return ActionRefused("transport_full", f"{carrier.name} has room for {room} more "
                             f"figure(s), not {u.figures}.", PASSENGERS)
    if E._distance(u, carrier) > T.UNIT_TYPES[u.type].move_cm:
        return ActionRefused("too_far", f"{carrier.name} is beyond {u.name}'s move.", MOVE)
    return None


def _embark(s: State, action: Json) -> None:
    """A Move action into a friendly transport within reach (R-OP-14)."""
    b = s.battle
    u = _actor_unit(s, action)
    carrier = unit(s, action.get("transport"))
    why = embark_refusal(s, u, carrier)
    if why is not None:
        raise why
    u.aboard, u.x = carrier.id, carrier.x
    if b.keep_log:
        b.note(side=u.side, unit=u.id, action="embark", target=carrier.id, to=u.x,
               text=f"{u.name} boards {carrier.name}")
    _spend(s, u)


def _disembark(s: State, action: Json) -> None:
    """A Move action out of the transport, onto the ground beside it (R-OP-14)."""
    b = s.battle
    u = _actor_unit(s, action)
    if u.aboard is None:
        raise ActionRefused("not_aboard", f"{u.name} is not aboard a transport.",
                            PASSENGERS)
    carrier = unit(s, u.aboard)
    u.aboard = None
    if b.keep_log:
        b.note(side=u.side, unit=u.id, action="disembark", target=carrier.id, to=u.x,
               text=f"{u.name} gets out of {carrier.name}")
    _spend(s, u)


_VERBS = {"activate": _activate, "move": _move, "fire": _fire, "aim": _aim,
          "assault": _assault, "embark": _embark, "disembark": _disembark, "done": _done}


# --- what a side may do now ------------------------------------------------------------


def legal(s: State) -> list[Json]:
    """The actions the side holding the initiative may take now. Moves: the policy's
    candidates (toward or away from the nearest enemy as far as one Move goes, or to its
    best range); any other reachable point is legal too."""
    b = s.battle
    side = s.side
    if side is None:
        return []
    pid = side_id(side)
    if s.active is None:
        return [{"side": pid, "do": "activate", "unit": i} for i in s.pending.get(side, [])]
    u = unit(s, s.active)
    out: list[Json] = []
    for e in b.enemies(u):
        if e.aboard is None and fire_refusal(s, u, e) is None:
            out.append({"side": pid, "do": "fire", "unit": u.id, "target": e.id})
        if e.aboard is None and assault_refusal(s, u, e) is None:
            out.append({"side": pid, "do": "assault", "unit": u.id, "target": e.id})
    for to in move_candidates(s, u):
        out.append({"side": pid, "do": "move", "unit": u.id, "to": to})
    if u.aboard is None:
        out.append({"side": pid, "do": "aim", "unit": u.id})
        out += [{"side": pid, "do": "embark", "unit": u.id, "transport": c.id}
                for c in b.units if c.capacity > 0 and embark_refusal(s, u, c) is None]
    else:
        out.append({"side": pid, "do": "disembark", "unit": u.id})
    out.append({"side": pid, "do": "done", "unit": u.id})
    return out


def move_candidates(s: State, u: E.Unit) -> list[float]:
    b = s.battle
    if u.aboard is not None or u.immobilised:
        return []
    seen: list[float] = []
    target = E._nearest(b, u)
    goals = [b.edge(u.side)] + ([target.x] if target is not None else [])
    for goal in goals:
        to = E.reach(b, u, goal, T.UNIT_TYPES[u.type].move_cm, ends_on_open=True)
        if to not in seen and move_refusal(s, u, to) is None:
            seen.append(to)
    if target is not None:
        to = E.policy_move(b, u, target)
        if to not in seen and move_refusal(s, u, to) is None:
            seen.append(to)
    return seen


# --- the state as JSON ---------------------------------------------------------------


def view(s: State) -> Json:
    b = s.battle
    winner = b.options.get("winner") if s.over else None
    return {
        "turn": b.turn, "side": actor(s), "initiative": [side_id(x) for x in s.order],
        "active": s.active, "actions_left": s.actions_left,
        "pending": {x: list(ids) for x, ids in s.pending.items()},
        "units": {str(u.id): {"side": side_id(u.side), "name": u.name, "type": u.type,
                              "figures": max(0, u.figures), "x": u.x,
                              "suppressed": u.suppressed, "stunned": u.stunned,
                              "aimed": u.aimed, "damage": list(u.damage),
                              "aboard": u.aboard, "cover": E.unit_cover(b, u),
                              "on_table": u.on_table, "destroyed": u.destroyed,
                              "off_table": u.off_table}
                  for u in b.units},
        "over": s.over, "winner": side_id(winner) if winner is not None else None,
        "end_reason": b.options.get("end_reason") if s.over else None,
    }
