"""The battle-dice battle on the hex board: its state and the rules that change it (a
battle, retreats, damage). Who does what, and whether it is allowed, is the action layer's
(`actions.py`, the referee) and the default policy's (`policy.py`). Every die goes through
the `Dice` seam.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from battles.rulesets.battledice import rules as R
from battles.rulesets.battledice import tables as T
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

to_axial = H.to_axial

#: `hexgrid.distance` and `hexgrid.to_offset` of each pair / hex asked so far: pure
#: functions of hexes on (or next to) a bounded board, asked hundreds of times a battle and
#: every odds simulation; a compiled look-up here instead of an interpreted call each time.
_DISTANCES: dict[tuple[H.Hex, H.Hex], int] = {}
_OFFSETS: dict[H.Hex, tuple[int, int]] = {}


def distance(a: H.Hex, b: H.Hex) -> int:
    """`hexgrid.distance` (kept: `_DISTANCES`)."""
    key = (a, b)
    found = _DISTANCES.get(key)
    if found is None:
        found = _DISTANCES[key] = H.distance(a, b)
    return found


def to_offset(h: H.Hex) -> tuple[int, int]:
    """`hexgrid.to_offset` (kept: `_OFFSETS`)."""
    found = _OFFSETS.get(h)
    if found is None:
        found = _OFFSETS[h] = H.to_offset(h)
    return found


def on_board(h: H.Hex) -> bool:
    col, row = to_offset(h)
    return 0 <= col < T.COLUMNS and 0 <= row < T.ROWS


@dataclass
class Unit:
    id: int
    side: str
    name: str
    key: str
    models: int
    models_start: int
    damage: int
    damage_start: int
    rank: int
    at: H.Hex
    leader_of: int | None = None  # a single Leader attached to this unit id
    off_board: bool = False
    #: The unit's profile, looked up once (a unit's key never changes): read on every
    #: step of the hot path (sight, moves, battles), so not a table look-up each time.
    stats: T.Stats = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.stats = T.stats(self.key)

    @property
    def destroyed(self) -> bool:
        return self.models <= 0

    @property
    def alive(self) -> bool:
        return self.models > 0 and not self.off_board  # not destroyed, still on the field

    @property
    def single(self) -> bool:
        return self.models == 1 and self.stats.unit_class != "infantry"


@dataclass
class Battle:
    sides: list[str]
    defender: str | None
    units: list[Unit]
    terrain: dict[H.Hex, str]
    options: dict[str, Any]
    hands: dict[str, list[int]]
    deck: list[int]
    dice: Dice
    faces: tuple[str, ...]
    log: list[dict[str, Any]] = field(default_factory=list)
    keep_log: bool = True
    turn: int = 0

    def note(self, **entry: Any) -> None:
        if self.keep_log:
            self.log.append({"turn": self.turn, **entry})

    def at(self, h: H.Hex) -> Unit | None:
        for u in self.units:
            if u.at == h and u.leader_of is None and u.models > 0 and not u.off_board:
                return u
        return None

    def occupied(self) -> dict[H.Hex, Unit]:
        """Every hex a unit stands on (an attached Leader stands with its unit)."""
        return {u.at: u for u in reversed(self.units)
                if u.leader_of is None and u.models > 0 and not u.off_board}

    def leader_with(self, unit: Unit) -> Unit | None:
        uid = unit.id  # the cheap test first: most units lead nobody
        return next((u for u in self.units if u.leader_of == uid and u.alive), None)

    def enemies(self, unit: Unit) -> list[Unit]:
        return [u for u in self.units if u.side != unit.side and u.leader_of is None
                and u.models > 0 and not u.off_board]

    def standing(self) -> list[str]:
        return [s for s in self.sides if any(u.side == s and u.models > 0 and not u.off_board
                                             for u in self.units)]

    def hex_size(self, h: H.Hex) -> int:
        occupant = self.at(h)
        terrain = T.TERRAIN_SIZE.get(self.terrain.get(h, "open"), 0)
        return max(terrain, occupant.stats.size if occupant else 0)


def build(battle_input: dict[str, Any], dice: Dice, keep_log: bool = True) -> Battle:
    units = []
    for side, roster in battle_input["sides"].items():
        for u in roster:
            units.append(Unit(id=int(u["id"]), side=str(side), name=str(u["name"]),
                              key=u["key"], models=int(u["models"]),
                              models_start=int(u["models"]), damage=int(u.get("damage", 0)),
                              damage_start=int(u.get("damage", 0)), rank=int(u.get("rank", 0)),
                              at=to_axial(*u["at"]), leader_of=u.get("leader_of")))
    terrain = {to_axial(int(c), int(r)): kind for c, r, kind in battle_input["terrain"]}
    options = dict(battle_input.get("options") or {})
    deck = list(battle_input["deck"])
    hands = {}
    for side in battle_input["sides"]:
        hands[str(side)], deck = deck[:T.HAND_SIZE], deck[T.HAND_SIZE:]
    return Battle(sides=[str(s) for s in battle_input["sides"]],
                  defender=battle_input.get("defender"), units=units, terrain=terrain,
                  options=options, hands=hands, deck=deck, dice=dice,
                  faces=R.faces_of(options), keep_log=keep_log)


def _nearest(b: Battle, unit: Unit) -> Unit | None:
    enemies = b.enemies(unit)
    return min(enemies, key=lambda e: (distance(unit.at, e.at), e.id)) if enemies else None


@lru_cache(maxsize=8192)
def _between(a: H.Hex, b: H.Hex) -> tuple[tuple[H.Hex, bool], ...]:
    """The hexes a line of sight from a to b crosses, each with whether it is adjacent to
    a or to b (a pure function of the two hexes, so worked out once per pair)."""
    return tuple((h, distance(h, a) == 1 or distance(h, b) == 1)
                 for h in H.line(a, b)[1:-1])


def _can_see(b: Battle, unit: Unit, target: Unit) -> bool:
    between = _between(unit.at, target.at)
    if not between:
        return True
    # Each crossed hex's size (`Battle.hex_size`), with the occupants read once per look.
    occupied = b.occupied()
    terrain = b.terrain
    blocking = []
    adjacent = []
    for h, next_to_either in between:
        occupant = occupied.get(h)
        size = T.TERRAIN_SIZE.get(terrain.get(h, "open"), 0)
        if occupant is not None and occupant.stats.size > size:
            size = occupant.stats.size
        if size > 0:
            blocking.append(size)
        if next_to_either:
            adjacent.append(size)
    return R.line_of_sight(firer_size=unit.stats.size, target_size=target.stats.size,
                           blocking=blocking,
                           firer_is_god_machine=unit.stats.unit_class == "god_machine",
                           target_is_god_machine=target.stats.unit_class == "god_machine",
                           adjacent_blocking=adjacent)


def _move(b: Battle, unit: Unit, goal: Unit) -> int:
    """Step hex by hex toward `goal`, never through or onto an occupied hex, stopping in
    range and sight (or adjacent); returns hexes moved."""
    moved = 0
    leader = b.leader_with(unit)
    while moved < unit.stats.move:
        d = distance(unit.at, goal.at)
        if d <= 1 or (d <= unit.stats.range and _can_see(b, unit, goal)):
            break
        options = [h for h in H.neighbours(unit.at) if on_board(h) and b.at(h) is None
                   and distance(h, goal.at) < d]
        if not options:
            break
        unit.at = min(options, key=lambda h: (distance(h, goal.at), to_offset(h)))
        if leader is not None:
            leader.at = unit.at  # "a single Leader moves as the unit"
        moved += 1
    return moved


def _retreat(b: Battle, source: Unit, target: Unit, steps: int) -> list[str]:
    """"For each retreat symbol rolled on the battle dice, a unit must move one hex
    directly away from the unit that caused it to Retreat." Blocked: R-BD-5."""
    notes = []
    leader = b.leader_with(target)
    for _ in range(steps):
        if not target.alive:
            break
        nxt = H.away(source.at, target.at)
        if not on_board(nxt):
            target.off_board = True
            if leader is not None:
                leader.off_board = True
            notes.append("leaves the field")
            break
        if b.at(nxt) is not None:
            if b.options.get("battledice_blocked_retreat", "hit") == "hit":
                _damage(b, target, 1)
                notes.append("cannot retreat and takes a hit")
            else:
                notes.append("cannot retreat and holds")
            continue
        target.at = nxt
        if leader is not None:
            leader.at = nxt
        notes.append(f"retreats to {to_offset(nxt)}")
    return notes


def _damage(b: Battle, target: Unit, hits: int) -> dict[str, Any]:
    result = R.apply_hits(models=target.models, size=target.stats.size,
                          damage=target.damage, hits=hits,
                          unit_class=target.stats.unit_class)
    target.models, target.damage = result["models"], result["damage"]
    if target.destroyed:
        leader = b.leader_with(target)
        if leader is not None:
            leader.leader_of = None  # the Leader stays on the hex, on its own (R-BD-9)
    return result


def _battle(b: Battle, unit: Unit, target: Unit) -> None:
    d = distance(unit.at, target.at)
    close = d == 1
    n = R.battle_dice(dice=unit.stats.dice, rank=unit.rank, close_assault=close,
                      distance=d, range_=unit.stats.range,
                      target_in_cover=b.terrain.get(target.at) in T.COVER_TERRAIN)
    symbols = R.roll_symbols(b.dice, n, b.faces)
    read = R.hits_from(symbols, attacker_class=unit.stats.unit_class,
                       attacker_type=unit.stats.unit_type,
                       target=R.Target(target.stats.unit_class, target.stats.unit_type,
                                       models=target.models, size=target.stats.size,
                                       damage=target.damage,
                                       leader_attached=b.leader_with(target) is not None),
                       attacker_has_leader=b.leader_with(unit) is not None)
    hits = read["hits"]
    shields: dict[str, Any] = {}
    if hits and target.stats.unit_class == "god_machine":
        shields = R.void_shields(b.dice, capacity=target.stats.size, damage=target.damage,
                                 hits=hits, faces=b.faces)
        hits = shields["hits"]
    if read["leader_lost"]:
        leader = b.leader_with(target)
        if leader is not None:
            leader.models = 0
    damage = _damage(b, target, hits) if hits else {}
    moves = _retreat(b, unit, target, read["retreats"]) if target.alive else []
    if not b.keep_log:  # the odds keep no log: build no text for one
        return
    b.note(side=unit.side, unit=unit.id, action="close_assault" if close else "fire",
           target=target.id, symbols=symbols, shields=shields.get("symbols", []),
           hits=hits, retreats=read["retreats"], leader_lost=read["leader_lost"],
           destroyed=damage.get("destroyed", False),
           text=f"{unit.name} {'close-assaults' if close else 'fires at'} {target.name}: "
                f"{', '.join(symbols)}" + (f"; void shields {', '.join(shields['symbols'])}"
                                           if shields.get("symbols") else "")
                + f" -> {hits} hit(s)" + (", destroyed" if damage.get("destroyed") else "")
                + (f"; {target.name} " + ", ".join(moves) if moves else ""))
