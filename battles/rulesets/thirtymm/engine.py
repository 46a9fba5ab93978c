"""The 30 Minute Missions battle state and its mechanics on the 16x13 hex battlefield:
units, geometry (lines of sight, fields of view), attacks and damage, the movement
costs and the standard-move search, markers and victory points. Every die goes through
the `Dice` seam. Who may do what, and when, is the action layer's (`actions.py`); the
default policy's choices are `policy.py`'s (R-30-14).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Any, Final

from battles.rulesets.thirtymm import rules as R
from battles.rulesets.thirtymm import tables as T
from battles.rulesets.thirtymm.rules import as_int
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

Json = dict[str, Any]
_SQRT3: Final = math.sqrt(3)
#: A hex the engine keeps as the board's own tuple (`canonical`): a unit's position and
#: the movement search's hexes. Typed `Any` so a compiled engine keeps that very object
#: (a `tuple[int, int]` it would hold as two numbers, and box anew, hash and compare at
#: each dict or set lookup).
BoardHex = Any


BOARD: Final[frozenset[H.Hex]] = frozenset(H.to_axial(c, r) for r in range(T.ROWS)
                                     for c in range(T.row_length(r)))
_LINES: Final[dict[tuple[BoardHex, BoardHex], list[BoardHex]]] = {}


def on_board(h: H.Hex) -> bool:
    return h in BOARD


def canonical(h: BoardHex) -> BoardHex:
    """The board's own tuple for this hex (itself when off the board)."""
    return _CANON.get(h, h)


#: The board's hexes in offset coordinates (the movement search's tie-break), and each
#: hex's neighbours by direction (None: off the board): pure functions of the board's
#: shape.
_OFFSET: Final[dict[H.Hex, tuple[int, int]]] = {h: H.to_offset(h) for h in BOARD}
#: Every board hex as one tuple object: a dict or set keyed by hexes finds a `canonical`
#: hex by identity, without comparing tuples (the engine keeps unit positions, the
#: board's tables and its neighbours canonical).
_CANON: Final[dict[BoardHex, BoardHex]] = {h: h for h in BOARD}
_AROUND: Final[dict[H.Hex, tuple[BoardHex | None, ...]]] = {
    h: tuple(_CANON.get(n) for n in H.neighbours(h)) for h in BOARD}
#: Each board hex's rank in the order of its offset coordinates (column, then row), the
#: hex of each rank, and a bound above every rank: the movement search's tie-break as
#: one small integer.
_RANK: Final[dict[H.Hex, int]] = {h: c * T.ROWS + r for h, (c, r) in _OFFSET.items()}
_BY_RANK: Final[dict[int, BoardHex]] = {k: h for h, k in _RANK.items()}
_RANKS: Final = max(_RANK.values()) + 1
_ROWS: Final = T.ROWS
#: direction_to by (dq, dr): the same few hundred differences come up all battle long.
_DIRECTIONS: Final[dict[tuple[int, int], int]] = {}


def direction_to(a: H.Hex, b: H.Hex) -> int:
    """The hex direction (0 east, then counter-clockwise) nearest the line a -> b."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    found = _DIRECTIONS.get((dq, dr))
    if found is None:
        x, y = _SQRT3 * (dq + dr / 2), -1.5 * dr
        found = _DIRECTIONS[(dq, dr)] = round(math.degrees(math.atan2(y, x)) / 60) % 6
    return found


#: _p_hit, _p_evade and R.high_ground by their arguments: small domains, asked about at
#: every attack the policy weighs.
_P_HIT: Final[dict[tuple[int, int, bool], float]] = {}
_P_EVADE: Final[dict[tuple[int, int], float]] = {}
_HIGH_GROUND: Final[dict[int, Json]] = {}


def _p_hit(stat: int, modifier: int, basic: bool) -> float:
    key = (stat, modifier, basic)
    found = _P_HIT.get(key)
    if found is None:
        hits = sum(1 for r in range(2, 9) if (r == 8 and not basic) or r + modifier >= stat)
        found = _P_HIT[key] = hits / 8
    return found


def _p_evade(stat: int, modifier: int) -> float:
    key = (stat, modifier)
    found = _P_EVADE.get(key)
    if found is None:
        found = _P_EVADE[key] = sum(1 for r in range(1, 9) if r + modifier >= stat) / 8
    return found


def _high_ground(difference: int) -> Json:
    """R.high_ground, kept (read only)."""
    found = _HIGH_GROUND.get(difference)
    if found is None:
        found = _HIGH_GROUND[difference] = R.high_ground(difference)
    return found


@dataclass
class Unit:
    id: int
    side: str
    name: str
    key: str
    utype: str
    systems: tuple[str, ...]
    stats: dict[str, int]
    sections: list[Json]
    weapons: list[Json]
    cls: int
    movement: int
    ap_bonus: int
    cost: int
    at: BoardHex
    facing: int
    elevation: int = 0
    ap: int = 0
    status: set[str] = field(default_factory=set)
    out_round: int | None = None
    #: It has left the battlefield over its side's table edge (R-30-24): off the board,
    #: neither on the field nor destroyed.
    left: bool = False
    #: Destroyed, inoperative or operative, and the penalties of the sections lost:
    #: recomputed whenever a section is damaged (`refresh`).
    condition: str = "operative"
    _penalties: Json = field(default_factory=dict)
    #: The sections by key (the first of a key), built on first use: `section`.
    _by_key: dict[str, Json] = field(default_factory=dict)
    #: The `_RANK` of `at` (-1: off the board), and the `at` it is of (`rank`).
    _rank: int = field(default=-1, compare=False, repr=False)
    _rank_of: Any = field(default=None, compare=False, repr=False)
    #: By kind, its weapons not carried, each with the section it is on, in weapon order
    #: (built on first use: `usable`; a weapon's kind, mount and section never change).
    _armed: dict[str, list[tuple[Json, Json]]] = field(default_factory=dict, compare=False,
                                                       repr=False)

    def __init__(self, id: int, side: str, name: str, key: str, utype: str,
                 systems: tuple[str, ...], stats: dict[str, int], sections: list[Json],
                 weapons: list[Json], cls: int, movement: int, ap_bonus: int, cost: int,
                 at: BoardHex, facing: int, elevation: int = 0, ap: int = 0,
                 status: set[str] | None = None, out_round: int | None = None,
                 left: bool = False, condition: str = "operative",
                 _penalties: Json | None = None, _by_key: dict[str, Json] | None = None
                 ) -> None:
        """The dataclass's own `__init__`, written out: a compiled engine builds a unit
        natively (the generated one runs interpreted)."""
        self.id = id
        self.side = side
        self.name = name
        self.key = key
        self.utype = utype
        self.systems = systems
        self.stats = stats
        self.sections = sections
        self.weapons = weapons
        self.cls = cls
        self.movement = movement
        self.ap_bonus = ap_bonus
        self.cost = cost
        self.at = at
        self.facing = facing
        self.elevation = elevation
        self.ap = ap
        self.status = set() if status is None else status
        self.out_round = out_round
        self.left = left
        self.condition = condition
        self._penalties = {} if _penalties is None else _penalties
        self._by_key = {} if _by_key is None else _by_key
        self._rank = -1
        self._rank_of = None
        self._armed = {}

    def rank(self) -> int:
        """The `_RANK` of the hex it stands on (-1: off the board), looked up again only
        when `at` is another object."""
        if self._rank_of is not self.at:
            self._rank = _RANK.get(self.at, -1)
            self._rank_of = self.at
        return self._rank

    def refresh(self) -> None:
        self.condition = R.condition(self.utype, self.sections)
        self._penalties = R.section_penalties(self.sections)

    @property
    def operative(self) -> bool:
        return self.condition == "operative" and not self.left

    @property
    def alive(self) -> bool:
        """On the battlefield and not destroyed (a unit that left is neither)."""
        return self.condition != "destroyed" and not self.left

    def section(self, key: str) -> Json:
        found = self._by_key.get(key)
        if found is None:
            if not self._by_key:
                for s in reversed(self.sections):
                    self._by_key[s["key"]] = s
            found = self._by_key.get(key)
            if found is None:
                return next(s for s in self.sections if s["key"] == key)
        return found

    def main(self) -> Json:
        return next(s for s in self.sections if s["kind"] in T.MAIN_SECTIONS)

    def usable(self, kind: str) -> list[Json]:
        """Weapons of `kind` it can still use: its section stands (and, held in a hand,
        the arm: "Unit can no longer ... attack with Weapons in that hand")."""
        armed = self._armed.get(kind)
        if armed is None:
            section = self.section
            armed = self._armed[kind] = [
                (w, section(w["section"])) for w in self.weapons
                if w["kind"] == kind and w["mount"] != "carried"]
        return [w for w, s in armed if as_int(s["durability"]) > 0]

    def penalties(self) -> Json:
        return self._penalties


@dataclass
class Battle:
    sides: list[str]
    defender: str | None
    attacker: str
    units: list[Unit]
    colour: dict[H.Hex, str]
    height: dict[H.Hex, int]
    structures: dict[H.Hex, Json]
    options: Json
    dice: Dice
    mission: Json = field(default_factory=dict)
    markers: list[H.Hex] = field(default_factory=list)
    primary: dict[str, int] = field(default_factory=dict)
    first_out: str | None = None  # the side that lost a unit first
    log: list[Json] = field(default_factory=list)
    keep_log: bool = True
    round: int = 0
    #: Per kind of mover and structures standing, the movement points of each step
    #: (`_moves`): pure functions of the board, so the simulations of one battle input
    #: share them (`play(cache=...)`). `standing_structures` keys them: the hexes of the
    #: structures still up (a fallen one turns its hex black).
    moves: dict[tuple[Any, ...], list[int]] = field(default_factory=dict)
    #: The board as arrays by standing structures (`_terrain`), shared likewise, and the
    #: current structures' at hand.
    terrains: dict[frozenset[H.Hex], tuple[list[int], list[int], list[bool]]] = field(
        default_factory=dict)
    _terrain_for: frozenset[H.Hex] | None = None
    _terrain_now: tuple[list[int], list[int], list[bool]] = ([], [], [])
    #: (green hexes, accuracy modifier) of each line of sight, by the standing
    #: structures, then by (from, to): `_sight`, which keeps the current structures'
    #: table at hand (`_sights_now`, of `_sights_for`).
    sights: dict[frozenset[H.Hex], dict[tuple[BoardHex, BoardHex], tuple[int, int]]] = field(
        default_factory=dict)
    _sights_for: frozenset[H.Hex] | None = None
    _sights_now: dict[tuple[BoardHex, BoardHex], tuple[int, int]] = field(default_factory=dict)
    #: The default policy's movement choices by everything they depend on
    #: (`policy.destination`), shared like `moves`.
    destinations: dict[tuple[Any, ...], tuple[H.Hex, list[H.Hex]] | None] = field(
        default_factory=dict)
    standing_structures: frozenset[H.Hex] = frozenset()
    #: The hexes above the ground (hills), with their height: the board's shape, which
    #: never changes (`policy.destination` looks for high ground near a unit).
    hills: list[tuple[H.Hex, int]] = field(default_factory=list)
    _by_id: dict[int, Unit] = field(default_factory=dict)

    def unit(self, uid: int) -> Unit | None:
        """The unit with this id (None: no such unit)."""
        if len(self._by_id) != len(self.units):
            self._by_id = {u.id: u for u in self.units}
        return self._by_id.get(uid)

    def note(self, **entry: Any) -> None:
        if self.keep_log:
            self.log.append({"round": self.round, **entry})

    def enemies(self, unit: Unit) -> list[Unit]:
        side = unit.side  # `alive`, inlined: the policy asks at every choice
        return [u for u in self.units
                if u.side != side and u.condition != "destroyed" and not u.left]

    def standing(self) -> list[str]:
        out = []  # the sides with an operative unit, as a loop (a set a call costs more)
        for s in self.sides:
            for u in self.units:
                if u.side == s and u.condition == "operative" and not u.left:
                    out.append(s)
                    break
        return out

    def occupant(self, h: H.Hex, elevation: int | None = None) -> Unit | None:
        return next((u for u in self.units if u.alive and u.at == h
                     and (elevation is None or u.elevation == elevation)), None)


def build(battle_input: Json, dice: Dice, keep_log: bool = True,
          cache: dict[str, Any] | None = None) -> Battle:
    units = []
    for side, roster in battle_input["sides"].items():
        for u in roster:
            units.append(Unit(
                id=int(u["id"]), side=str(side), name=str(u["name"]), key=str(u["key"]),
                utype=u["type"], systems=tuple(u.get("systems") or ()),
                stats=dict(u["stats"]), sections=[dict(s) for s in u["sections"]],
                weapons=[dict(w) for w in u["weapons"]], cls=int(u["class"]),
                movement=int(u["movement"]), ap_bonus=int(u["ap_bonus"]),
                cost=int(u["cost"]), at=canonical(axial(*u["at"])), facing=int(u["facing"]),
                elevation=int(u.get("elevation", 0))))
    for u in units:
        u.refresh()
    if cache is None:
        cache = {}
        colour, height, structures, hills, terrain = _board(battle_input["board"])
    else:  # the simulations of one battle input start from copies of one board
        kept = cache.get("board")
        if kept is None:
            kept = cache["board"] = _board(battle_input["board"])
        colour = dict(kept[0])
        height, hills, terrain = kept[1], kept[3], kept[4]  # never change
        structures = {h: dict(s) for h, s in kept[2].items()}
    sides = [str(s) for s in battle_input["sides"]]
    defender = battle_input.get("defender")
    attacker = next((s for s in sides if s != defender), sides[0])
    standing = frozenset(structures)
    terrains = cache.setdefault("terrains", {})
    terrains.setdefault(standing, terrain)
    return Battle(sides=sides, defender=defender, attacker=attacker, units=units,
                  colour=colour, height=height, structures=structures,
                  options=dict(battle_input.get("options") or {}), dice=dice,
                  keep_log=keep_log, moves=cache.setdefault("moves", {}),
                  terrains=terrains, _terrain_for=standing, _terrain_now=terrain,
                  sights=cache.setdefault("sights", {}),
                  destinations=cache.setdefault("destinations", {}),
                  standing_structures=standing, hills=hills)


Terrain = tuple[list[int], list[int], list[bool]]


def _board(board: Json) -> tuple[dict[H.Hex, str], dict[H.Hex, int], dict[H.Hex, Json],
                                 list[tuple[H.Hex, int]], Terrain]:
    """The board input's colours, heights, structures and hills, by axial hex, and the
    same as arrays by `_RANK` (`_terrain`)."""
    colour: dict[H.Hex, str] = {}
    height: dict[H.Hex, int] = {}
    colours = [0] * _RANKS
    heights = [0] * _RANKS
    solid = [False] * _RANKS
    for c, r, k, e in board["terrain"]:
        # int() and str() of what already is one, skipped: a compiled engine calls
        # back into the interpreter for them
        col = c if isinstance(c, int) else int(c)
        row = r if isinstance(r, int) else int(r)
        name = k if isinstance(k, str) else str(k)
        level = e if isinstance(e, int) else int(e)
        rank = col * _ROWS + row if 0 <= row < _ROWS and col >= 0 else _RANKS
        h = _HEX_OF[rank] if rank < _RANKS else None
        if h is None:  # off the board
            h = axial(col, row)
        else:
            colours[rank] = _colour_number(name)
            heights[rank] = level
        colour[h] = name
        height[h] = level
    structures = {canonical(axial(*s["at"])): dict(s) for s in board.get("structures") or ()}
    for h in structures:
        rank = _RANK.get(h, _RANKS)
        if rank < _RANKS:
            solid[rank] = True
    return (colour, height, structures, [(h, e) for h, e in height.items() if e > 0],
            (colours, heights, solid))


# -- geometry ----------------------------------------------------------------------------

def hex_distance(a: H.Hex, b: H.Hex) -> int:
    """`hexgrid.distance`, built with the engine: the policy asks it thousands of times a
    battle, and a compiled engine's call into the source costs more than the sum."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    ds = dq + dr
    # abs() by hand: a compiled engine's abs() boxes the number and calls back in
    if dq < 0:
        dq = -dq
    if dr < 0:
        dr = -dr
    if ds < 0:
        ds = -ds
    return (dq + dr + ds) // 2


def offset_of(h: H.Hex) -> tuple[int, int]:
    """`hexgrid.to_offset` (axial -> odd-row offset), built with the engine likewise."""
    q, r = h
    return q + (r - (r & 1)) // 2, r


def axial(col: int, row: int) -> H.Hex:
    """`hexgrid.to_axial` (odd-row offset -> axial), built with the engine likewise."""
    return col - (row - (row & 1)) // 2, row


def _line(a: H.Hex, b: H.Hex) -> list[H.Hex]:
    """`hexgrid.line`, the same arithmetic in the same order (so the same hexes), built
    with the engine: a battle meets a few dozen new lines of sight, and the source's
    floating-point steps cost ~60,000 instructions a line from a compiled engine."""
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a[0] + 1e-6, a[1] + 1e-6
    return [_round_hex(aq + (b[0] - aq) * i / n, ar + (b[1] - ar) * i / n)
            for i in range(n + 1)]


def _round_hex(q: float, r: float) -> H.Hex:
    """`hexgrid._round`: the hex a fractional axial point lies in."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def _between(a: BoardHex, b: BoardHex) -> list[BoardHex]:
    """The hexes strictly between a and b (memoised: the board never changes shape)."""
    key = (a, b)
    hexes = _LINES.get(key)
    if hexes is None:
        hexes = _LINES[key] = [canonical(h) for h in _line(a, b)[1:-1]]
    return hexes


def _blocked(b: Battle, a: BoardHex, t: BoardHex) -> BoardHex | None:
    """The first standing structure between a and t (R-30-15: it blocks line of sight)."""
    if not b.structures:
        return None
    return next((h for h in _between(a, t) if h in b.structures), None)


def _sight(b: Battle, a: BoardHex, t: BoardHex) -> tuple[int, int]:
    """(green hexes, accuracy modifier) of the line from a to t, kept with the board's
    movement costs (the colours change only when a structure falls)."""
    table = b._sights_now
    if b._sights_for is not b.standing_structures:
        table = b._sights_now = b.sights.setdefault(b.standing_structures, {})
        b._sights_for = b.standing_structures
    key = (a, t)
    found = table.get(key)
    if found is None:
        colours = [b.colour.get(h, "grey") for h in _between(a, t)]
        found = table[key] = (colours.count("green"), R.terrain_accuracy(colours))
    return found


def _elevation(b: Battle, u: Unit) -> int:
    if u.elevation < 0:
        return u.elevation
    k = u.rank()  # the board's height by rank (`_terrain`), without hashing the hex
    return u.elevation + (b.height.get(u.at, 0) if k < 0 else _terrain(b)[1][k])


# -- attacks -----------------------------------------------------------------------------

def _modifiers(b: Battle, unit: Unit, target: Unit, melee: bool) -> tuple[int, int]:
    """(attack modifier, evasion modifier) for one attack."""
    pen = unit.penalties()
    hgb = _high_ground(_elevation(b, unit) - _elevation(b, target))
    if melee:
        attack = pen["assault"] + hgb["assault"]
    else:
        attack = pen["accuracy"] + hgb["accuracy"] + _sight(b, unit.at, target.at)[1]
        if "hold" in unit.status:
            attack += T.HELD_ACCURACY
    evade = 1 if (not melee and "conceal" in target.status) else 0
    return attack, evade


def _weapon_ap(unit: Unit, w: Json) -> int:
    return R.weapon_ap(as_int(w["ap"]), unit_type=unit.utype,
                       main_cannon=bool(w.get("main_cannon")))


def _reach(b: Battle, unit: Unit, w: Json, target: Unit) -> bool:
    d = hex_distance(unit.at, target.at)
    greens = _sight(b, unit.at, target.at)[0]
    rng = R.weapon_range(as_int(w["range"]), unit_type=unit.utype, green_between=greens)
    if not R.in_range(d, rng):
        return False
    if R.needs_line_of_sight(unit.utype, w) and _blocked(b, unit.at, target.at):
        return False
    return R.field_of_view(unit.facing, direction_to(unit.at, target.at), unit.utype)


def _melee_reach(b: Battle, unit: Unit, w: Json, target: Unit) -> bool:
    """Close combat: "All melee weapons have a range of 1 unless otherwise stated", at a
    target in the unit's Field of View ("The process listed above otherwise applies")."""
    if not R.in_range(hex_distance(unit.at, target.at), int(w.get("range") or 1)):
        return False
    return R.field_of_view(unit.facing, direction_to(unit.at, target.at), unit.utype)


def _expected(b: Battle, unit: Unit, w: Json, target: Unit, melee: bool,
              basic: bool = False) -> float:
    atk, ev = _modifiers(b, unit, target, melee)
    stat = unit.stats["assault" if melee else "accuracy"]
    evades = "hold" not in target.status and "grounded" not in target.status
    p_evade = _p_evade(target.stats["evasion"], ev) if evades else 0.0
    return expected_damage(stat, atk, p_evade, as_int(w["damage"]), basic)


def expected_damage(stat: int, modifier: int, p_evade: float, dmg: int, basic: bool
                    ) -> float:
    """The damage one attack is expected to do: the roll needs `stat` with `modifier`,
    the target evades with `p_evade` (0: it cannot), a critical (not on a basic attack)
    is not evaded and does `R.damage(dmg, True)`."""
    p_hit = _p_hit(stat, modifier, basic)
    p_crit = 0.0 if basic else 1 / 8
    p_through = (p_hit - p_crit) * (1 - p_evade)
    return p_through * dmg + p_crit * R.damage(dmg, True)


def _aim(target: Unit, dmg: int) -> Json:
    """R-30-14: the part a shot aims at: the main section when the shot (or two) can
    destroy it; else the weakest leg, arm or head it would destroy; else the main."""
    main = target.main()
    if as_int(main["durability"]) <= 2 * dmg:
        return main
    order = {"leg": 0, "arm": 1, "tail": 2, "head": 3, "terra_drive": 0,
             "aerial_drive": 0, "aquatic_drive": 0}
    weak = sorted((s for s in target.sections if s["kind"] in order
                   and 0 < as_int(s["durability"]) <= dmg),
                  key=lambda s: (order[s["kind"]], int(s["durability"]), s["key"]))
    return weak[0] if weak else main


def _attack(b: Battle, unit: Unit, w: Json, target: Unit, melee: bool,
            basic: bool = False, aim: str | None = None) -> None:
    """One attack (the layer has checked it is allowed): `aim` the section the attacker
    targets ("Select Core Part ... to target"; None: R-30-14's choice, `_aim`). The
    log's entry and text are written only when the battle keeps its log."""
    unit.ap -= as_int(w["ap"]) if basic else _weapon_ap(unit, w)
    atk, ev = _modifiers(b, unit, target, melee)
    stat = unit.stats["assault" if melee else "accuracy"]
    roll, hit, critical = R.attack_die(b.dice, stat, atk, basic)
    evade = -1  # the evasion die (-1: none rolled)
    evaded = False
    part: Json | None = None
    before = dmg = left = 0
    if hit:
        can_evade = "hold" not in target.status and "grounded" not in target.status
        evade, evaded = R.evasion_die(b.dice, target.stats["evasion"], ev, critical,
                                      can_evade)
        if not evaded:
            dmg = R.damage(as_int(w["damage"]), critical)
            part = target.section(aim) if aim else _aim(target, dmg)
            before = as_int(part["durability"])
            left = R.durability_left(before, dmg)
            part["durability"] = left
    if b.keep_log:
        entry: Json = {"round": b.round, "side": unit.side, "unit": unit.id, "target": target.id,
                       "weapon": w["key"], "action": "melee" if melee else "ranged",
                       "attack": roll, "need": stat - atk, "hit": hit,
                       "critical": critical}
        text = f"{unit.name} {'strikes' if melee else 'fires'} {w['name']} at " \
               f"{target.name}: rolls {roll} (needs {stat - atk}+)"
        if hit:
            entry["evasion"] = evade if evade >= 0 else None
            need = target.stats["evasion"] - ev
            if evaded:
                text += f", hit; evaded ({evade}, needs {need}+)"
            elif part is not None:
                if evade >= 0:
                    text += f", hit; evasion {evade} fails (needs {need}+)"
                entry.update(section=part["key"], damage=dmg, durability=left)
                text += (", critical hit" if critical else
                         "" if evade >= 0 else ", hit") + \
                    f": {dmg} damage to the {part['key'].replace('_', ' ')} " \
                    f"({before} -> {left})"
                if left == 0:
                    text += ", destroyed"
        else:
            text += ", critical miss" if roll == T.CRITICAL_MISS else ", miss"
        entry["text"] = text
        b.log.append(entry)  # `note`, with its round already first
    _after_loss(b, target, refresh=part is not None and left == 0)


def _after_loss(b: Battle, target: Unit, refresh: bool = True) -> None:
    """The target's condition and penalties after damage (`refresh`: False when no
    section fell, which changes neither), and its going out of the fight."""
    if refresh:
        target.refresh()
    if not target.operative and target.out_round is None:
        target.out_round = b.round
        if b.first_out is None:
            b.first_out = target.side
        b.note(side=target.side, unit=target.id, action="out", condition=target.condition,
               text=f"{target.name} is {target.condition}")


# -- movement ----------------------------------------------------------------------------

#: R.step_cost per kind of mover (unit type, systems), by (colour left, colour entered,
#: climb): a pure function of a small domain, kept for every battle.
_MOVER_COSTS: Final[dict[tuple[str, tuple[str, ...]], dict[tuple[str, str, int], int | None]]] = {}


def _steps(b: Battle, unit: Unit, h: H.Hex, directions: tuple[int, ...]
           ) -> list[tuple[int, BoardHex, int]]:
    """The hexes this unit may step into from h in these directions: (direction, hex,
    movement points)."""
    around = _AROUND.get(h)
    if around is None:  # off the board: its neighbours that are on it
        around = tuple(n if n in BOARD else None for n in H.neighbours(h))
    utype, systems = unit.utype, unit.systems
    costs = _MOVER_COSTS.get((utype, systems))
    if costs is None:
        costs = _MOVER_COSTS[(utype, systems)] = {}
    structures, colour, height = b.structures, b.colour, b.height
    here, level = colour.get(h, "grey"), height.get(h, 0)
    steps: list[tuple[int, BoardHex, int]] = []
    for d in directions:
        n = around[d]
        if n is None or n in structures:
            continue
        to = colour.get(n, "grey")
        key = (here, to, height.get(n, 0) - level)
        c = costs.get(key, -1)
        if c == -1:
            c = costs[key] = R.step_cost(
                colour=to, climb=key[2], in_water=T.HEX_COLOURS[here].water,
                to_water=T.HEX_COLOURS[to].water, unit_type=utype, systems=systems)
        if c is not None:
            steps.append((d, n, c))
    return steps


#: The board's hexes by `_RANK` (None: no hex of that rank), and each one's neighbour
#: ranks by direction (`_NEXT[rank * 6 + d]`, -1: off the board): the movement search
#: runs on these small integers.
_HEX_OF: Final[list[BoardHex]] = [_BY_RANK.get(k) for k in range(_RANKS)]
_NEXT: Final[list[int]] = [
    -1 if n is None else _RANK[n]
    for k in range(_RANKS)
    for n in (_AROUND[_BY_RANK[k]] if k in _BY_RANK else (None,) * 6)]
#: The colours the terrain arrays number (`_colour_number`), and R.step_cost of a kind of
#: mover by (colour left, colour entered, climb) as one integer (`_step_key`; -1: it
#: may not enter).
_COLOURS: Final[list[str]] = list(T.HEX_COLOURS)
_COLOUR_NUMBER: Final[dict[str, int]] = {c: i for i, c in enumerate(_COLOURS)}
_MOVER_STEPS: Final[dict[tuple[str, tuple[str, ...]], list[int]]] = {}
#: `_MOVER_STEPS` holds the steps between the first 16 colours climbing -8..7 levels, by
#: (colour left x 16 + colour entered) x 16 + climb + 8; any other is worked out anew.
_STEP_KEYS: Final = 16 * 16 * 16
#: `_moves`' table of a hex not worked out yet.
_UNKNOWN: Final = -2


def _colour_number(colour: str) -> int:
    found = _COLOUR_NUMBER.get(colour)
    if found is None:  # not a colour of the seed: R.step_cost refuses it when entered
        found = _COLOUR_NUMBER[colour] = len(_COLOURS)
        _COLOURS.append(colour)
    return found


def _terrain(b: Battle) -> tuple[list[int], list[int], list[bool]]:
    """The board as arrays by `_RANK`: each hex's colour (`_colour_number`), height, and
    whether a structure stands on it; by standing structures (a fallen structure turns
    its hex black), shared like `Battle.moves`. `build` gives the first; another is the
    last one with the hexes of the structures that fell or rose since read again."""
    if b._terrain_for is b.standing_structures:
        return b._terrain_now
    found = b.terrains.get(b.standing_structures)
    if found is None:
        before = b._terrain_for
        colour, height, structures = b.colour, b.height, b.structures
        if before is None:
            colours = [0] * _RANKS
            heights = [0] * _RANKS
            solid = [False] * _RANKS
            changed: frozenset[H.Hex] | list[BoardHex] = [h for h in _HEX_OF if h is not None]
        else:
            now = b._terrain_now
            colours, heights, solid = list(now[0]), list(now[1]), list(now[2])
            changed = before ^ b.standing_structures
        for h in changed:
            k = _RANK.get(h)
            if k is not None:
                colours[k] = _colour_number(colour.get(h, "grey"))
                heights[k] = height.get(h, 0)
                solid[k] = h in structures
        found = b.terrains[b.standing_structures] = (colours, heights, solid)
    b._terrain_for = b.standing_structures
    b._terrain_now = found
    return found


def _moves(b: Battle, unit: Unit) -> list[int]:
    """The movement points of each step on the board for this kind of mover and the
    structures standing: `[rank * 6 + direction]` (-1: it may not step there), each hex
    worked out when the search first stands on it (`_fill`); the board's, shared like
    `Battle.moves`."""
    key = (unit.utype, unit.systems, b.standing_structures)
    table = b.moves.get(key)
    if table is None:
        table = b.moves[key] = [_UNKNOWN] * (_RANKS * 6)
    return table


def _fill(b: Battle, unit: Unit, table: list[int], k: int) -> None:
    """`_moves` of the six steps from the hex of rank k (R.step_cost, as `_steps`)."""
    colours, heights, solid = _terrain(b)
    utype, systems = unit.utype, unit.systems
    costs = _MOVER_STEPS.get((utype, systems))
    if costs is None:
        costs = _MOVER_STEPS[(utype, systems)] = [_UNKNOWN] * _STEP_KEYS
    here, level = colours[k], heights[k]
    for d in range(6):
        n = _NEXT[k * 6 + d]
        c = -1
        if n >= 0 and not solid[n]:
            to = colours[n]
            climb = heights[n] - level
            key = -1
            c = _UNKNOWN
            if here < 16 and to < 16 and -8 <= climb < 8:
                key = (here * 16 + to) * 16 + climb + 8
                c = costs[key]
            if c == _UNKNOWN:
                got = R.step_cost(
                    colour=_COLOURS[to], climb=climb,
                    in_water=T.HEX_COLOURS[_COLOURS[here]].water,
                    to_water=T.HEX_COLOURS[_COLOURS[to]].water, unit_type=utype,
                    systems=systems)
                c = -1 if got is None else got
                if key >= 0:
                    costs[key] = c
        table[k * 6 + d] = c


def steps_from(b: Battle, unit: Unit, h: H.Hex) -> list[tuple[int, BoardHex, int]]:
    """The hexes this unit may step into from h: (direction, hex, movement points)."""
    return _steps(b, unit, h, _ALL_DIRECTIONS)


_ALL_DIRECTIONS = (0, 1, 2, 3, 4, 5)


#: "A unit may move onto one of the three hexes within the Units Field of View": the
#: front-left, front-centre and front-right directions, relative to its facing.
FRONT = frozenset((5, 0, 1))
#: Those directions for each facing, in ascending order.
_FRONT_DIRECTIONS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted((facing + k) % 6 for k in FRONT)) for facing in range(6))
#: The same, flat: `_FRONT_FLAT[facing * 3 + i]`.
_FRONT_FLAT: Final[list[int]] = [d for ds in _FRONT_DIRECTIONS for d in ds]


def front_steps(b: Battle, unit: Unit, facing: int, h: H.Hex
                ) -> list[tuple[BoardHex, int, int]]:
    """The hexes this unit may step into from h facing `facing`: (hex, movement points,
    its `_RANK`)."""
    k = _RANK.get(h)
    if k is None:  # off the board
        return [(n, c, _RANK[n]) for _d, n, c in _steps(b, unit, h, _FRONT_DIRECTIONS[facing])]
    table = _moves(b, unit)
    if table[k * 6] == _UNKNOWN:
        _fill(b, unit, table, k)
    out = []
    for d in _FRONT_DIRECTIONS[facing]:
        c = table[k * 6 + d]
        if c >= 0:
            n = _NEXT[k * 6 + d]
            out.append((_HEX_OF[n], c, n))
    return out


def reachable(b: Battle, unit: Unit, points: int, facing: int,
              avoid: frozenset[H.Hex]
              ) -> tuple[dict[BoardHex, int], dict[BoardHex, BoardHex]]:
    """The hexes a standard move reaches with `points`, stepping only into the three
    hexes in front of `facing` (a move keeps the facing; R-30-14), never into `avoid`:
    the cheapest cost of each, and the hex each is entered from (the path). The search
    takes the cheapest hex first, then the lowest offset coordinates: its queue holds
    one integer a hex, points spent x `_RANKS` + the hex's `_RANK`. It runs on ranks
    (`_moves`, `_NEXT`); the answer is by hex, each hex in the order first reached."""
    start: BoardHex = unit.at
    s = _RANK.get(start)
    if s is None:  # off the board
        return _reachable_off(b, unit, points, facing, avoid)
    table = _moves(b, unit)
    far = 1 << 30
    best = [far] * _RANKS
    came = [-1] * _RANKS
    best[s] = 0
    order: list[int] = []
    banned: set[int] = set()
    for a in avoid:
        r = _RANK.get(a)
        if r is not None:
            banned.add(r)
    # The queue by points spent: every step costs a point at least, so the hexes of one
    # cost are all queued before the first of them is stepped from; each cost's hexes
    # are taken in rank order (a heap's order, by points spent x _RANKS + rank).
    queue: list[list[int]] = [[] for _ in range(max(0, points) + 1)]
    front = facing * 3
    spent = 0
    todo = [s]
    while True:
        for h in todo:
            if best[h] < spent:
                continue  # reached more cheaply since it was queued
            base = h * 6
            if table[base] == _UNKNOWN:
                _fill(b, unit, table, h)
            for j in range(3):
                d = _FRONT_FLAT[front + j]
                c = table[base + d]
                if c < 0:
                    continue
                total = spent + c
                if total > points:
                    continue
                n = _NEXT[base + d]
                if total >= best[n] or n in banned:
                    continue
                if best[n] == far:
                    order.append(n)
                best[n] = total
                came[n] = h
                queue[total].append(n)
        spent += 1
        while spent <= points and not queue[spent]:
            spent += 1
        if spent > points:
            break
        todo = queue[spent]
        todo.sort()
    costs: dict[BoardHex, int] = {start: 0}
    paths: dict[BoardHex, BoardHex] = {}
    for n in order:
        hx = _HEX_OF[n]
        costs[hx] = best[n]
        k = came[n]
        paths[hx] = start if k == s else _HEX_OF[k]
    return costs, paths


def _reachable_off(b: Battle, unit: Unit, points: int, facing: int,
                   avoid: frozenset[H.Hex]
                   ) -> tuple[dict[BoardHex, int], dict[BoardHex, BoardHex]]:
    """`reachable` from a hex off the board (the same search, on hexes)."""
    start: BoardHex = unit.at
    best: dict[BoardHex, int] = {start: 0}
    came: dict[BoardHex, BoardHex] = {}
    queue: list[int] = []
    far = 1 << 30
    pop, push = heapq.heappop, heapq.heappush
    h, spent = start, 0
    while True:
        for n, c, rank in front_steps(b, unit, facing, h):
            total = spent + c
            if total > points or total >= best.get(n, far) or n in avoid:
                continue
            best[n] = total
            came[n] = h
            push(queue, total * _RANKS + rank)
        found = False
        while queue:  # the next hex to step on from, at its cheapest cost
            key = pop(queue)
            spent = key // _RANKS
            h = _BY_RANK[key - spent * _RANKS]
            if spent <= best[h]:
                found = True
                break
        if not found:
            return best, came


def path_to(came: dict[H.Hex, H.Hex], start: H.Hex, dest: H.Hex) -> list[H.Hex]:
    """The hexes entered on the way from start to dest (dest last)."""
    out = []
    h = dest
    while h != start:
        out.append(h)
        h = came[h]
    return out[::-1]



def _score_markers(b: Battle) -> None:
    for m in b.markers:
        near = {u.side for u in b.units if u.operative and hex_distance(u.at, m) <= 1}
        if len(near) == 1:
            side = near.pop()
            b.primary[side] = b.primary.get(side, 0) + 1
            b.note(side=side, action="objective", at=list(offset_of(m)),
                   text=f"Side {side} holds the objective at {offset_of(m)}")


def _nearest_enemy(b: Battle, unit: Unit) -> int:
    nearest, at, side = 99, unit.at, unit.side
    for e in b.units:  # `enemies`, inlined
        if e.side != side and e.condition != "destroyed" and not e.left:
            d = hex_distance(at, e.at)
            if d < nearest:
                nearest = d
    return nearest


def _next_side(b: Battle, acted: set[int]) -> str | None:
    """The side to activate a unit next: of the sides with a unit still to act, the one
    that has activated the fewest units this round, the attacker first on a tie."""
    counts: dict[str, int] = {}  # dict.fromkeys, as a loop: a compiled call by name costs more
    for s in b.sides:
        counts[s] = 0
    waiting: set[str] = set()
    for u in b.units:
        if u.id in acted:
            counts[u.side] += 1
        elif u.alive:
            waiting.add(u.side)
    if not waiting:
        return None
    # the fewest activations, then the attacker, then the sides' order (a loop: `min`
    # with a key costs a compiled engine a call a side)
    found: str | None = None
    fewest = 0
    order = [b.attacker]
    order.extend(s for s in b.sides if s != b.attacker)
    for s in order:
        if s in waiting and (found is None or counts[s] < fewest):
            found, fewest = s, counts[s]
    return found


def scores(b: Battle) -> dict[str, Json]:
    """Victory points per side (R-30-12, R-30-13)."""
    destroy = T.BRIEFINGS[b.mission["mission"]].kind == "destroy"
    out = {}
    for side in b.sides:
        enemies = [u for u in b.units if u.side != side]
        gone = [u for u in enemies if not u.operative]
        primary = (R.destroy_points(sum(u.cost for u in gone), sum(u.cost for u in enemies))
                   if destroy else b.primary.get(side, 0))
        first = b.first_out is not None and b.first_out != side
        out[side] = R.victory_points(primary, R.secondary_points(len(gone), first))
    return out


def winner(b: Battle) -> str | None:
    """R-30-13: a side with no operative unit cannot hold the field; otherwise the most
    victory points, a tie to the defender."""
    standing = b.standing()
    if len(standing) == 1:
        return standing[0]
    if not standing:
        return None
    vp = scores(b)
    top = max(vp[s]["total"] for s in standing)
    leaders = [s for s in standing if vp[s]["total"] == top]
    if len(leaders) == 1:
        return leaders[0]
    return b.defender if b.defender in leaders else leaders[0]
