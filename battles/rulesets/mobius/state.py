"""The state of a Mobius battle on its one axis (R-MOB-3): the units, the table and the
record the engine keeps. Pure data and a few questions about it."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.rulesets.base import Plan
from campaign.rules.dice import Dice

STRIP = 6
EDGE_BEHIND = 12
UNARMED: dict[str, Any] = {"key": "unarmed", "name": "bare hands", "rng": 0, "st": 2,
                           "ak": 1, "dam": 1, "type": "melee"}


def avg_dam(dam: int | str) -> float:
    return {"D3": 2.0, "D6": 3.5}.get(str(dam), float(dam) if isinstance(dam, int) else 1.0)


class Unit:
    """One unit of a battle. A plain class, not a dataclass: a compiled dataclass is built
    by the interpreted `__init__` the dataclass machinery writes, and every battle and odds
    simulation builds each of its units (issue 32). Nothing compares units by value."""

    # What never changes in a battle (its rules, subtypes and weapons), worked out once as
    # the unit is built (`_derive`) instead of at every look.
    #: Its special rules and subtypes, sorted.
    rules_list: list[str]
    subtypes_list: list[str]
    #: Its ranged weapons, and by key (the last of a key, as the layer reads a choice).
    _ranged: list[dict[str, Any]]
    ranged_by_key: dict[str, dict[str, Any]]
    #: Its melee weapons, and the best of them.
    _melee_weapons: list[dict[str, Any]]
    _best_melee: dict[str, Any]
    _melee_minded: bool
    #: The longest range of its ranged weapons (0: none).
    reach: int

    def __init__(self, id: int = 0, side: str = "", name: str = "", faction: str = "",
                 rank: str = "troops", vehicle: bool = False,
                 subtypes: Collection[str] = (), rules: Collection[str] = (),
                 hp: Sequence[int] = (), hp_start: int = 1, models_start: int = 1,
                 move: int = 0, move_flying: int = 0, move_min: int = 0, cqc: int = 0,
                 rc: int | None = None, pan: int = 0, dfc: int = 0, arm: int = 0,
                 weapons: Sequence[dict[str, Any]] = (), points: int = 0, x: float = 0.0,
                 camouflage: int = 0, shielded: int | None = None, variant_of: str = "",
                 flying: bool = False, capacity: int = 0, reserve: bool = False,
                 like: Unit | None = None) -> None:
        # (every argument has a default: compiled, a class whose `__init__` needs none is
        # what `copy.deepcopy` can make before it fills it in, as the layer's tests do)
        self.id = id
        self.side = side
        self.name = name
        self.faction = faction
        self.rank = rank
        self.vehicle = vehicle
        self.subtypes: set[str] = set(subtypes)
        self.rules: set[str] = set(rules)
        self.hp: list[int] = list(hp)
        self.hp_start = hp_start
        self.models_start = models_start
        self.move = move
        self.move_flying = move_flying
        self.move_min = move_min
        self.cqc = cqc
        self.rc = rc
        self.pan = pan
        self.dfc = dfc
        self.arm = arm
        self.weapons: list[dict[str, Any]] = list(weapons)
        self.points = points
        self.x = x
        self.camouflage = camouflage
        self.shielded = shielded
        self.variant_of = variant_of
        self.flying = flying
        self.movement = "stationary"
        self.charged = False
        self.fired = False
        self.escape_failed = False
        self.panicked = False
        self.unpanicked_now = False
        self.dug_in = False
        self.must_panic = False
        self.routed = False
        self.destroyed = False
        self.immortal_used = False
        self.howling = False
        self.howl_used = False
        self.inside: int | None = None
        self.capacity = capacity
        self.reserve = reserve
        self.joined: int | None = None
        self.skip_turn = False
        self.locked: set[int] = set()
        #: Still an unrevealed Blip (only where a case or a table sets it up: R-MOB-23).
        self.blip = False
        #: The owner's standing choice of which model takes the damage (`allocation.py`).
        self.allocation = "keep_alive"
        #: Left the table because its side's battle plan withdrew it (R-MOB-40).
        self.withdrew = False
        #: The engine's look-ups that never change in a battle: the ranged weapons that may
        #: fire after each movement, and their ranking against each target (`engine.py`).
        self.firing: dict[str, list[dict[str, Any]]] = {}
        self.firing_reach: dict[str, float] = {}
        self.ranked: dict[tuple[str, int], list[dict[str, Any]]] = {}
        #: Its move allowances without a die, by (move, in flight, the ground it starts on).
        self.allowances: dict[tuple[str, bool, str], int] = {}
        if like is None:
            self._derive()
        else:  # the same profile: what is worked out from it, and the look-ups, are shared
            self.rules_list = like.rules_list
            self.subtypes_list = like.subtypes_list
            self._ranged = like._ranged
            self.ranged_by_key = like.ranged_by_key
            self._melee_weapons = like._melee_weapons
            self._best_melee = like._best_melee
            self._melee_minded = like._melee_minded
            self.reach = like.reach
            self.firing = like.firing
            self.firing_reach = like.firing_reach
            self.ranked = like.ranked
            self.allowances = like.allowances

    def fresh(self) -> Unit:
        """This unit as a battle input lists it, for another battle of the same input (the
        odds' simulations, `engine.build`): its own HP and state; its profile, weapons,
        rules and the look-ups worked out from them (pure functions of the input) shared.
        Only a unit no battle has played on yet (`engine.roster`)."""
        return Unit(self.id, self.side, self.name, self.faction, self.rank, self.vehicle,
                    self.subtypes, self.rules, self.hp, self.hp_start, self.models_start,
                    self.move, self.move_flying, self.move_min, self.cqc, self.rc, self.pan,
                    self.dfc, self.arm, self.weapons, self.points, self.x,
                    camouflage=self.camouflage, shielded=self.shielded,
                    variant_of=self.variant_of, flying=self.flying, capacity=self.capacity,
                    reserve=self.reserve, like=self)

    def __repr__(self) -> str:
        return f"Unit(id={self.id!r}, side={self.side!r}, name={self.name!r})"

    def _derive(self) -> None:
        self.rules_list = sorted(self.rules)
        self.subtypes_list = sorted(self.subtypes)
        self._ranged = [] if self.rc is None else [
            w for w in self.weapons
            if w["type"] != "melee" and "bomb" not in (w.get("rules") or ())]
        self.ranged_by_key = {w["key"]: w for w in self._ranged}
        self._melee_weapons = [
            w for w in self.weapons if w["type"] == "melee"
            or "combined" in (w.get("rules") or ())]
        options = self._melee_weapons or [UNARMED]
        self._best_melee = max(
            options, key=lambda w: (w["st"] * w["ak"] * avg_dam(w["dam"]), w["key"]))
        self._melee_minded = self._minds_melee()
        self.reach = max((w["rng"] for w in self._ranged), default=0)

    @property
    def alive(self) -> int:
        n = 0
        for h in self.hp:
            if h > 0:
                n += 1
        return n

    @property
    def on_table(self) -> bool:
        return not (self.destroyed or self.routed or self.reserve)

    @property
    def in_play(self) -> bool:
        """Still in the battle: on the table or waiting in Reserve."""
        return not (self.destroyed or self.routed)

    @property
    def hp_left(self) -> int:
        n = 0
        for h in self.hp:
            if h > 0:
                n += h
        return n

    @property
    def hero(self) -> bool:
        return self.rank in ("hq", "heroes")

    def ranged(self) -> list[dict[str, Any]]:
        """Its ranged weapons (a unit's weapons never change in a battle)."""
        return self._ranged

    def melee_weapons(self) -> list[dict[str, Any]]:
        """Its melee weapons (a unit's weapons never change in a battle)."""
        return self._melee_weapons

    def best_melee(self) -> dict[str, Any]:
        return self._best_melee

    def melee_minded(self) -> bool:
        """R-MOB-19: a unit charges when its melee is worth at least its shooting."""
        return self._melee_minded

    def _minds_melee(self) -> bool:
        if self.vehicle:
            return False
        if not self._ranged:
            return True
        m = self._best_melee
        melee = int(m["ak"]) * int(m["st"]) * (self.cqc + 1)
        shot = max(int(w.get("ak2", w["ak"])) * int(w["st"]) * (7 - (self.rc or 6))
                   for w in self._ranged)
        return melee >= shot * 2


@dataclass
class Battle:
    order: list[str]
    defender: str | None
    units: list[Unit]
    terrain: list[str]
    gap: float
    mission: str
    options: dict[str, Any]
    dice: Dice
    limits: dict[str, int]
    log: list[dict[str, Any]] = field(default_factory=list)
    keep_log: bool = True
    round: int = 0
    had_turn: set[str] = field(default_factory=set)
    commander: dict[str, int | None] = field(default_factory=dict)
    vp: dict[str, int] = field(default_factory=dict)
    points_owner: list[str | None] = field(default_factory=list)
    held_all: str | None = None
    winner: str | None = None
    end_reason: str = ""
    turns_played: dict[str, int] = field(default_factory=dict)
    by_id: dict[int, Unit] = field(default_factory=dict)
    #: How many more units each side may bring from Reserve in its Movement Phase.
    reserve_room: dict[str, int] = field(default_factory=dict)
    #: The sides' sealed battle plans (issue 29, R-MOB-40..43), by side key.
    plans: dict[str, Plan] = field(default_factory=dict)
    #: Each side's strength as the battle began: its models' HP (R-MOB-41).
    strength: dict[str, int] = field(default_factory=dict)
    #: The sides whose plan has made them leave the field (R-MOB-40).
    withdrawing: set[str] = field(default_factory=set)
    #: Some unit has made a War Howl in this battle (none has: no need to look for one).
    howled: bool = False
    #: Some unit of the battle is Terrifying (its rules never change).
    fearsome: bool = False

    def note(self, **entry: Any) -> None:
        if self.keep_log:
            self.log.append({"round": self.round, **entry})

    def side_withdrawing(self, side: str) -> bool:
        return side in self.withdrawing

    def line(self, side: str) -> float:
        i = self.order.index(side)
        return 0.0 if len(self.order) < 2 else self.gap * i / (len(self.order) - 1)

    def edge(self, side: str) -> float:
        return -EDGE_BEHIND if self.line(side) < self.gap / 2 else self.gap + EDGE_BEHIND

    def terrain_at(self, x: float) -> str:
        if x < 0 or x > self.gap:
            return "open"
        return self.terrain[min(len(self.terrain) - 1, int(x // STRIP))]

    def standing(self) -> list[str]:
        """The sides with a unit still in play, in turn order."""
        playing = set()
        for u in self.units:
            if not (u.destroyed or u.routed):  # in play
                playing.add(u.side)
        return [s for s in self.order if s in playing]

    def enemies(self, u: Unit) -> list[Unit]:
        """Enemy units on the table and not inside a transport ("the Unit cannot be
        targeted until either the Vehicle is destroyed or they leave")."""
        side = u.side
        if len(self.by_id) != len(self.units):
            self.by_id = {x.id: x for x in self.units}
        by_id = self.by_id
        return [e for e in self.units if e.side != side and e.inside is None
                and not (e.destroyed or e.routed or e.reserve)
                and (e.joined is None or not by_id[e.joined].on_table)]

    def shielded_by_host(self, u: Unit) -> bool:
        """Independents: "an enemy trying to target an Independent must get past the whole
        Unit first!" (R-MOB-38)."""
        return u.joined is not None and self.unit(u.joined).on_table

    def passengers(self, v: Unit) -> list[Unit]:
        return [p for p in self.units if p.inside == v.id and p.on_table]

    def unit(self, uid: int) -> Unit:
        try:
            return self.by_id[uid]
        except KeyError:  # not indexed yet (units are only ever added, as the battle is built)
            self.by_id = {u.id: u for u in self.units}
            return self.by_id[uid]


def dist(a: Unit, b: Unit) -> float:
    return abs(a.x - b.x)
