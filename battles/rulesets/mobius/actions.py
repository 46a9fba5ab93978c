"""Mobius as refereed choices (`ActionLayer`, issue 28): the battle state, the actions the
active side may take now, and `apply`, which plays one action or refuses it with a code and
the seed's sentence, changing nothing (every check is made before anything moves or a die
is rolled). The default policy (`policy.py`) chooses through this same layer, and
`Ruleset.resolve` plays every battle this way.

A turn is the seed's Turn Structure. The Start, Melee and End Phases are played by the
rules (and R-MOB-19/R-MOB-37 where the seed leaves a melee choice); in the Movement, Action
and Hero Phases each unit of the active side acts once, in any order, and `next` ends the
phase. The verbs and `set` keys are listed in docs/rulings/mobius.md (R-MOB-39).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from battles.rulesets.base import ActionRefused, RulesetError
from battles.rulesets.mobius import engine as E
from battles.rulesets.mobius import plans as PL
from battles.rulesets.mobius import policy as P
from battles.rulesets.mobius import rules as R
from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.allocation import ALLOCATIONS
from battles.rulesets.mobius.state import Battle, Unit, dist
from campaign.rules.dice import Dice

Json = dict[str, Any]

PHASES = ("movement", "action", "hero")
REVEAL_BLIP_RANGE = 36

# The seed's sentences a refusal quotes.
Q_TURN = ("Players whose Turn it is, are referred to as \"Active\" Players, and anyone "
          "waiting for their Turn are \"Inactive\" Players.")
Q_ONCE = "Units attempting a Rapid Move skip their Action Phase"
Q_PHASES = ("Movement: In which Units move. Action: In which Units can make Ranged Attacks "
            "or other Special Commands. Hero: A secondary Action Phase exclusive the HQ "
            "Units and Heroes.")
Q_PANIC = "If a Unit is Panicked, they may not act until their next Turn's End Phase."
Q_LOCK_MOVE = ("Units in Melee Lock may attempt to escape their Fight in the Movement "
               "Phase, but this is very risky.")
Q_LOCK_FIRE = ("Units in Melee Lock may not make any Ranged Attacks unless a Special Rule "
               "or circumstance (such as a Duel or Building Fight) allows them to.")
Q_INTO_MELEE = "Units may not target enemies in Melee Lock for Ranged Attacks"
Q_CURSE = ("If a Player hasn't had their first Turn, their Units may not be targeted for "
           "anything, especially Attacks")
Q_RANGE = ("If the distance is higher than the Weapon's Range (RNG) value, all that Models' "
           "shots instantly miss.  If at least one Model has a target within their "
           "Weapon's Range, they move on to the next step")
Q_RAPID_FIRE = ("Units attempting a Rapid Move skip their Action Phase, but Heroes and HQ "
                "Units may still play their Hero Phase.")
Q_HEAVY = "Heavy: Fire Normally / Can't Fire (after a Standard Move)"
Q_VEHICLE_WEAPONS = ("Remained Stationary All Weapons / Standard Move 1 Weapon / Rapid Move "
                     "No Weapons")
Q_TWICE = "Vehicles may not Fire the same Weapon twice"
Q_ONE_TARGET = "A Unit may only select one Target to fire upon."
Q_PASSENGER = "Models within a Vehicle may not attack unless it's Open-Topped."
Q_TARGET_PASSENGER = ("the Unit cannot be targeted until either the Vehicle is destroyed or "
                      "they leave")
Q_INDEPENDENT = ("an enemy trying to target an Independent must get past the whole Unit "
                 "first!")
Q_TOO_FAR = "pick up the Unit and move them up to their Move Value in inches"
Q_RAPID = "the Unit in question gives their Move Value a +6\" modifier"
Q_DIFFICULT = ("Units that begin their Movement Phase in Difficult Terrain may not Rapid "
               "Move - even while Charging.")
Q_GAP = ("All separate Units, even friendly ones, must be at least 2\" away from each "
         "other, unless they are in Melee Lock.")
Q_CHARGE = ("A Charge is either a Standard or Rapid Move, except made towards an enemy "
            "Unit.  If the moving Unit comes within 1\" of an enemy, both Units are placed "
            "in Melee Lock.")
Q_AIR = "Only Units in Flight may Charge, Tank Shock, Ram or Join other Units in Flight."
Q_VEHICLE_MELEE = "Vehicles may not attack in Melee or even be in a Melee Lock"
Q_RESERVES = ("At any point during the Movement Phase, the Active Player may declare one "
              "Unit from their Reserve to enter the battlefield.")
Q_COMMANDER = ("If the Army's Commander is present on the battlefield (and alive), the "
               "Player may send in up to two additional Units from Reserve per Turn.")
Q_AMBUSH = ("When entering from Reserve, instead of doing so normally, Units containing "
            "Models with Ambush may deploy anywhere on the battlefield")
Q_ESCAPE = ("In the Movement Phase, the Active Player's my select any of their Unit(s) in "
            "Melee Lock to attempt an escape.")
Q_CAPACITY = ("if a Unit comes within 1\" of a Friendly Transport Vehicle (with enough "
              "space to hold all members), they may Embark, ending their Move as if it "
              "were Rapid.")
Q_TRANSPORT = ("Transport (X) Found in the Vehicle's Type, this is the number of Infantry "
               "Models this Vehicle can carry.  If a Vehicle doesn't have this subtype, it "
               "cannot carry troops.")
Q_DISEMBARK = ("To get out of a Vehicle, the Unit is placed within 6\" of it and counts as "
               "having made a Standard Move")
Q_COVER = ("Instead of firing or using a Special Command, Infantry Units can spend the "
           "Action Phase desperately trying to protect themselves from fire.")
Q_NO_COVER = "Due to their size and lack of mobility, Vehicles may not Take Cover."
Q_HERO = ("The Hero Phase is another Action Phase exclusive only to Heroes and HQ!")
Q_HERO_MELEE = ("If the HQ or Hero is in a Melee Lock, they may use their Hero Phase to "
                "make a round of Melee Attacks.")
Q_PUSH = ("The Hero/HQ moves 1D6\" in any direction, abiding by their Terrain rules.  They "
          "may not use this to Charge.")
Q_HOWL = ("allows some Units to 'skip' their Turn to make a War Howl, disorienting the "
          "enemy")
Q_BLIP_ACTS = ("A Blip can only do one of two things in the Action Phase: Reveal Blip and "
               "Take Cover.")
Q_BLIP_HERO = "Blips cannot use the Hero Phase."
Q_REVEAL = ("The Blip targets another Blip within 36\" and Line of Sight and reveals it "
            "without revealing itself.")
Q_CHOICE = ("For every failed Save, one Unit member of the Player's choice loses the "
            "Attack's DAM in HP")
Q_MOVE_ZERO = ("Unless a Special Rule says otherwise, Units with a Move value of 0\" may not "
               "Move at all.")
Q_INDEPENDENT_JOIN = ("Independents can join friendly Units by entering Unit Cohesion (i.e. "
                      "moving within 1\" of a member) and can leave by simply moving away "
                      "from it.")
Q_ONE_HOST = "An Independent may not join more than one Unit"
Q_INDEPENDENT_MOVES = ("While they are in Cohesion with a Unit, they count as a member for "
                       "purposes of targeting and Special Rules")


@dataclass
class Play:
    """A Mobius battle played choice by choice: the engine's `Battle` and where the turn
    stands (whose, which phase, which units have acted in it)."""

    b: Battle
    rounds: int
    side_i: int = -1
    phase: str = "movement"
    acted: set[int] = field(default_factory=set)
    over: bool = False
    mine: list[Unit] = field(default_factory=list)
    mine_of: int = -1
    cursor: int = 0
    #: Whose turn it is: `b.order[side_i]` (kept with `side_i`: `turn_to`), and as a number.
    side: str = ""
    side_no: int = 0

    def turn_to(self, side_i: int) -> None:
        self.side_i = side_i
        self.side = self.b.order[side_i]
        self.side_no = int(self.side)


def refuse(code: str, message: str, rule: str) -> ActionRefused:
    return ActionRefused(code, message, rule)


class MobiusActions:
    """The Mobius `ActionLayer`."""

    # --- the protocol ------------------------------------------------------------------------
    def start(self, battle_input: Json, dice: Dice, setup: Json | None = None,
              keep_log: bool = True, listed: list[Unit] | None = None) -> Play:
        """The battle set up (with no defender, the roll-off for the turn order first, as
        `resolve` plays it), its first turn open; `listed`: `engine.build`'s."""
        data, off = _ordered(battle_input, dice)
        b = E.build(data, dice, keep_log, listed)
        E.opening(b)
        rounds = int(b.options.get("mobius_rounds", T.OPTIONS["mobius_rounds"]))
        p = Play(b=b, rounds=rounds)
        p.turn_to(len(b.order) - 1)
        _next_turn(p)
        if setup:
            _setup(p, setup)
        if off is not None and keep_log:
            b.log.insert(0, {"round": 0, "action": "roll_off",
                             "rolls": [f for r in off["rolls"] for f in r.values()],
                             "text": f"Roll-off: side {off['first']} goes first ("
                                     + "; ".join(", ".join(f"{s}: {f}" for s, f in r.items())
                                                 for r in off["rolls"]) + ")"})
        return p

    def actor(self, state: Play) -> int | None:
        return None if state.over else int(state.side)

    def legal(self, state: Play) -> list[Json]:
        if state.over:
            return []
        out: list[Json] = []
        for u in _mine(state):
            if u.id in state.acted:
                continue
            for act in _candidates(state, u):
                try:
                    _check(state, {**act, "side": int(state.side), "unit": u.id})
                except ActionRefused:
                    continue
                out.append({"side": int(state.side), "unit": u.id, **act})
        if state.phase == "movement":
            for u in _waiting(state):
                act = {"side": int(state.side), "do": "reserve", "unit": u.id}
                if _refusal(state, act) is None:
                    out.append(act)
        out.append({"side": int(state.side), "do": "next"})
        return out

    def apply(self, state: Play, action: Json) -> None:
        _check(state, action)
        _play(state, action)

    def choose(self, state: Play, policy: str | None = None) -> Json:
        if policy not in (None, "default"):
            raise RulesetError(f"Mobius has no policy {policy!r}.")
        act = _default(state)
        act["side"] = state.side_no
        return act

    def view(self, state: Play) -> Json:
        b = state.b
        return {
            "round": b.round, "side": None if state.over else int(state.side),
            "phase": None if state.over else state.phase, "over": state.over,
            "winner": int(b.winner) if b.winner is not None else None,
            "mission": b.mission, "acted": sorted(state.acted),
            "reserves_left": 0 if state.over else b.reserve_room.get(state.side, 0),
            "units": {str(u.id): _unit_view(u) for u in b.units},
        }


def play_out(p: Play) -> Battle:
    """The battle played to its end by the default policy, every choice refereed
    (R-MOB-19, R-MOB-39)."""
    while not p.over:
        LAYER.apply(p, LAYER.choose(p))
    return p.b


def _ordered(battle_input: Json, dice: Dice) -> tuple[Json, Json | None]:
    """The battle input in turn order: with no defender, "every Player rolls a D6 and the
    highest roller decides who goes first" (R-MOB-4)."""
    data = battle_input
    off: Json | None = None
    if data.get("defender") is None and len(data["sides"]) > 1:
        off = R.roll_off(dice, [str(s) for s in data["sides"]])
        order = [str(s) for s in data.get("order") or data["sides"]]
        first = order.index(off["first"])
        data = {**data, "order": order[first:] + order[:first]}
    return data, off


# --- the turn -------------------------------------------------------------------------------
def _next_turn(p: Play) -> None:
    """On to the next side's turn (its Start Phase played, its Movement Phase open), or
    the end of the battle."""
    b = p.b
    while True:
        if p.side_i + 1 >= len(b.order):
            if (b.round > 0 and len(b.standing()) < 2) or b.round >= p.rounds \
                    or b.winner is not None:
                p.side_i += 1  # past the last side, as the battle ends
                _finish(p)
                return
            b.round += 1
            p.turn_to(0)
        else:
            p.turn_to(p.side_i + 1)
        if len(b.standing()) < 2 or b.winner is not None:
            _finish(p)
            return
        side = p.side
        if side not in b.standing():
            continue
        E.start_turn(b, side)
        if b.winner is not None:
            _finish(p)
            return
        _open(p, "movement")
        return


def _open(p: Play, phase: str) -> None:
    p.phase = phase
    p.acted = set()
    p.cursor = 0
    if phase == "movement":
        E.begin_movement(p.b, p.side)
        PL.review(p.b, p.side)  # the side's plan takes stock (R-MOB-40/41)


def _finish(p: Play) -> None:
    E.conclude(p.b, p.rounds)
    p.over = True


def _end_phase(p: Play) -> None:
    if p.phase == "movement":
        E.end_movement(p.b)
        _open(p, "action")
    elif p.phase == "action":
        _open(p, "hero")
    else:
        E.end_turn(p.b, p.side)
        _next_turn(p)


# --- the referee ----------------------------------------------------------------------------
def _refusal(p: Play, action: Json) -> ActionRefused | None:
    try:
        _check(p, action)
    except ActionRefused as exc:
        return exc
    return None


def _check(p: Play, a: Json) -> None:
    """Raise the refusal of an illegal action; return for a legal one. Changes nothing."""
    do = str(a.get("do") or "")
    if do not in VERBS:
        raise refuse("unknown_action", f"Mobius has no action {do!r} (its actions: "
                     f"{', '.join(sorted(VERBS))}).", "")
    if p.over:
        raise refuse("battle_over", "The battle is over.", "")
    side = str(a.get("side"))
    if do == "allocate":
        u = _unit(p, a)
        if u.side != side:
            raise refuse("not_your_unit", f"{u.name} is not yours: the player who owns it "
                         "chooses which of its models takes the damage.", Q_CHOICE)
        order = str(a.get("order") or "")
        if order not in ALLOCATIONS:
            raise refuse("unknown_order", f"{order!r} is not a way to take damage (one of "
                         f"{', '.join(ALLOCATIONS)}).", Q_CHOICE)
        return
    if do == "reveal":
        u = _unit(p, a)
        if u.side != side:
            raise refuse("not_your_unit", f"{u.name} is not yours to reveal.",
                         "Blips can be revealed voluntarily at any point during a battle")
        if not u.blip:
            raise refuse("not_a_blip", f"{u.name} is already revealed.",
                         "once a Blip is revealed, it stays revealed for the rest of the game")
        return
    if side != p.side:
        raise refuse("not_your_turn", f"It is side {p.side}'s turn, not side {side}'s.",
                     Q_TURN)
    if do == "next":
        return
    if do not in PHASE_VERBS[p.phase]:
        raise refuse("wrong_phase", f"{do.replace('_', ' ').capitalize()} is not done in the "
                     f"{p.phase.capitalize()} Phase.", Q_PHASES)
    u = _unit(p, a)
    if u.side != side:
        raise refuse("not_your_unit", f"{u.name} is not yours.", Q_TURN)
    if do == "reserve":
        _check_reserve(p, u)
        return
    if not u.on_table:
        raise refuse("not_on_table", f"{u.name} is not on the battlefield.",
                     "When Units are in Reserve, they cannot attack or be targeted for "
                     "anything")
    if u.id in p.acted:
        raise refuse("already_acted", f"{u.name} has already acted in this "
                     f"{p.phase.capitalize()} Phase.", Q_PHASES)
    if u.panicked and do not in ("stay", "hold"):
        raise refuse("panicked", f"{u.name} is Panicked and may not act.", Q_PANIC)
    PHASE_VERBS[p.phase][do](p, u, a)


def _unit(p: Play, a: Json) -> Unit:
    try:
        uid = int(a["unit"])
        return p.b.unit(uid)
    except (KeyError, TypeError, ValueError, StopIteration):
        raise refuse("no_such_unit", f"There is no unit {a.get('unit')!r} in this battle.",
                     "") from None


def _other(p: Play, a: Json, key: str) -> Unit:
    try:
        return p.b.unit(int(a[key]))
    except (KeyError, TypeError, ValueError, StopIteration):
        raise refuse("no_such_unit", f"There is no unit {a.get(key)!r} in this battle.",
                     "") from None


def _enemy_target(p: Play, u: Unit, t: Unit) -> None:
    b = p.b
    if t.side == u.side:
        raise refuse("not_an_enemy", f"{t.name} is on {u.name}'s side.", Q_CHARGE)
    if not t.on_table:
        raise refuse("not_on_table", f"{t.name} is not on the battlefield.",
                     "When Units are in Reserve, they cannot attack or be targeted for "
                     "anything")
    if t.inside is not None:
        raise refuse("cannot_target", f"{t.name} is inside a transport.",
                      Q_TARGET_PASSENGER)
    if b.shielded_by_host(t):
        raise refuse("cannot_target", f"{t.name} has joined {b.unit(int(t.joined or 0)).name}"
                     ", which must be got past first.", Q_INDEPENDENT)
    if not R.first_turn_curse(owner_has_had_turn=t.side in b.had_turn):
        raise refuse("first_turn_curse", f"{t.name}'s player has not had a turn yet.", Q_CURSE)


# movement ---------------------------------------------------------------------------------
def _mover(p: Play, u: Unit, do: str) -> None:
    if p.b.shielded_by_host(u) and do not in ("move", "charge", "stay"):
        raise refuse("moves_with_its_unit", f"{u.name} has joined "
                     f"{p.b.unit(int(u.joined or 0)).name} and moves with it.",
                     Q_INDEPENDENT_MOVES)
    if u.locked and do not in ("escape", "stay"):
        raise refuse("locked_in_melee", f"{u.name} is in Melee Lock: it may only try to "
                     "escape.", Q_LOCK_MOVE)
    if u.inside is not None and do not in ("disembark", "stay"):
        raise refuse("inside_transport", f"{u.name} is inside a transport: it must get out "
                     "first.", Q_DISEMBARK)


def _check_stay(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "stay")


def _check_move(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "move")
    b = p.b
    kind = str(a.get("kind") or "standard")
    if kind not in ("standard", "rapid"):
        raise refuse("unknown_move", f"{kind!r} is not a move (standard or rapid).", Q_TOO_FAR)
    allowed = _allowed(b, u, kind)
    if not allowed["allowed"]:
        code, rule = (("move_zero", Q_MOVE_ZERO) if allowed["reason"] == "Move 0"
                      else ("no_rapid_move", Q_DIFFICULT))
        raise refuse(code, f"{u.name} may not make a {kind} move: {allowed['reason']}.", rule)
    limit = allowed["inches"]
    if "toward" in a:
        t = _other(p, a, "toward")
        if t.id == u.id or not t.on_table:
            raise refuse("no_such_unit", f"{u.name} cannot move toward {t.name}.", "")
        keep = float(a.get("keep", T.UNIT_GAP))
        if keep < T.UNIT_GAP and t.side != u.side:
            raise refuse("too_close", f"{u.name} must stay 2\" away from {t.name} unless it "
                         "charges.", Q_GAP)
        inches = a.get("inches")
    elif "to" in a:
        try:
            to = float(a["to"])
        except (TypeError, ValueError):
            raise refuse("bad_position", f"{a['to']!r} is not a position in inches.",
                         "") from None
        inches = abs(to - u.x)
        near = [e for e in b.enemies(u) if abs(e.x - to) < T.UNIT_GAP]
        if near:
            raise refuse("too_close", f"{u.name} would end within 2\" of {near[0].name}.",
                         Q_GAP)
    else:
        raise refuse("no_destination", "A move needs `toward` (a unit) or `to` (inches).",
                     Q_TOO_FAR)
    if inches is not None and limit is not None and int(float(inches)) > limit:
        raise refuse("too_far", f"{u.name} may move {limit}\" with a {kind} move, not "
                     f"{float(inches):g}\".", Q_TOO_FAR if kind == "standard" else Q_RAPID)


def _check_charge(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "charge")
    b = p.b
    t = _other(p, a, "target")
    if u.vehicle:
        raise refuse("vehicles_do_not_charge", f"{u.name} is a vehicle.", Q_VEHICLE_MELEE)
    _enemy_target(p, u, t)
    if t.flying and not u.flying:
        raise refuse("cannot_reach_flyer", f"{t.name} is in flight and {u.name} is not.",
                     Q_AIR)
    kind = str(a.get("kind") or "standard")
    if kind not in ("standard", "rapid"):
        raise refuse("unknown_move", f"{kind!r} is not a move (standard or rapid).", Q_CHARGE)
    allowed = _allowed(b, u, kind)
    if not allowed["allowed"]:
        raise refuse("no_rapid_move" if kind == "rapid" else "move_zero",
                     f"{u.name} may not charge with a {kind} move: {allowed['reason']}.",
                     Q_DIFFICULT if kind == "rapid" else Q_MOVE_ZERO)
    need = dist(u, t) - T.LOCK_RANGE
    limit = allowed["inches"]
    if limit is not None and need > limit:
        raise refuse("out_of_reach", f"{t.name} is {dist(u, t):g}\" away: {u.name}'s {kind} "
                     f"move of {limit}\" cannot bring it within 1\".", Q_CHARGE)


def _check_escape(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "escape")
    if not u.locked:
        raise refuse("not_locked", f"{u.name} is not in Melee Lock.", Q_ESCAPE)


def _check_disembark(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "disembark")
    if u.inside is None:
        raise refuse("not_inside", f"{u.name} is not inside a transport.", Q_DISEMBARK)
    if "toward" in a:
        t = _other(p, a, "toward")
        if not t.on_table:
            raise refuse("no_such_unit", f"{t.name} is not on the battlefield.", "")


def _check_embark(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "embark")
    b = p.b
    v = _other(p, a, "transport")
    if v.side != u.side or not v.on_table:
        raise refuse("not_a_transport", f"{v.name} is not a friendly vehicle on the table.",
                     Q_CAPACITY)
    if not (v.vehicle and "transport" in v.subtypes and v.capacity > 0):
        raise refuse("not_a_transport", f"{v.name} cannot carry troops.", Q_TRANSPORT)
    if u.vehicle or {"giant", "cavalry"} & u.subtypes:
        raise refuse("cannot_embark", f"{u.name} is not Infantry a transport can carry.",
                     Q_TRANSPORT)
    room = v.capacity - sum(x.alive for x in b.passengers(v))
    if u.alive > room:
        raise refuse("transport_full", f"{v.name} has room for {room} more model(s), and "
                     f"{u.name} has {u.alive}.", Q_CAPACITY)
    allowed = _allowed(b, u, "rapid")
    reach = allowed["inches"] if allowed["allowed"] else _allowed(b, u, "standard")["inches"]
    if reach is not None and dist(u, v) - T.LOCK_RANGE > reach:
        raise refuse("out_of_reach", f"{v.name} is {dist(u, v):g}\" away, beyond "
                     f"{u.name}'s move.", Q_CAPACITY)


def _check_join(p: Play, u: Unit, a: Json) -> None:
    b = p.b
    if u.vehicle or not u.hero or len(u.hp) != 1:
        raise refuse("not_independent", f"{u.name} is not an Independent.", Q_INDEPENDENT_JOIN)
    host = _other(p, a, "host")
    if u.joined is not None:
        raise refuse("already_joined", f"{u.name} has already joined "
                     f"{b.unit(u.joined).name}.", Q_ONE_HOST)
    _mover(p, u, "join")
    if (host.side != u.side or not host.on_table or host.vehicle or host.hero
            or host.inside is not None or host.id == u.id):
        raise refuse("cannot_join", f"{u.name} cannot join {host.name}: only a friendly "
                     "unit of models on the battlefield.", Q_INDEPENDENT_JOIN)
    if host.flying and not u.flying:
        raise refuse("cannot_reach_flyer", f"{host.name} is in flight and {u.name} is not.",
                     Q_AIR)
    reach = _allowed(b, u, "standard")
    if not reach["allowed"] or dist(u, host) - T.LOCK_RANGE > reach["inches"]:
        raise refuse("out_of_reach", f"{host.name} is {dist(u, host):g}\" away, beyond "
                     f"{u.name}'s Standard Move.", Q_INDEPENDENT_JOIN)


def _check_howl(p: Play, u: Unit, a: Json) -> None:
    _mover(p, u, "howl")
    if "cry_of_the_wolf" not in u.rules or u.vehicle:
        raise refuse("cannot_howl", f"{u.name} has no War Howl.", Q_HOWL)
    if u.howl_used:
        raise refuse("howl_used", f"{u.name} has already howled in this battle (R-MOB-25).",
                     Q_HOWL)


def _check_reserve(p: Play, u: Unit) -> None:
    b = p.b
    if not (u.reserve and u.in_play):
        raise refuse("not_in_reserve", f"{u.name} is not in Reserve.", Q_RESERVES)
    if b.reserve_room.get(u.side, 0) <= 0:
        raise refuse("reserve_limit", "No more units may come from Reserve this turn.",
                     f"{Q_RESERVES} {Q_COMMANDER}")
    if "ambush" in u.rules and b.turns_played[u.side] < 2:
        raise refuse("ambush_later", f"{u.name} springs its ambush from its army's second "
                     "turn (R-MOB-34).", Q_AMBUSH)


# action and hero ----------------------------------------------------------------------------
def _actor_fit(p: Play, u: Unit, *, hero: bool) -> None:
    if u.skip_turn:
        raise refuse("howled", f"{u.name} skipped its turn for a War Howl.", Q_HOWL)
    if u.inside is not None:
        raise refuse("inside_transport", f"{u.name} is inside a transport.", Q_PASSENGER)
    if hero:
        if not (u.hero or R.blitz(rules=u.rules_list, vehicle=u.vehicle,
                                  turn=p.b.turns_played[u.side])):
            raise refuse("not_a_hero", f"{u.name} is neither a Hero nor an HQ.", Q_HERO)
        if u.blip:
            raise refuse("blip_no_hero_phase", f"{u.name} is still a Blip.", Q_BLIP_HERO)
    elif u.movement == "rapid" and not (u.locked and not u.vehicle):
        raise refuse("rapid_move_no_action", f"{u.name} made a Rapid Move and skips its "
                     "Action Phase.", Q_RAPID_FIRE)


def _check_fire(p: Play, u: Unit, a: Json, *, hero: bool = False) -> None:
    _actor_fit(p, u, hero=hero)
    if u.blip and not hero:
        raise refuse("blip_cannot_fire", f"{u.name} is a Blip: it may only Reveal Blip or "
                     "Take Cover.", Q_BLIP_ACTS)
    if u.locked and not u.vehicle:
        raise refuse("locked_in_melee", f"{u.name} is in Melee Lock.", Q_LOCK_FIRE)
    if u.rc is None or not u.ranged():
        raise refuse("no_ranged_weapon", f"{u.name} has no ranged weapon.",
                     "RNG: Range This is the maximum effective Range of the weapon")
    t = _other(p, a, "target")
    _enemy_target(p, u, t)
    if t.locked and not t.vehicle:
        raise refuse("target_in_melee", f"{t.name} is in Melee Lock.", Q_INTO_MELEE)
    keys = _weapon_keys(a)
    if not keys:
        raise refuse("no_weapon", "Name the weapon (`weapon`) or weapons (`weapons`) to fire.",
                     "All Unit members must choose one Ranged Weapon or Attack to use each.")
    mine = u.ranged_by_key
    for k in keys:
        if k not in mine:
            raise refuse("no_such_weapon", f"{u.name} has no ranged weapon {k!r}.",
                         "All Unit members must choose one Ranged Weapon or Attack to use "
                         "each.")
    movement = E.firing_movement(u, hero)
    for k in keys:
        if E._weapon_ak(u, mine[k], movement) == 0:
            raise refuse("cannot_fire_after_moving", f"{mine[k]['name']} cannot fire after "
                         f"a {movement} move.", Q_HEAVY)
    if u.vehicle or "giant" in u.subtypes:
        limit = E.weapon_limit(u, hero) if u.vehicle else 2
        if hero:
            limit = 1 if limit is None else min(limit, 1)
        if limit is not None and len(keys) > limit:
            raise refuse("too_many_weapons", f"{u.name} may fire {limit} weapon(s) now, not "
                         f"{len(keys)}.", Q_VEHICLE_WEAPONS if u.vehicle else
                         "Giant Units may make up to two Ranged Attacks per Action and/or "
                         "Hero Phase.")
        if len(set(keys)) < len(keys) and sum(1 for w in u.ranged()
                                              if w["key"] == keys[0]) < keys.count(keys[0]):
            raise refuse("weapon_twice", f"{u.name} fires each weapon once.", Q_TWICE)
    else:
        if hero and len(set(keys)) > 1:
            raise refuse("too_many_weapons", f"{u.name} fires one weapon in the Hero Phase.",
                         "Heroes and HQ Units may fire any one of their Ranged Weapons in "
                         "their Hero Phase")
        if len(keys) > 1 and len(keys) != u.alive:
            raise refuse("one_weapon_each", f"{u.name} has {u.alive} model(s): name one "
                         f"weapon for all, or one for each ({len(keys)} named).",
                         "All Unit members must choose one Ranged Weapon or Attack to use "
                         "each.")
    d = dist(u, t)
    if not any(mine[k]["rng"] >= d for k in keys):
        ranges = ", ".join(f"{mine[k]['name']} {mine[k]['rng']}\"" for k in dict.fromkeys(keys))
        raise refuse("out_of_range", f"{t.name} is {d:g}\" away, beyond the range of every "
                     f"weapon {u.name}'s models chose ({ranges}).", Q_RANGE)


def _check_hero_fire(p: Play, u: Unit, a: Json) -> None:
    _check_fire(p, u, a, hero=True)


def _check_cover(p: Play, u: Unit, a: Json, *, hero: bool = False) -> None:
    _actor_fit(p, u, hero=hero)
    if u.vehicle:
        raise refuse("cannot_take_cover", f"{u.name} is a vehicle.", Q_NO_COVER)
    if not R.take_cover(infantry=True, subtypes=u.subtypes_list, rules=u.rules_list,
                        blip=u.blip)["allowed"]:
        raise refuse("cannot_take_cover", f"{u.name} may not Take Cover.",
                     "Due to their size, Cavalry may not Take Cover.")


def _check_hero_cover(p: Play, u: Unit, a: Json) -> None:
    _check_cover(p, u, a, hero=True)


def _check_hold(p: Play, u: Unit, a: Json) -> None:
    return


def _check_reveal_blip(p: Play, u: Unit, a: Json) -> None:
    _actor_fit(p, u, hero=False)
    if u.locked and not u.vehicle:
        raise refuse("locked_in_melee", f"{u.name} is in Melee Lock.",
                     "Special Commands aren't doable in Melee Lock without the Unlocked "
                     "Subtype.")
    t = _other(p, a, "target")
    if t.side == u.side or not t.on_table:
        raise refuse("not_an_enemy", f"{t.name} is not an enemy on the battlefield.", Q_REVEAL)
    if not t.blip:
        raise refuse("not_a_blip", f"{t.name} is already revealed.", Q_REVEAL)
    if dist(u, t) > REVEAL_BLIP_RANGE:
        raise refuse("out_of_range", f"{t.name}'s blip is {dist(u, t):g}\" away, beyond 36\".",
                     Q_REVEAL)


def _check_fight(p: Play, u: Unit, a: Json) -> None:
    _actor_fit(p, u, hero=True)
    if not u.locked or u.vehicle:
        raise refuse("not_locked", f"{u.name} is not in Melee Lock.", Q_HERO_MELEE)


def _check_push_it(p: Play, u: Unit, a: Json) -> None:
    _actor_fit(p, u, hero=True)
    if u.locked:
        raise refuse("locked_in_melee", f"{u.name} is in Melee Lock.", Q_LOCK_MOVE)
    if u.joined is not None:
        raise refuse("moves_with_its_unit", f"{u.name} has joined a unit (R-MOB-38).",
                     Q_INDEPENDENT_MOVES)
    t = _other(p, a, "toward")
    if not t.on_table or t.id == u.id:
        raise refuse("no_such_unit", f"{u.name} cannot push it toward {t.name}.", Q_PUSH)


Check = Callable[[Play, Unit, Json], None]
PHASE_VERBS: dict[str, dict[str, Check]] = {
    "movement": {"stay": _check_stay, "move": _check_move, "charge": _check_charge,
                 "escape": _check_escape, "disembark": _check_disembark,
                 "embark": _check_embark, "howl": _check_howl, "join": _check_join,
                 "reserve": lambda p, u, a: _check_reserve(p, u)},
    "action": {"fire": _check_fire, "take_cover": _check_cover, "hold": _check_hold,
               "reveal_blip": _check_reveal_blip},
    "hero": {"fire": _check_hero_fire, "fight": _check_fight, "push_it": _check_push_it,
             "take_cover": _check_hero_cover, "hold": _check_hold},
}
VERBS = {v for verbs in PHASE_VERBS.values() for v in verbs} | {"next", "allocate", "reveal"}


# --- playing a legal action -----------------------------------------------------------------
def _play(p: Play, a: Json) -> None:
    b = p.b
    do = str(a["do"])
    if do == "next":
        _end_phase(p)
        return
    u = _unit(p, a)
    if do == "allocate":
        u.allocation = str(a["order"])
        return
    if do == "reveal":
        u.blip = False
        return
    if do == "reserve":
        E.bring_in(b, u)  # it has made its Standard Move: it acts no more this phase
        p.acted.add(u.id)
        return
    p.acted.add(u.id)
    if p.phase == "movement":
        if do == "escape":
            E.escape(b, u)
        elif do == "disembark":
            E.disembark(b, u, b.unit(int(a["toward"])) if "toward" in a else None)
        elif do == "embark":
            E.embark(b, u, b.unit(int(a["transport"])))
        elif do == "join":
            E.join(b, u, b.unit(int(a["host"])))
        else:
            if u.joined is not None and do in ("move", "charge"):
                E.leave(b, u)
            E.move_unit(b, u, a)
    elif do == "fire":
        E.fire(b, u, b.unit(int(a["target"])), _weapon_keys(a), hero=p.phase == "hero")
    elif do == "take_cover":
        E.take_cover(b, u, p.phase)
    elif do == "reveal_blip":
        E.reveal_blip(b, u, b.unit(int(a["target"])))
    elif do == "fight":
        E.hero_fight(b, u)
    elif do == "push_it":
        E.push_it(b, u, b.unit(int(a["toward"])))


def _weapon_keys(a: Json) -> list[str]:
    if a.get("weapons") is not None:
        return [str(k) for k in a["weapons"]]
    return [str(a["weapon"])] if a.get("weapon") is not None else []


def _allowed(b: Battle, u: Unit, kind: str) -> Json:
    """A move's allowance without rolling (a Heavy unit's +D6 is not known yet: None)."""
    heavy_rapid = kind == "rapid" and "heavy" in u.subtypes
    a = R.move_allowance(move=u.move, kind=kind, subtypes=u.subtypes_list,
                         bonus=6 if heavy_rapid else None, flying=u.flying,
                         move_flying=u.move_flying, start_terrain=b.terrain_at(u.x),
                         rules=u.rules_list)
    return {**a, "inches": None if heavy_rapid and a["allowed"] else int(a["inches"])}


# --- the default policy, unit by unit ---------------------------------------------------------
def _mine(p: Play) -> list[Unit]:
    """The active side's units in campaign-id order (kept for the turn)."""
    if p.mine_of != p.side_i:
        p.mine = sorted((u for u in p.b.units if u.side == p.side), key=lambda u: u.id)
        p.mine_of = p.side_i
    return p.mine


def _waiting(p: Play) -> list[Unit]:
    return [u for u in _mine(p) if u.reserve and u.in_play]


def _eligible(p: Play, u: Unit) -> bool:
    """Whether the default policy has this unit act in the phase (the units the seed lets
    act; the others sit the phase out)."""
    b = p.b
    if u.id in p.acted or u.destroyed or u.routed or u.reserve:  # acted, or not on the table
        return False
    if p.phase == "movement":
        return u.joined is None or not b.shielded_by_host(u)
    if u.panicked or u.skip_turn or u.inside is not None:
        return False
    if p.phase == "action":
        return u.movement != "rapid" and not (u.locked and not u.vehicle)
    return u.hero or R.blitz(rules=u.rules_list, vehicle=u.vehicle,
                             turn=b.turns_played[u.side])


def _default(p: Play) -> Json:
    b = p.b
    if p.phase == "movement":
        waiting = P.reserve_to_bring(b, p.side)
        if waiting is not None:
            return {"do": "reserve", "unit": waiting.id}
    decide = DECIDE[p.phase]
    mine = _mine(p)
    while p.cursor < len(mine):  # each unit in campaign-id order, asked once at its turn
        u = mine[p.cursor]
        if _eligible(p, u):
            act = decide(b, u)
            if not _idle(b, u, act):
                act["unit"] = u.id
                return act
        p.cursor += 1
    return {"do": "next"}


def _idle(b: Battle, u: Unit, act: Json) -> bool:
    """A choice that changes nothing (holding; staying put where no rule moves the unit
    or rolls for it): the policy leaves the unit be instead of playing it."""
    if act["do"] == "hold":
        return True
    if act["do"] != "stay":
        return False
    if u.panicked or u.locked:
        return True
    return (u.inside is None and not u.move_min
            and not (u.vehicle and b.terrain_at(u.x) != "open"))


DECIDE: dict[str, Callable[[Battle, Unit], Json]] = {
    "movement": P.movement, "action": P.action, "hero": P.hero}


def _candidates(p: Play, u: Unit) -> list[Json]:
    """Actions `legal` offers for one unit (checked before they are listed): the policy's
    own, and the other choices a player has, toward or at each enemy."""
    b = p.b
    foes = sorted(b.enemies(u), key=lambda e: (dist(u, e), e.id))
    out: list[Json] = []
    if p.phase == "movement":
        out += [{"do": "stay"}, {"do": "escape"}, {"do": "howl"}]
        for e in foes:
            out += [{"do": "move", "kind": "standard", "toward": e.id},
                    {"do": "move", "kind": "rapid", "toward": e.id},
                    {"do": "charge", "target": e.id, "kind": "standard"},
                    {"do": "charge", "target": e.id, "kind": "rapid"}]
        if u.inside is not None:
            out += [{"do": "disembark", "toward": e.id} for e in foes[:1]] or [
                {"do": "disembark"}]
        out += [{"do": "embark", "transport": v.id} for v in b.units
                if v.side == u.side and v.vehicle and v.capacity and v.on_table]
        out += [{"do": "join", "host": h.id} for h in b.units
                if h.side == u.side and h.id != u.id and not h.vehicle and not h.hero]
    elif p.phase in ("action", "hero"):
        for e in foes:
            out += [{"do": "fire", "target": e.id, "weapons": [w["key"]]}
                    for w in u.ranged()]
        out += [{"do": "take_cover"}, {"do": "hold"}]
        if p.phase == "action":
            out += [{"do": "reveal_blip", "target": e.id} for e in b.units
                    if e.side != u.side and e.blip]
        else:
            out += [{"do": "fight"}] + [{"do": "push_it", "toward": e.id} for e in foes[:1]]
    return out


# --- setting up a situation -------------------------------------------------------------------
UNIT_KEYS = {"x", "hp", "movement", "locked", "panicked", "inside", "reserve", "blip",
             "flying", "dug_in", "charged", "fired", "allocation"}


def _setup(p: Play, setup: Json) -> None:
    """`set` keys: `units: {id: {x, hp, movement, locked: [ids], panicked, inside, reserve,
    blip, flying, dug_in, charged, fired, allocation}}`, `blips: true` (every unit starts
    as a Blip), `had_turn: [sides]`, `side` (whose turn it is) and `phase`."""
    b = p.b
    unknown = set(setup) - {"units", "blips", "had_turn", "side", "phase"}
    if unknown:
        raise RulesetError(f"Unknown setup key(s): {', '.join(sorted(unknown))}.")
    if setup.get("blips"):
        for u in b.units:
            u.blip = True
    for sid in setup.get("had_turn") or ():
        b.had_turn.add(str(sid))
    if setup.get("side") is not None:
        p.turn_to(b.order.index(str(setup["side"])))
        _open(p, "movement")
    for uid, values in (setup.get("units") or {}).items():
        u = b.unit(int(uid))
        bad = set(values) - UNIT_KEYS
        if bad:
            raise RulesetError(f"Unknown unit setup key(s): {', '.join(sorted(bad))}.")
        for key, value in values.items():
            if key == "locked":
                for other in value:
                    u.locked.add(int(other))
                    b.unit(int(other)).locked.add(u.id)
            elif key == "hp":
                u.hp = [int(h) for h in value]
            elif key == "x":
                u.x = float(value)
            else:
                setattr(u, key, value)
    phase = setup.get("phase")
    if phase is not None:
        if phase not in PHASES:
            raise RulesetError(f"Unknown phase {phase!r} (one of {', '.join(PHASES)}).")
        if phase != "movement":
            E.end_movement(b)
        p.phase, p.acted, p.cursor = str(phase), set(), 0


def _unit_view(u: Unit) -> Json:
    return {"side": int(u.side), "name": u.name, "x": u.x, "hp": [h for h in u.hp if h > 0],
            "models": u.alive, "movement": u.movement, "locked": sorted(u.locked),
            "panicked": u.panicked, "inside": u.inside, "reserve": u.reserve,
            "blip": u.blip, "destroyed": u.destroyed, "routed": u.routed,
            "dug_in": u.dug_in, "charged": u.charged, "fired": u.fired,
            "flying": u.flying, "allocation": u.allocation, "joined": u.joined}


LAYER = MobiusActions()
