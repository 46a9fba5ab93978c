"""30 Minute Missions as refereed choices (issue 28): the battle state, the actions the
side to act may take now, and `apply`, which plays one action or refuses it with a code
and the seed's sentence, changing nothing (every check runs before anything changes).

A round: sides activate one unit at a time in turn, the attacker first ("the player with
initiative activates a Unit ... then the next player"). A unit's turn: `activate` (roll
AP), then its phases in order, Movement, Ranged Combat, Close Combat ("They are allowed
to skip over phases but they cannot go back"), then `end_turn` (unused AP stored, capped
at 16; the hex's end-of-turn effect). The verbs (`do`) and `set` keys are listed in
docs/rulings/thirtymm.md ("The action layer").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from battles.rulesets.base import ActionRefused, Plan, RulesetError, plans_of
from battles.rulesets.thirtymm import engine as E
from battles.rulesets.thirtymm import rules as R
from battles.rulesets.thirtymm import tables as T
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

Json = dict[str, Any]
PHASES = ("move", "ranged", "close")
_ROWS: Final = T.ROWS
BASIC = {"key": "basic", "name": "a basic attack", "kind": "melee", **T.BASIC_ATTACK}

# The seed's sentences a refusal quotes.
Q_TURNS = ("Units can only be activated once per Round. After the unit has completed its "
           "turn the next player with initative may activate a unit.")
Q_PHASES = ("They are allowed to skip over phases but they cannot go back to a prior or "
            "skipped phase afterward.")
Q_ROTATE = ("Units may rotate around on the same hex to change their Field of View at the cost "
            "of 1 Standard Movement Point. Once per Movement Phase, a Unit can rotate freely "
            "around on the same hex without having to use a Standard Movement Point.")
Q_MOVE_FOV = "A unit may move onto one of the three hexes within the Units Field of View"
Q_STANDARD = ("Standard Movement: Moving a Unit normally based on the Standard Movement stat "
              "available to its Classification.")
Q_OPPOSING = ("Two Units on opposing sides cannot occupy the same hex unless stated otherwise "
              "or one is on another elevation from the other.")
Q_THRUSTER = ("Thruster Movement: ... Forfeit Ranged and Close Combat phases if used. The path a "
              "Unit takes is linear in the direction the player chooses.")
Q_THRUSTERS_ONLY = "Only available to use when the Unit has any thrusters attached."
Q_AERIAL = "Can only use thruster movement."
Q_ONE_MOVE = "Next, a Unit may take a Move action."
Q_FOV = ("Choose a target that is within your Unit's Field of View (FoV) and Line of Sight "
         "(LoS).")
Q_RANGE = ("If the Target Unit is a distance under or equal to the Range stat then you may "
           "complete the attack.")
Q_MELEE_RANGE = "All melee weapons have a range of 1 unless otherwise stated."
Q_STRUCTURE = ("If you wish to attack a Unit through a structure, you will first need to "
               "destroy it and then make a separate attack targeting the intended Unit.")
Q_AP = ("Action Points can be used throughout that Unit's turn on Attacking or Command "
        "Actions.")
Q_RANGED = ("If a Unit chooses to take the Ranged Combat Phase then it may use any Ranged "
            "Weapon it has to attack with.")
Q_CLOSE = ("The Close Combat Phase is similar to the Ranged Combat Phase with the major "
           "difference being that instead of using Ranged Weapons to attack, the Unit uses "
           "Melee Weapons.")
Q_GRAPPLE = "Grappling can only be performed during the Close Combat Phase and by Units with Arms."
Q_GRAPPLE_EVADED = ("Is successful: the grapple is evaded and the attacking Unit can no longer "
                    "initiate another grapple.")
Q_HOLD_OR_THROW = ("When a Unit successfully Grapples, it occupies the same hex as the enemy and "
                   "is able to do one of two things: Throw or Hold the enemy.")
Q_HELD = ("While being held, the enemy gains -5 to Accuracy Rolls, cannot make Assault Rolls, "
          "and cannot evade incoming attacks.")
Q_HELD_MOVE = "Both Units cannot move from the hex while the Hold token exists."
Q_THROW_FOV = "An enemy can only be Thrown within the FoV of the attacking Unit."
Q_THROW_FAR = ("Use the Throw Distance formula to determine the maximum distance the enemy can "
               "be thrown.")
Q_THROW_UP = "Units can only be thrown to the same elevation or lower."
Q_THROW_CLASS = "Units are unable to throw other Units that have a higher Classification."
Q_BREAK = ("At the start of its next turn, it can use the Break Grapple Command Action to free "
           "itself. When used, it moves to the hex directly behind it and faces the attacker. "
           "If that hex is unavailable, it may move to one of the other hexes in its blind "
           "spot facing the attacker. If no hexes are available, the Command Action cannot be "
           "used.")
Q_GROUND = ("On the defending Unit's next turn, it must use the GetUp Command Action to get "
            "back on its feet. Otherwise, it will remain on the ground.")
Q_CA = ("All Command Actions require 2 Action Points to conduct and can be used multiple "
        "times within a single turn.")
Q_INOPERATIVE = ("If a Mech Unit's Torso Core Part remains intact but its limbs are all "
                 "destroyed, it is considered Inoperative.")
Q_STUCK = ("The Unit is unable to move and is considered Inoperable until the stuck "
           "condition is removed.")
Q_DISENGAGE = ("If the grappling Unit wishes to disengage the Grapple, they may remove the "
               "token from play and move to the hex they initially started the grapple from.")
Q_EDGE = ("Standard Deployment Areas are the first 3 hexes from the short side table edge on "
          "both sides.")
Q_SURRENDER = "This continues until the Mission is completed or a player surrenders."
Q_OVER = ("The battle ends when the number of turns pass in the mission briefing or all of one "
          "side's units have become destroyed or inoperable.")


def refuse(code: str, message: str, rule: str) -> ActionRefused:
    return ActionRefused(code, message, rule)


@dataclass
class Turn:
    """The unit whose turn it is and what it has done this turn."""

    unit: E.Unit
    phase: str = "move"
    points: int = 0  # standard movement points left
    rotated: bool = False  # the free rotation of this movement phase is used
    moved: bool = False  # a standard move or a rotation was made (no thruster run after)
    thrust: bool = False  # a thruster run was made: both combat phases are forfeit
    grapple_evaded: bool = False
    grappling: E.Unit | None = None  # a grapple won: hold or throw it now
    grapple_from: H.Hex | None = None
    attacks: dict[str, int] = field(default_factory=lambda: {"ranged": 0, "close": 0})
    #: The policy's notes for this turn (its goal, what it has done); never a rule.
    memo: dict[str, Any] = field(default_factory=dict)

    def __init__(self, unit: E.Unit, phase: str = "move", points: int = 0,
                 rotated: bool = False, moved: bool = False, thrust: bool = False,
                 grapple_evaded: bool = False, grappling: E.Unit | None = None,
                 grapple_from: H.Hex | None = None, attacks: dict[str, int] | None = None,
                 memo: dict[str, Any] | None = None) -> None:
        """The dataclass's own `__init__`, written out: a compiled engine builds a turn
        natively (the generated one runs interpreted, ~5 k instructions a turn)."""
        self.unit = unit
        self.phase = phase
        self.points = points
        self.rotated = rotated
        self.moved = moved
        self.thrust = thrust
        self.grapple_evaded = grapple_evaded
        self.grappling = grappling
        self.grapple_from = grapple_from
        self.attacks = {"ranged": 0, "close": 0} if attacks is None else attacks
        self.memo = {} if memo is None else memo


@dataclass
class Play:
    """The layer's battle state: the engine's battle plus the round's bookkeeping."""

    b: E.Battle
    limit: int
    acted: set[int] = field(default_factory=set)
    turn: Turn | None = None
    over: bool = False
    #: Holder id -> (held unit id, the hex the holder grappled from).
    holds: dict[int, tuple[int, H.Hex]] = field(default_factory=dict)
    #: The side to activate a unit next while no unit's turn is in progress (kept by
    #: `_advance`, which runs after every turn).
    next_side: str | None = None
    #: Each side's short table edge, as the hex direction that leaves the board over it
    #: (3: west, 0: east): the edge of its deployment area, the one it withdraws by
    #: (R-30-24).
    home: dict[str, int] = field(default_factory=dict)
    #: The sides' sealed plans (issue 29) and their strength as deployed, in durability
    #: points (R-30-25); the sides whose plan has made them withdraw.
    plans: dict[str, Plan] = field(default_factory=dict)
    start_strength: dict[str, int] = field(default_factory=dict)
    withdrawing: set[str] = field(default_factory=set)


# -- start -------------------------------------------------------------------------------

def start(battle_input: Json, dice: Dice, setup: Json | None = None, *,
          keep_log: bool = True, cache: dict[str, Any] | None = None) -> Play:
    """The battle after deployment and the mission roll (`setup["mission"]` names it
    instead, rolling nothing), with `setup`'s adjustments."""
    setup = dict(setup or {})
    plans = read_plans(battle_input)
    b = E.build(battle_input, dice, keep_log, cache)
    strangers = sorted(set(plans) - set(b.sides))
    if strangers:
        raise RulesetError(f"There is a battle plan for side {strangers[0]}, which does not "
                           "fight in this battle.")
    size = str(battle_input.get("engagement") or "scouting")
    if setup.get("mission"):
        name = str(setup.pop("mission"))
        if name not in T.BRIEFINGS:
            raise RulesetError(f"There is no mission {name!r}.")
        b.mission = {"roll": None, "mission": name, "objective": T.BRIEFINGS[name].kind}
    else:
        b.mission = R.mission(dice, size)
    briefing = T.BRIEFINGS[b.mission["mission"]]
    b.markers = [E.canonical(H.to_axial(c, r)) for c, r in briefing.markers]
    b.note(action="mission", **b.mission,
           text=f"{size.capitalize()}: the mission is {b.mission['mission']} "
                f"(d8 {b.mission['roll']}, {b.mission['objective']})")
    limit = int(b.options.get("thirtymm_max_rounds", T.OPTIONS["thirtymm_max_rounds"]))
    play = Play(b=b, limit=limit, home=home_edges(b), plans=plans)
    b.round = 1
    b.options["end_reason"] = "turn_limit"
    if setup:
        _set(play, setup)
    play.start_strength = {side: sum(strength(u) for u in b.units if u.side == side)
                           for side in b.sides}
    _advance(play)
    return play


def read_plans(battle_input: Json) -> dict[str, Plan]:
    """The battle input's plans by side key; a malformed plan is refused (RulesetError)."""
    try:
        return plans_of(battle_input)
    except (TypeError, ValueError, AttributeError) as error:
        raise RulesetError(f"A battle plan is malformed: {error}.") from None


WEST, EAST = 3, 0


def home_edges(b: E.Battle) -> dict[str, int]:
    """R-30-24: a side's own table edge is the short edge of its deployment area ("the
    first 3 hexes from the short side table edge on both sides"): the west edge when its
    units start, on average, in the western half of the board, else the east."""
    out = {}
    for side in b.sides:
        cols = [E.offset_of(u.at)[0] for u in b.units if u.side == side]
        mean = sum(cols) / len(cols) if cols else 0
        out[side] = WEST if mean < (T.LONG_ROW - 1) / 2 else EAST
    return out


def on_edge(h: H.Hex, edge: int) -> bool:
    """The hex is on that short table edge (the outermost hex of its row)."""
    col, row = E.offset_of(h)
    return col == 0 if edge == WEST else col == T.row_length(row) - 1


def strength(u: E.Unit) -> int:
    """R-30-25: a unit's strength is the durability left in its sections while it can
    still fight or has left the field; a destroyed or inoperative unit has none."""
    if u.condition != "operative":
        return 0
    return sum(max(0, int(s["durability"])) for s in u.sections)


def lost_share(play: Play, side: str) -> int:
    """The percent of the side's starting strength it has lost (R-30-25)."""
    start = play.start_strength.get(side, 0)
    if start <= 0:
        return 0
    return round(100 * max(0, start - kept_strength(play, side)) / start)


def kept_strength(play: Play, side: str) -> int:
    return sum(strength(u) for u in play.b.units if u.side == side)


def _set(play: Play, setup: Json) -> None:
    """A case's adjustments, in the layer's own keys (docs/rulings/thirtymm.md)."""
    b = play.b
    known = {"round", "acted", "units", "structures", "active", "phase", "points", "rotated",
             "ap", "holds"}
    unknown = set(setup) - known
    if unknown:
        raise RulesetError("Unknown setup keys: " + ", ".join(sorted(unknown)) + ".")
    if "round" in setup:
        b.round = int(setup["round"])
    for uid, spec in (setup.get("units") or {}).items():
        u = _unit(b, uid)
        if "at" in spec:
            u.at = E.canonical(H.to_axial(*spec["at"]))
        for key in ("facing", "elevation", "ap"):
            if key in spec:
                setattr(u, key, int(spec[key]))
        if "class" in spec:
            u.cls = int(spec["class"])
        if "status" in spec:
            u.status = set(spec["status"])
        for key, value in (spec.get("sections") or {}).items():
            u.section(str(key))["durability"] = int(value)
        u.refresh()
    for spec in setup.get("structures") or ():
        h = E.canonical(H.to_axial(*spec["at"]))
        b.structures[h] = {"id": 0, "kind": "", "at": list(spec["at"]), "elevation": 1,
                           "defense": int(spec.get("defense", R.structure_defense(1, 1)))}
        b.colour.pop(h, None)
        b.standing_structures = frozenset(b.structures)
    for holder, (held, frm) in (setup.get("holds") or {}).items():
        play.holds[int(holder)] = (int(held), H.to_axial(*frm))
        _unit(b, holder).status.add("holding")
        _unit(b, held).status.add("hold")
    play.acted = {int(i) for i in setup.get("acted") or ()}
    if setup.get("active") is not None:
        u = _unit(b, setup["active"])
        play.acted.add(u.id)
        play.turn = Turn(unit=u, points=_standard_points(b, u))
        if "ap" in setup:
            u.ap = int(setup["ap"])
        if "phase" in setup:
            if setup["phase"] not in PHASES:
                raise RulesetError(f"phase is one of {', '.join(PHASES)}.")
            play.turn.phase = str(setup["phase"])
        if "points" in setup:
            play.turn.points = int(setup["points"])
        play.turn.rotated = bool(setup.get("rotated", False))


def _unit(b: E.Battle, uid: Any) -> E.Unit:
    found = None
    if type(uid) is int:  # the usual case, checked first
        found = b.unit(uid)
    elif isinstance(uid, int | str) and not isinstance(uid, bool):
        try:
            found = b.unit(int(uid))
        except ValueError:
            found = None
    if found is None:
        raise refuse("unknown_unit", f"There is no unit {uid!r} in this battle.", "")
    return found


def _standard_points(b: E.Battle, u: E.Unit) -> int:
    water = _HEX_COLOURS[b.colour.get(u.at, "grey")].water and not (
        "cruise" in u.systems or "swim" in u.systems)
    return R.standard_movement(u.movement, u.penalties()["movement"], water,
                               half=_half_legs(b))


def _thrust_length(b: E.Battle, u: E.Unit) -> int:
    """"The Thruster Movement stat doubles the Units Standard Movement"."""
    return 2 * R.standard_movement(u.movement, u.penalties()["movement"],
                                   half=_half_legs(b))


def _half_legs(b: E.Battle) -> str:
    """The campaign's `thirtymm_half_legs` (R-30-7)."""
    half = b.options.get("thirtymm_half_legs", _HALF_LEGS)
    return half if isinstance(half, str) else str(half)


#: The tables the layer reads at every turn, as its own final names (a compiled module
#: reads another's attribute by name).
_HEX_COLOURS: Final = T.HEX_COLOURS
_HALF_LEGS: Final = T.OPTIONS["thirtymm_half_legs"]


# -- whose turn --------------------------------------------------------------------------

def actor(play: Play) -> int | None:
    if play.over:
        return None
    if play.turn is not None:
        return int(play.turn.unit.side)
    return int(play.next_side) if play.next_side is not None else None


def _advance(play: Play) -> None:
    """After a turn: the battle ends when one side has no operative unit; a round ends
    when every unit has acted (its markers are scored), and the next begins, up to the
    mission's turn limit."""
    b = play.b
    while not play.over and play.turn is None:
        if len(b.standing()) < 2:
            play.over = True
            b.options["end_reason"] = "one_side_left"
            return
        play.next_side = E._next_side(b, play.acted)
        if play.next_side is not None:
            return
        E._score_markers(b)
        if b.round >= play.limit:
            play.over = True
            b.options["end_reason"] = "turn_limit"
            return
        b.round += 1
        play.acted = set()


# -- the referee -------------------------------------------------------------------------

Run = Callable[[], None]


def apply(play: Play, action: Json) -> None:
    """Play one action or raise `ActionRefused` (nothing changed)."""
    check(play, action)()


def perform(play: Play, action: Json) -> None:
    """Play an action the default policy chose (`policy.choose`; `layer.play`, as
    `resolve` and the odds fight): its frequent verbs (an attack on a unit, the next
    phase, an activation, the end of a turn) are played without the referee's checks,
    which the policy's own choice already satisfies (it picks them from what those
    checks read: tests assert it chooses only legal actions, and that a battle played
    through `apply` is the same battle). The other verbs, and every action from outside
    (`apply`), are checked."""
    turn = play.turn
    do = action["do"]
    if turn is None:
        if do == "activate":
            unit = play.b.unit(action["unit"])
            if unit is not None:
                _activate(play, unit)
                return
    elif turn.grappling is None:
        if do == "attack" and "structure" not in action:
            target = play.b.unit(action["target"])
            key = action["weapon"]
            w = BASIC if key == "basic" else next(
                (w for w in turn.unit.weapons if w["key"] == key), None)
            if target is not None and w is not None:
                _attack(play.b, turn, w, target, None)
                return
        elif do == "phase":
            turn.phase = str(action["to"])
            return
        elif do == "end_turn":
            _end_turn(play, turn)
            return
    check(play, action)()


def check(play: Play, action: Json) -> Run:
    """Every check of one action; answers what plays it (nothing has changed yet)."""
    if not isinstance(action, dict):
        raise refuse("bad_action", "An action is a mapping with a side and a verb.", "")
    do = str(action.get("do", ""))
    verb = VERBS.get(do)
    if verb is None:
        raise refuse("unknown_action", f"There is no action {do!r} in 30 Minute Missions "
                     f"(the actions: {', '.join(sorted(VERBS))}).", "")
    if play.over:
        raise refuse("battle_over", "The battle is over.", Q_OVER)
    side = actor(play)
    try:
        chosen = int(action.get("side"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise refuse("not_your_turn", "The action does not say which side takes it.",
                     Q_TURNS) from None
    if chosen != side:
        raise refuse("not_your_turn", f"It is side {side}'s turn to act, not side {chosen}'s.",
                     Q_TURNS)
    if do == "activate":
        return _check_activate(play, action)
    turn = play.turn
    if turn is None:
        raise refuse("no_unit_active", "Activate a unit first.", Q_TURNS)
    unit = _unit(play.b, action.get("unit", turn.unit.id))
    if unit is not turn.unit:
        raise refuse("not_active", f"{unit.name} is not the unit whose turn it is "
                     f"({turn.unit.name} is).", Q_TURNS)
    if turn.grappling is not None and do not in ("hold", "throw"):
        raise refuse("hold_or_throw", f"{unit.name} has grappled {turn.grappling.name} and "
                     "must hold or throw it first.", Q_HOLD_OR_THROW)
    return verb(play, turn, action)


def _check_activate(play: Play, action: Json) -> Run:
    b = play.b
    if play.turn is not None:
        raise refuse("turn_in_progress", f"{play.turn.unit.name}'s turn is not over yet.",
                     Q_TURNS)
    unit = _unit(b, action.get("unit"))
    if str(unit.side) != str(actor(play)):
        raise refuse("not_your_unit", f"{unit.name} belongs to the other side.", Q_TURNS)
    if unit.left:
        raise refuse("unit_withdrawn", f"{unit.name} has left the battlefield.", Q_SURRENDER)
    if not unit.alive:
        raise refuse("unit_destroyed", f"{unit.name} is destroyed.", Q_INOPERATIVE)
    if unit.id in play.acted:
        raise refuse("already_activated", f"{unit.name} has already acted this round.",
                     Q_TURNS)

    def run() -> None:
        _activate(play, unit)
    return run


def _activate(play: Play, unit: E.Unit) -> None:
    """The unit's turn begins (its activation checked): it rolls its AP."""
    b = play.b
    play.acted.add(unit.id)
    if "overheat" in unit.status:
        unit.status.discard("overheat")
        b.note(side=unit.side, unit=unit.id, action="overheat",
               text=f"{unit.name} is overheated and kneels: its turn ends")
        _advance(play)
        return
    frozen = "freeze" in unit.status
    unit.status.discard("freeze")
    ap = R.roll_ap(b.dice, stored=unit.ap, ap_bonus=unit.ap_bonus, frozen=frozen)
    unit.ap = ap["ap"]
    if b.keep_log:
        b.note(side=unit.side, unit=unit.id, action="activate", ap_roll=ap["roll"],
               ap=unit.ap, text=f"{unit.name} activates: rolls {ap['roll']} for AP, "
                                f"{unit.ap} AP")
    play.turn = Turn(unit=unit, points=_standard_points(b, unit))


def _phase_at_least(turn: Turn, phase: str, code: str, what: str, rule: str) -> None:
    """An action of `phase`: refused before it (`code`) or after it (phase_passed)."""
    now, need = PHASES.index(turn.phase), PHASES.index(phase)
    if now > need:
        raise refuse("phase_passed", f"{turn.unit.name} is in its {_PHASE_NAME[turn.phase]} "
                     f"and cannot go back to its {_PHASE_NAME[phase]} for {what}.", Q_PHASES)
    if now < need:
        raise refuse(code, f"{what[0].upper()}{what[1:]} needs the "
                     f"{_PHASE_NAME[phase]}; {turn.unit.name} is in its "
                     f"{_PHASE_NAME[turn.phase]}.", rule)


_PHASE_NAME = {"move": "movement phase", "ranged": "ranged combat phase",
               "close": "close combat phase"}


def _can_move(play: Play, turn: Turn, what: str) -> None:
    u = turn.unit
    _phase_at_least(turn, "move", "not_movement_phase", what, Q_PHASES)
    if "hold" in u.status or "holding" in u.status:
        raise refuse("held_cannot_move", f"{u.name} is in a grapple and cannot leave its hex.",
                     Q_HELD_MOVE)
    if "grounded" in u.status:
        raise refuse("on_the_ground", f"{u.name} is on the ground and must get up first.",
                     Q_GROUND)
    if "stuck" in u.status:
        raise refuse("stuck", f"{u.name} is stuck.", Q_STUCK)
    if not u.operative:
        raise refuse("cannot_move", f"{u.name} is {u.condition} and cannot move.",
                     Q_INOPERATIVE)
    if turn.thrust:
        raise refuse("thrusters_used", f"{u.name} has made its thruster run this turn.",
                     Q_THRUSTER)


def _check_rotate(play: Play, turn: Turn, action: Json) -> Run:
    u = turn.unit
    _can_move(play, turn, "rotating")
    if u.utype == "aerial":
        raise refuse("thruster_only", f"{u.name} is an aerial vehicle: it turns only by "
                     "its thruster runs.", Q_AERIAL)
    facing = _facing(action)
    if facing == u.facing:
        raise refuse("already_facing", f"{u.name} already faces that way.", Q_ROTATE)
    paid = turn.rotated
    if paid and turn.points < 1:
        raise refuse("no_movement_points", f"{u.name} has used its free rotation and has no "
                     "movement point left to rotate again.", Q_ROTATE)

    def run() -> None:
        u.facing = facing
        turn.moved = True
        if paid:
            turn.points -= 1
        turn.rotated = True
        play.b.note(side=u.side, unit=u.id, action="rotate", facing=facing,
                    points=1 if paid else 0,
                    text=f"{u.name} turns to face {_DIRECTION_NAME[facing]}"
                         + (" (1 movement point)" if paid else " (its free turn)"))
    return run


_DIRECTION_NAME = ("east", "north-east", "north-west", "west", "south-west", "south-east")


def _facing(action: Json, key: str = "facing") -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise refuse("bad_direction", f"{key} is a hex direction from 0 (east) to 5 "
                     "(south-east), counter-clockwise.", "")
    return value


def _hex(action: Json, key: str) -> E.BoardHex:
    value = action.get(key)
    # (list, tuple), not list | tuple: a compiled union is an object built at each call
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise refuse("bad_hex", f"{key} is a hex as [column, row].", "")
    col, row = value[0], value[1]
    if (not isinstance(col, int) or isinstance(col, bool) or not isinstance(row, int)
            or isinstance(row, bool)):
        raise refuse("bad_hex", f"{key} is a hex as [column, row].", "")
    # the board hex of offset (col, row), by its rank (E._RANK: column x rows + row)
    rank = col * _ROWS + row if 0 <= row < _ROWS and col >= 0 else E._RANKS
    h = E._HEX_OF[rank] if rank < E._RANKS else None
    if h is None:
        raise refuse("off_board", f"{list(value)} is not on the battlefield.", "")
    return h


def enemy_hexes(b: E.Battle, u: E.Unit) -> frozenset[H.Hex]:
    """The hexes a standard move may not enter: an opposing unit at the same elevation."""
    return frozenset(e.at for e in b.units if e.alive and e.side != u.side
                     and e.elevation == u.elevation)


def _check_move(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    _can_move(play, turn, "moving")
    if u.utype == "aerial":
        raise refuse("thruster_only", f"{u.name} is an aerial vehicle and can only make "
                     "thruster runs.", Q_AERIAL)
    dest = _hex(action, "to")
    if dest == u.at:
        raise refuse("already_there", f"{u.name} is already on that hex.", Q_STANDARD)
    if dest in enemy_hexes(b, u):
        raise refuse("hex_held_by_enemy", "An enemy unit stands on that hex.", Q_OPPOSING)
    path = action.get("path")
    if path is not None:
        cost = _walk(b, u, turn, [_hex({"h": h}, "h") for h in path], dest)
    else:
        reach, _came = E.reachable(b, u, turn.points, u.facing, enemy_hexes(b, u))
        if dest not in reach:
            raise refuse("out_of_reach", f"{u.name} cannot reach {list(E.offset_of(dest))} "
                         f"with {turn.points} movement points by stepping into the hexes in "
                         "front of it.", Q_MOVE_FOV)
        cost = reach[dest]

    def run() -> None:
        start = u.at
        u.at = dest
        turn.points -= cost
        turn.moved = True
        b.note(side=u.side, unit=u.id, action="move", to=list(E.offset_of(dest)),
               points=cost, text=f"{u.name} moves from {E.offset_of(start)} to "
               f"{E.offset_of(dest)} ({cost} movement points)")
    return run


def _walk(b: E.Battle, u: E.Unit, turn: Turn, path: list[H.Hex], dest: H.Hex) -> int:
    """The movement points of a path the mover names (each hex entered in turn)."""
    if not path or path[-1] != dest:
        raise refuse("bad_path", "The path must end on the hex moved to.", Q_STANDARD)
    enemies = enemy_hexes(b, u)
    at, spent = u.at, 0
    for h in path:
        cost = next((c for n, c, _o in E.front_steps(b, u, u.facing, at) if n == h), None)
        if cost is None:
            if not any(n == h for _d, n, _c in E.steps_from(b, u, at)):
                raise refuse("impassable", f"{u.name} cannot step from "
                             f"{list(E.offset_of(at))} to {list(E.offset_of(h))}.",
                             Q_STANDARD)
            raise refuse("not_in_view", f"{list(E.offset_of(h))} is not one of the three "
                         f"hexes in front of {u.name}: rotate first.", Q_MOVE_FOV)
        if h in enemies:
            raise refuse("hex_held_by_enemy", "An enemy unit stands in the way.", Q_OPPOSING)
        spent += cost
        at = h
    if spent > turn.points:
        raise refuse("out_of_reach", f"That path costs {spent} movement points; {u.name} has "
                     f"{turn.points}.", Q_STANDARD)
    return spent


def _check_thrust(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    _can_move(play, turn, "a thruster run")
    if u.utype != "aerial" and "thrusters" not in u.systems:
        raise refuse("no_thrusters", f"{u.name} has no thrusters.", Q_THRUSTERS_ONLY)
    if turn.moved:
        raise refuse("already_moved", f"{u.name} has already moved this phase: a thruster "
                     "run is its one move action.", Q_ONE_MOVE)
    d = _facing(action, "direction")
    weapon = None
    if action.get("weapon") is not None:
        weapon = _weapon(u, str(action["weapon"]), "ranged")
    strafe = bool(action.get("strafe", True)) and u.utype == "aerial"

    def run() -> None:
        turn.thrust = True
        turn.moved = True
        thrust(b, u, d, strafe=strafe, weapon=weapon)
    return run


def thrust_path(b: E.Battle, u: E.Unit, d: int) -> list[H.Hex]:
    """"The path a Unit takes is linear ... If an obstacle blocks the full travel length,
    the Unit stops one hex prior to that obstacle": the board's edge, a structure, or
    (on the ground) an enemy unit at its elevation."""
    out: list[H.Hex] = []
    h = u.at
    enemies = enemy_hexes(b, u) if u.utype != "aerial" else frozenset()
    k = E._RANK.get(h)
    if k is not None:  # on the board: its neighbours by rank (`E._NEXT`)
        solid = E._terrain(b)[2]
        for _ in range(_thrust_length(b, u)):
            k = E._NEXT[k * 6 + d]
            if k < 0 or solid[k]:
                break
            n = E._HEX_OF[k]
            if n in enemies:
                break
            out.append(n)
        return out
    for _ in range(_thrust_length(b, u)):
        n = E.canonical((h[0] + H.DIRECTIONS[d][0], h[1] + H.DIRECTIONS[d][1]))
        if not E.on_board(n) or n in b.structures or n in enemies:
            break
        out.append(n)
        h = n
    return out


def thrust(b: E.Battle, u: E.Unit, d: int, *, strafe: bool, weapon: Json | None) -> None:
    """A thruster run in direction d; an aerial vehicle strafes each enemy it passes
    "a single elevation directly above" with `weapon` (None: its most damaging ranged
    weapon it has the AP for), and takes fall damage when it could not use all its
    movement ("All movement points must be used during activation")."""
    steps = thrust_path(b, u, d)
    length = _thrust_length(b, u)
    u.facing = d
    for h in steps:
        u.at = h
        below = [e for e in b.enemies(u) if e.at == h and e.elevation == u.elevation - 1]
        if below and strafe:
            target = min(below, key=lambda e: e.id)
            usable = [w for w in u.usable("ranged") if E._weapon_ap(u, w) <= u.ap
                      and (weapon is None or w["key"] == weapon["key"])]
            if usable:
                w = max(usable, key=lambda w: (int(w["damage"]), w["key"]))
                b.note(side=u.side, unit=u.id, action="strafe",
                       at=list(E.offset_of(h)), text=f"{u.name} strafes {target.name}")
                E._attack(b, u, w, target, melee=False)
    b.note(side=u.side, unit=u.id, action="move", to=list(E.offset_of(u.at)),
           points=len(steps), thruster=True,
           text=f"{u.name} makes a thruster run to {E.offset_of(u.at)}")
    if u.utype == "aerial" and len(steps) < length:
        main = u.main()
        dmg = R.fall_damage(u.cls, u.elevation)
        main["durability"] = R.apply_damage(int(main["durability"]), dmg)["durability"]
        b.note(side=u.side, unit=u.id, action="fall", damage=dmg,
               text=f"{u.name} could not use all its movement: {dmg} fall damage to "
                    "its cockpit")
        E._after_loss(b, u)


def _check_phase(play: Play, turn: Turn, action: Json) -> Run:
    to = str(action.get("to", ""))
    if to not in PHASES:
        raise refuse("unknown_phase", "The phases are move, ranged and close.", Q_PHASES)
    if PHASES.index(to) <= PHASES.index(turn.phase):
        raise refuse("phase_passed", f"{turn.unit.name} is in its "
                     f"{_PHASE_NAME[turn.phase]} and cannot go back to the "
                     f"{_PHASE_NAME[to]}.", Q_PHASES)

    def run() -> None:
        turn.phase = to
    return run


def _weapon(u: E.Unit, key: str, kind: str | None = None) -> Json:
    if key == "basic":
        return dict(BASIC)
    w = next((w for w in u.weapons if w["key"] == key), None)
    if w is None:
        raise refuse("no_such_weapon", f"{u.name} has no weapon {key!r}.", "")
    if w["mount"] == "carried":
        raise refuse("weapon_not_equipped", f"{u.name}'s {w['name']} is carried, not "
                     "equipped.", "These Weapons must be Equipped before using.")
    if int(u.section(w["section"])["durability"]) <= 0:
        raise refuse("weapon_destroyed", f"{u.name}'s {w['name']} is on a destroyed "
                     "section.", "Unit can no longer pick up objects or attack with Weapons "
                     "in that hand.")
    if kind is not None and w["kind"] != kind:
        raise refuse("wrong_weapon", f"{w['name']} is not a {kind} weapon.", Q_RANGED)
    return w


def _attack_cost(u: E.Unit, w: Json) -> int:
    return int(w["ap"]) if w["key"] == "basic" else E._weapon_ap(u, w)


def _check_attack(play: Play, turn: Turn, action: Json) -> Run:
    if action.get("structure") is not None:
        return _check_structure(play, turn, action)
    b, u = play.b, turn.unit
    w = _weapon(u, str(action.get("weapon", "")))
    melee = w["kind"] == "melee"
    if turn.thrust:
        raise refuse("thrusters_forfeit_combat", f"{u.name} made a thruster run this turn and "
                     "forfeits both combat phases.", Q_THRUSTER)
    if melee:
        _phase_at_least(turn, "close", "not_close_combat_phase", "a close combat attack",
                        Q_CLOSE)
        if "hold" in u.status:
            raise refuse("held_cannot_assault", f"{u.name} is held and cannot make assault "
                         "rolls.", Q_HELD)
    else:
        _phase_at_least(turn, "ranged", "not_ranged_phase", "a ranged attack", Q_RANGED)
    target = _unit(b, action.get("target"))
    if target.side == u.side:
        raise refuse("not_an_enemy", f"{target.name} is on {u.name}'s side.", Q_FOV)
    if target.left:
        raise refuse("target_withdrawn", f"{target.name} has left the battlefield.",
                     Q_SURRENDER)
    if not target.alive:
        raise refuse("target_destroyed", f"{target.name} is destroyed.", Q_INOPERATIVE)
    cost = _attack_cost(u, w)
    if cost > u.ap:
        raise refuse("not_enough_ap", f"{w['name']} costs {cost} AP; {u.name} has {u.ap}.",
                     Q_AP)
    if melee:
        if not R.in_range(E.hex_distance(u.at, target.at), int(w.get("range") or 1)):
            raise refuse("out_of_range", f"{target.name} is not within reach of "
                         f"{w['name']}.", Q_MELEE_RANGE)
        if not E._melee_reach(b, u, w, target):
            raise refuse("not_in_view", f"{target.name} is not in {u.name}'s field of view.",
                         Q_FOV)
    else:
        _check_ranged_reach(b, u, w, target)
    aim = action.get("section")
    if aim is not None:
        part = next((s for s in target.sections if s["key"] == aim), None)
        if part is None:
            raise refuse("no_such_section", f"{target.name} has no section {aim!r}.",
                         "Select Core Part or Equipment to target")
        if int(part["durability"]) <= 0:
            raise refuse("section_destroyed", f"{target.name}'s {aim} is already destroyed.",
                         "If that Part was destroyed then it is considered Inoperable and may "
                         "no longer be used in the game.")

    def run() -> None:
        _attack(b, turn, w, target, aim)
    return run


def _attack(b: E.Battle, turn: Turn, w: Json, target: E.Unit, aim: str | None) -> None:
    """The active unit attacks (the attack checked)."""
    turn.attacks[turn.phase] = turn.attacks.get(turn.phase, 0) + 1
    E._attack(b, turn.unit, w, target, w["kind"] == "melee", w["key"] == "basic", aim=aim)


def _check_ranged_reach(b: E.Battle, u: E.Unit, w: Json, target: E.Unit) -> None:
    if not R.field_of_view(u.facing, E.direction_to(u.at, target.at), u.utype):
        raise refuse("not_in_view", f"{target.name} is not in {u.name}'s field of view.",
                     Q_FOV)
    greens = E._sight(b, u.at, target.at)[0]
    rng = R.weapon_range(int(w["range"]), unit_type=u.utype, green_between=greens)
    if not R.in_range(E.hex_distance(u.at, target.at), rng):
        raise refuse("out_of_range", f"{target.name} is beyond the range of {w['name']} "
                     f"({rng}).", Q_RANGE)
    if R.needs_line_of_sight(u.utype, w) and E._blocked(b, u.at, target.at):
        raise refuse("structure_in_the_way", f"A structure stands between {u.name} and "
                     f"{target.name}: destroy it first.", Q_STRUCTURE)


def _check_structure(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    w = _weapon(u, str(action.get("weapon", "")), "ranged")
    if turn.thrust:
        raise refuse("thrusters_forfeit_combat", f"{u.name} made a thruster run this turn and "
                     "forfeits both combat phases.", Q_THRUSTER)
    _phase_at_least(turn, "ranged", "not_ranged_phase", "firing at a structure", Q_RANGED)
    h = _hex(action, "structure")
    if h not in b.structures:
        raise refuse("no_structure", "No structure stands on that hex.", "")
    cost = _attack_cost(u, w)
    if cost > u.ap:
        raise refuse("not_enough_ap", f"{w['name']} costs {cost} AP; {u.name} has {u.ap}.",
                     Q_AP)
    if not R.field_of_view(u.facing, E.direction_to(u.at, h), u.utype):
        raise refuse("not_in_view", f"The structure is not in {u.name}'s field of view.",
                     Q_FOV)
    if E.hex_distance(u.at, h) > int(w["range"]):
        raise refuse("out_of_range", f"The structure is beyond the range of {w['name']}.",
                     Q_RANGE)
    if E._blocked(b, u.at, h):
        raise refuse("structure_in_the_way", "Another structure stands in front of it.",
                     Q_STRUCTURE)

    def run() -> None:
        turn.attacks["ranged"] += 1
        u.ap -= cost
        s = b.structures[h]
        hit = R.hit_structure(int(s["defense"]), int(w["damage"]))
        s["defense"] = hit["defense"]
        text = f"{u.name} fires {w['name']} at the structure at {E.offset_of(h)}: " \
               f"{w['damage']} damage, defense {hit['defense']}"
        if hit["falls"]:
            _fell(b, h)
            text += "; it falls (black hex)"
        b.note(side=u.side, unit=u.id, action="structure", at=list(E.offset_of(h)),
               weapon=w["key"], damage=int(w["damage"]), falls=hit["falls"], text=text)
    return run


def _fell(b: E.Battle, h: H.Hex) -> None:
    """"when they are destroyed the hex/hexes they occupy then become a black hex"."""
    del b.structures[h]
    b.standing_structures = frozenset(b.structures)
    b.colour[h] = "black"


# -- grappling ---------------------------------------------------------------------------

def _check_grapple(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    if turn.thrust:
        raise refuse("thrusters_forfeit_combat", f"{u.name} made a thruster run this turn and "
                     "forfeits both combat phases.", Q_THRUSTER)
    _phase_at_least(turn, "close", "not_close_combat_phase", "grappling", Q_GRAPPLE)
    if not u.penalties()["grapple"]:
        raise refuse("no_arms", f"{u.name} has no arm to grapple with.", Q_GRAPPLE)
    if "hold" in u.status:
        raise refuse("held_cannot_assault", f"{u.name} is held and cannot make assault "
                     "rolls.", Q_HELD)
    if "holding" in u.status:
        raise refuse("already_holding", f"{u.name} is already holding a unit.", Q_HELD_MOVE)
    if turn.grapple_evaded:
        raise refuse("grapple_evaded", f"{u.name}'s grapple was evaded this turn.",
                     Q_GRAPPLE_EVADED)
    target = _unit(b, action.get("target"))
    if target.side == u.side or not target.alive:
        raise refuse("not_an_enemy", f"{target.name} is not an enemy that can be grappled.",
                     Q_GRAPPLE)
    if E.hex_distance(u.at, target.at) != 1:
        raise refuse("out_of_range", f"{target.name} is not within melee range.",
                     "To initiate a Grapple, the attacking Unit must first be within melee "
                     "range of the target.")
    if u.ap < T.GRAPPLE_AP:
        raise refuse("not_enough_ap", f"A grapple costs {T.GRAPPLE_AP} AP; {u.name} has "
                     f"{u.ap}.", "Then, at the cost of 2 AP, the Unit makes an Assault Roll.")

    def run() -> None:
        atk, _ev = E._modifiers(b, u, target, True)
        can_evade = "hold" not in target.status and "grounded" not in target.status
        got = R.grapple(b.dice, assault=u.stats["assault"], assault_modifier=atk,
                        target_evasion=target.stats["evasion"] if can_evade else 99,
                        ap=T.GRAPPLE_AP, reroll=False)
        u.ap -= T.GRAPPLE_AP
        text = f"{u.name} tries to grapple {target.name}: assault {got['rolls'][0]}"
        if got["grappled"]:
            turn.grappling, turn.grapple_from = target, u.at
            u.at = target.at
            text += ", grappled" + (f" (evasion {got['evasion']} fails)"
                                    if got.get("evasion") is not None else "")
        elif got.get("evasion") is not None:
            turn.grapple_evaded = True
            text += f", evaded ({got['evasion']})"
        else:
            text += ", misses"
        b.note(side=u.side, unit=u.id, target=target.id, action="grapple",
               attack=got["rolls"][0], evasion=got.get("evasion"), hit=got["grappled"],
               to=list(E.offset_of(u.at)), text=text)
    return run


def _grappled(turn: Turn, what: str) -> E.Unit:
    if turn.grappling is None:
        raise refuse("no_grapple", f"{turn.unit.name} has not grappled anyone to {what}.",
                     Q_HOLD_OR_THROW)
    return turn.grappling


def _check_hold(play: Play, turn: Turn, action: Json) -> Run:
    u, target = turn.unit, _grappled(turn, "hold")

    def run() -> None:
        target.status.add("hold")
        u.status.add("holding")
        play.holds[u.id] = (target.id, turn.grapple_from or u.at)
        turn.grappling = None
        play.b.note(side=u.side, unit=u.id, target=target.id, action="hold",
                    text=f"{u.name} holds {target.name}")
    return run


def _check_throw(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    target = _grappled(turn, "throw")
    dest = _hex(action, "to")
    if target.cls > u.cls:
        raise refuse("too_heavy", f"{target.name} (class {target.cls}) outclasses {u.name} "
                     f"(class {u.cls}).", Q_THROW_CLASS)
    frm = turn.grapple_from or u.at
    if dest == u.at or not R.field_of_view(u.facing, E.direction_to(frm, dest), u.utype):
        raise refuse("not_in_view", "That hex is not in the thrower's field of view.",
                     Q_THROW_FOV)
    assault = u.stats["assault"] - E._modifiers(b, u, target, True)[0]
    far = R.throw_distance(assault)
    if E.hex_distance(u.at, dest) > far:
        raise refuse("too_far", f"{u.name} can throw at most {far} hexes.", Q_THROW_FAR)
    if b.height.get(dest, 0) > b.height.get(u.at, 0):
        raise refuse("throw_upward", "That hex is higher than the thrown unit.", Q_THROW_UP)

    def run() -> None:
        _throw(play, turn, target, dest)
    return run


def _throw(play: Play, turn: Turn, target: E.Unit, dest: H.Hex) -> None:
    """"Once the attacker specifies a hex ... they then roll for Assault ... Fail,
    attacking Unit rolls 1d8 for Deviation and lands there instead" (R-30-9); units in
    the path evade or are knocked down; the thrown unit takes Collision Damage to its
    torso (and Fall Damage when it lands lower) and lies on the ground."""
    b, u = play.b, turn.unit
    atk, _ev = E._modifiers(b, u, target, True)
    roll = R.attack_roll(b.dice, stat=u.stats["assault"], modifier=atk)
    land, text = dest, f"{u.name} throws {target.name}: assault {roll['roll']}"
    if not roll["hit"]:
        dev = R.deviation(b.dice)
        text += f", deviation {dev['roll']}"
        if dev["direction"] is not None:
            d = (u.facing - dev["direction"]) % 6  # counted clockwise from the facing
            n = (dest[0] + H.DIRECTIONS[d][0], dest[1] + H.DIRECTIONS[d][1])
            land = E.canonical(n) if E.on_board(n) and b.height.get(n, 0) <= b.height.get(u.at, 0) \
                else dest
    start = target.at
    gone = E.hex_distance(start, land)
    dmg = R.collision_damage(target.cls, gone)
    for h in E._line(start, land)[1:]:
        for other in [o for o in b.units if o.alive and o.at == h and o is not target
                      and o is not u]:
            ev = R.evasion_roll(b.dice, stat=other.stats["evasion"])
            if not ev["evaded"]:
                _hurt(b, other, dmg, main=True)
                other.status.add("grounded")
                text += f"; {other.name} is knocked down"
    target.at = land
    target.status.discard("hold")
    target.facing = E.direction_to(land, u.at) if land != u.at else target.facing
    _hurt(b, target, dmg, main=True)
    structure = b.structures.get(land)
    if structure is not None:
        if dmg < int(structure["defense"]):
            target.status.add("stuck")
            text += f"; it hits the structure and is stuck ({dmg} damage)"
        else:
            bonus = int(structure["defense"])
            _fell(b, land)
            _hurt(b, target, bonus, main=True)
            target.status.add("grounded")
            text += f"; the structure falls on it ({dmg} + {bonus} damage)"
    else:
        target.status.add("grounded")
        text += f"; lands at {E.offset_of(land)} ({dmg} damage)"
    drop = b.height.get(start, 0) - b.height.get(land, 0)
    if drop > 0:
        _hurt(b, target, R.fall_damage(target.cls, drop), main=False)
    turn.grappling = None  # the thrower stays on the hex it grappled the enemy on
    b.note(side=u.side, unit=u.id, target=target.id, action="throw",
           to=list(E.offset_of(land)), attack=roll["roll"], text=text)
    E._after_loss(b, target)


def _hurt(b: E.Battle, u: E.Unit, dmg: int, *, main: bool) -> None:
    """Damage to the torso (`main`), or to the legs (the torso if none: Fall Damage)."""
    legs = [s for s in u.sections if s["kind"] == "leg" and int(s["durability"]) > 0]
    parts = [u.main()] if main or not legs else legs
    for part in parts:
        part["durability"] = R.apply_damage(int(part["durability"]), dmg)["durability"]
    E._after_loss(b, u)


def _check_release(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    if u.id not in play.holds:
        raise refuse("not_holding", f"{u.name} holds no one.", Q_DISENGAGE)
    held_id, frm = play.holds[u.id]

    def run() -> None:
        del play.holds[u.id]
        u.status.discard("holding")
        _unit(b, held_id).status.discard("hold")
        u.at = frm
        b.note(side=u.side, unit=u.id, action="release", to=list(E.offset_of(frm)),
               text=f"{u.name} lets go")
    return run


def _command_ap(u: E.Unit, cost: int, what: str) -> None:
    if u.ap < cost:
        raise refuse("not_enough_ap", f"{what} costs {cost} AP; {u.name} has {u.ap}.", Q_CA)


def _check_break(play: Play, turn: Turn, action: Json) -> Run:
    b, u = play.b, turn.unit
    holder_id = next((h for h, (held, _f) in play.holds.items() if held == u.id), None)
    if "hold" not in u.status or holder_id is None:
        raise refuse("not_held", f"{u.name} is not held.", Q_BREAK)
    cost = int(u.penalties()["break_grapple_ap"])
    _command_ap(u, cost, "Break Grapple")
    holder = _unit(b, holder_id)
    blocked = {o.at for o in b.units if o.alive and o.side != u.side} | set(b.structures)
    back = [(u.facing + k) % 6 for k in (3, 2, 4)]  # behind, then the blind spot
    spots = [E.canonical((u.at[0] + H.DIRECTIONS[d][0], u.at[1] + H.DIRECTIONS[d][1]))
             for d in back]
    free = [h for h in spots if E.on_board(h) and h not in blocked]
    if not free:
        raise refuse("no_room", f"No hex behind {u.name} is free.", Q_BREAK)

    def run() -> None:
        u.ap -= cost
        u.at = free[0]
        u.facing = E.direction_to(u.at, holder.at)
        u.status.discard("hold")
        holder.status.discard("holding")
        del play.holds[holder_id]
        b.note(side=u.side, unit=u.id, action="break_grapple", ap=cost,
               to=list(E.offset_of(u.at)), text=f"{u.name} breaks free ({cost} AP)")
    return run


def _check_get_up(play: Play, turn: Turn, action: Json) -> Run:
    u = turn.unit
    if "grounded" not in u.status:
        raise refuse("not_on_the_ground", f"{u.name} is on its feet.", Q_GROUND)
    _command_ap(u, T.COMMAND_ACTION_AP, "GetUp")

    def run() -> None:
        u.ap -= T.COMMAND_ACTION_AP
        u.status.discard("grounded")
        play.b.note(side=u.side, unit=u.id, action="get_up", ap=T.COMMAND_ACTION_AP,
                    text=f"{u.name} gets up ({T.COMMAND_ACTION_AP} AP)")
    return run


def _check_end(play: Play, turn: Turn, action: Json) -> Run:
    def run() -> None:
        _end_turn(play, turn)
    return run


def _end_turn(play: Play, turn: Turn) -> None:
    u = turn.unit
    u.ap = min(T.AP_CAP, u.ap)  # "stored ... capped at 16 AP per Unit"
    end_of_turn(play.b, u)
    play.turn = None
    _advance(play)


def _check_withdraw(play: Play, turn: Turn, action: Json) -> Run:
    """R-30-24: a unit leaves the battlefield over its side's own short table edge: in
    its movement phase, on a hex of that edge, facing it (the step off the board is a
    move into its field of view), for 1 standard movement point; an aerial vehicle by a
    thruster run towards the edge that the edge, and nothing before it, cuts short. Its
    turn ends; it does not come back this battle."""
    b, u = play.b, turn.unit
    _can_move(play, turn, "withdrawing")
    edge = play.home.get(u.side, WEST)
    where = "west" if edge == WEST else "east"
    if u.utype == "aerial":
        if _thrust_length(b, u) <= 0:
            raise refuse("no_thrusters", f"{u.name} has no thruster left to fly with.",
                         Q_THRUSTERS_ONLY)
        way = thrust_path(b, u, edge)
        end = way[-1] if way else u.at
        beyond = (end[0] + H.DIRECTIONS[edge][0], end[1] + H.DIRECTIONS[edge][1])
        if len(way) >= _thrust_length(b, u) or E.on_board(beyond):
            raise refuse("not_on_edge", f"{u.name}'s thruster run towards the {where} edge "
                         "does not carry it off the battlefield.", Q_EDGE)
    elif not on_edge(u.at, edge):
        raise refuse("not_on_edge", f"{u.name} is not on its side's table edge (the "
                     f"{where} edge); it can leave the battlefield only from a hex of that "
                     "edge.", Q_EDGE)
    if u.utype != "aerial" and not R.field_of_view(u.facing, edge, u.utype):
        raise refuse("not_facing_edge", f"{u.name} must face the {where} edge to step off "
                     "the battlefield.", Q_MOVE_FOV)
    if u.utype != "aerial" and turn.points < 1:
        raise refuse("no_movement_points", f"{u.name} has no movement point left to step off "
                     "the battlefield.", Q_STANDARD)

    def run() -> None:
        if u.utype != "aerial":
            turn.points -= 1
        turn.moved = True
        u.left = True
        u.ap = min(T.AP_CAP, u.ap)
        if u.out_round is None:
            u.out_round = b.round
            if b.first_out is None:
                b.first_out = u.side
        b.note(side=u.side, unit=u.id, action="withdraw", at=list(E.offset_of(u.at)),
               text=f"{u.name} leaves the battlefield over the {where} edge")
        play.turn = None
        _advance(play)
    return run


def end_of_turn(b: E.Battle, unit: E.Unit) -> None:
    """The hex's effect on a unit that ends its turn there (Hex Colors and Effects)."""
    if not unit.alive:
        return
    effect = R.hex_end_of_turn(b.colour.get(unit.at, "grey"), unit.systems)
    unit.status.discard("conceal")
    unit.status.discard("euphotic")
    if effect["conceal"]:
        unit.status.add("conceal")
    if unit.utype == "aerial":
        return  # in the air, above the hex
    if effect["status"]:
        unit.status.add(effect["status"])
    if effect["torso_damage"]:
        main = unit.main()
        main["durability"] = R.apply_damage(int(main["durability"]),
                                            effect["torso_damage"])["durability"]
        b.note(side=unit.side, unit=unit.id, action="abyss", damage=effect["torso_damage"],
               text=f"{unit.name} is crushed by the deep: {effect['torso_damage']} damage")
        E._after_loss(b, unit)


VERBS: dict[str, Callable[[Play, Turn, Json], Run]] = {
    "activate": lambda play, turn, action: _check_activate(play, action),
    "rotate": _check_rotate, "move": _check_move, "thrust": _check_thrust,
    "phase": _check_phase, "attack": _check_attack, "grapple": _check_grapple,
    "hold": _check_hold, "throw": _check_throw, "release": _check_release,
    "break_grapple": _check_break, "get_up": _check_get_up, "end_turn": _check_end,
    "withdraw": _check_withdraw,
}


# -- what may be done now ----------------------------------------------------------------

def candidates(play: Play) -> list[Json]:
    """Every action worth listing for the side to act (each is then checked)."""
    side = actor(play)
    if side is None:
        return []
    b, turn = play.b, play.turn
    if turn is None:
        return [{"side": side, "do": "activate", "unit": u.id} for u in b.units
                if str(u.side) == str(side) and u.alive and u.id not in play.acted]
    u = turn.unit
    out: list[Json] = []

    def add(do: str, **kw: Any) -> None:
        out.append({"side": side, "do": do, "unit": u.id, **kw})

    if turn.grappling is not None:
        for h in E.BOARD:
            if E.hex_distance(u.at, h) <= R.throw_distance(u.stats["assault"]):
                add("throw", to=list(E.offset_of(h)))
        add("hold")
        return out
    if turn.phase == "move":
        for d in range(6):
            add("rotate", facing=d)
            add("thrust", direction=d)
        if u.utype != "aerial" and u.operative:
            reach, _came = E.reachable(b, u, turn.points, u.facing, enemy_hexes(b, u))
            for h in sorted(reach, key=H.to_offset):
                add("move", to=list(E.offset_of(h)))
        add("withdraw")
    for to in PHASES[PHASES.index(turn.phase) + 1:]:
        add("phase", to=to)
    for e in b.enemies(u):
        for w in [*u.weapons, BASIC]:
            add("attack", target=e.id, weapon=w["key"])
        add("grapple", target=e.id)
    for h in b.structures:
        for w in u.usable("ranged"):
            add("attack", structure=list(E.offset_of(h)), weapon=w["key"])
    add("release")
    add("break_grapple")
    add("get_up")
    add("end_turn")
    return out


def legal(play: Play) -> list[Json]:
    out = []
    for a in candidates(play):
        try:
            check(play, a)
        except ActionRefused:
            continue
        out.append(a)
    return out


def view(play: Play) -> Json:
    b, turn = play.b, play.turn
    return {
        "round": b.round, "mission": b.mission.get("mission"), "over": play.over,
        "end_reason": b.options.get("end_reason") if play.over else None,
        "to_act": actor(play),
        "turn": None if turn is None else {
            "unit": turn.unit.id, "phase": turn.phase, "points": turn.points,
            "free_rotation_used": turn.rotated, "thruster_run": turn.thrust,
            "grappling": turn.grappling.id if turn.grappling else None},
        "acted": sorted(play.acted),
        "units": {str(u.id): {
            "side": int(u.side), "name": u.name, "at": list(E.offset_of(u.at)),
            "facing": u.facing, "elevation": u.elevation, "ap": u.ap,
            "condition": u.condition, "status": sorted(u.status), "withdrawn": u.left,
            "sections": {s["key"]: int(s["durability"]) for s in u.sections}}
            for u in b.units},
        "structures": [{"at": list(E.offset_of(h)), "defense": int(s["defense"])}
                       for h, s in sorted(b.structures.items())],
        "victory_points": E.scores(b),
    }
