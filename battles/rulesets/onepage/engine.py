"""The one-page battle: its table, its units and the rules that change them (fire,
assault, movement, vehicle damage, transports). Who acts and whether it is allowed is the
action layer's (`actions.py`, the referee) and the default policy's (`policy.py`).

The table is abstracted to one axis (R-OP-5): the defender deploys on its line (x = 0),
the attackers on theirs (x = gap), each side's table edge 6 cm behind its line; the
ground between is cut into 6 cm strips whose cover comes from the territory's buildings
(the defender's strip) and the battle's seed (the others). Distances are along the axis.
Every die goes through the `Dice` seam, in the order the rules call for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from battles.rulesets.onepage import rules as R
from battles.rulesets.onepage import tables as T
from campaign.rules.dice import Dice

STRIP_CM = 6
EDGE_BEHIND_CM = 6


@dataclass
class Unit:
    id: int
    side: str
    name: str
    type: str
    training: str
    save: int
    weapons: list[str]  # infantry: one per figure (first figures fall last); vehicles: all
    figures: int
    figures_start: int
    figures_max: int
    x: float
    damage: list[str] = field(default_factory=list)
    spent: list[str] = field(default_factory=list)  # single-shot weapons fired
    suppressed: int = 0
    stunned: bool = False
    aimed: bool = False
    off_table: bool = False
    destroyed: bool = False
    turn_damage: list[str] = field(default_factory=list)
    #: Figures of the unit standing in the cover of its position (None: all of them);
    #: the table abstraction puts a whole unit in one strip, a case may split it (Cover).
    figures_in_cover: int | None = None
    capacity: int = 0  # a transport's room, in figures (R-OP-14)
    aboard: int | None = None  # the transport this unit rides in
    #: Whether the unit's type is a vehicle (its type never changes: looked up once; the
    #: referee and the policy ask often).
    vehicle: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.vehicle = T.UNIT_TYPES[self.type].vehicle

    @property
    def on_table(self) -> bool:
        return not (self.destroyed or self.off_table)

    @property
    def immobilised(self) -> bool:
        return "immobilised" in self.damage

    def firing_weapons(self) -> list[str]:
        """Vehicles fire every weapon not destroyed (R-OP-10); each infantry figure not
        suppressed fires its one weapon. Fired single-shot weapons are spent."""
        if self.vehicle:
            working = list(self.weapons)
            for lost in (d for d in self.damage if d.startswith("weapon:")):
                key = lost.split(":", 1)[1]
                if key in working:
                    working.remove(key)
        else:
            working = self.weapons[:max(0, self.figures - self.suppressed)]
        for key in self.spent:
            if key in working:
                working.remove(key)
        return working


@dataclass
class Battle:
    sides: list[str]
    defender: str | None
    attacker: str | None
    units: list[Unit]
    terrain: list[str]
    gap: float
    options: dict[str, Any]
    dice: Dice
    log: list[dict[str, Any]] = field(default_factory=list)
    keep_log: bool = True
    turn: int = 0

    def note(self, **entry: Any) -> None:
        if self.keep_log:
            self.log.append({"turn": self.turn, **entry})

    def edge(self, side: str) -> float:
        return -EDGE_BEHIND_CM if side == self.defender else self.gap + EDGE_BEHIND_CM

    def beyond_own_edge(self, unit: Unit) -> bool:
        edge = self.edge(unit.side)
        return unit.x <= edge if unit.side == self.defender else unit.x >= edge

    def cover_at(self, x: float) -> str:
        if x < 0 or x > self.gap:
            return "open"
        i = int(x // STRIP_CM)
        last = len(self.terrain) - 1
        return self.terrain[i if i < last else last]

    def enemies(self, unit: Unit) -> list[Unit]:
        """Enemies on the table and outside transports (passengers are not seen)."""
        side = unit.side
        return [u for u in self.units if u.side != side and u.aboard is None
                and not (u.destroyed or u.off_table)]

    def standing_sides(self) -> list[str]:
        """The sides with a unit on the table, in side order."""
        on = {u.side for u in self.units if not (u.destroyed or u.off_table)}
        return [s for s in self.sides if s in on]


def build(battle_input: dict[str, Any], dice: Dice, keep_log: bool = True) -> Battle:
    units = []
    for side, roster in battle_input["sides"].items():
        for u in roster:
            units.append(Unit(
                id=int(u["id"]), side=str(side), name=str(u.get("name") or u["id"]),
                type=u["type"], training=u.get("training", "green"), save=int(u["save"]),
                weapons=list(u.get("weapons") or ()), figures=int(u["figures"]),
                figures_start=int(u["figures"]),
                figures_max=int(u.get("figures_max", u["figures"])),
                x=float(u.get("x", 0)), damage=list(u.get("damage") or ()),
                spent=list(u.get("spent") or ()), capacity=int(u.get("capacity", 0)),
                aboard=u.get("aboard")))
    defender = battle_input.get("defender")
    sides = [str(s) for s in battle_input["sides"]]
    attacker = next((s for s in sides if s != defender), None)
    return Battle(sides=sides, defender=defender, attacker=attacker, units=units,
                  terrain=list(battle_input["terrain"]), gap=float(battle_input["gap_cm"]),
                  options=dict(battle_input.get("options") or {}), dice=dice,
                  keep_log=keep_log)


def _distance(a: Unit, b: Unit) -> float:
    return abs(a.x - b.x)


def _nearest(b: Battle, unit: Unit) -> Unit | None:
    enemies = b.enemies(unit)
    x = unit.x
    return min(enemies, key=lambda e: (abs(x - e.x), e.id)) if enemies else None


def _in_range(unit: Unit, target: Unit) -> bool:
    """A weapon of `unit` that can fire reaches `target` (`rules.fire_points` > 0 exactly
    when the range is within the weapon's) and can hurt it (`rules.affects`)."""
    d = _distance(unit, target)
    armoured = target.vehicle and target.save < 6
    for key in unit.firing_weapons():
        w = T.WEAPONS.get(key) or T.weapon(key)
        if d <= w.range_cm and not (armoured and w.small_arms):
            return True
    return False


def _visible_enemy_in_range(b: Battle, unit: Unit) -> bool:
    """`_in_range` of any enemy, the unit's working weapons looked up once (not once per
    enemy: every Activation asks)."""
    enemies = b.enemies(unit)
    if not enemies:
        return False
    weapons = [T.WEAPONS.get(key) or T.weapon(key) for key in unit.firing_weapons()]
    x = unit.x
    for target in enemies:
        d = abs(x - target.x)
        armoured = target.vehicle and target.save < 6
        for w in weapons:
            if d <= w.range_cm and not (armoured and w.small_arms):
                return True
    return False


def _move(b: Battle, unit: Unit, toward: float, budget: float, *, stop_at: float = 0.0,
          ends_on_open: bool = False) -> float:
    """Move up to `budget` cm toward `toward`, stopping `stop_at` cm short of it, paying
    terrain as `rules.movement` says, 1 cm at a time. Returns the distance moved."""
    if unit.immobilised:
        return 0.0
    step = 1.0 if toward > unit.x else -1.0
    start = unit.x
    left = budget
    edge = b.edge(unit.side)  # `b.beyond_own_edge`, worked out once for the whole move
    behind = -1.0 if unit.side == b.defender else 1.0
    while left > 0 and abs(toward - unit.x) > stop_at:
        nxt = unit.x + step
        cost = _step_cost(unit.type, b.cover_at(nxt), unit.save)
        if cost is None:
            break
        if cost > left:
            break
        unit.x = nxt
        left -= cost
        if (nxt - edge) * behind >= 0:
            break
    if ends_on_open and unit.type == "hover":
        while b.cover_at(unit.x) not in ("open", "water") and unit.x != start:
            unit.x -= step  # back to the last open ground (may not end on terrain)
    return abs(unit.x - start)


@lru_cache(maxsize=256)
def _step_cost(unit_type: str, cover: str, save: int) -> float | None:
    """What one centimetre of `cover` costs a unit of the type (`rules.movement`): 1, or 2
    at half speed; None when it may not enter. A pure function of its arguments."""
    rule = R.movement(unit_type, cover, save=save)
    if not rule["allowed"]:
        return None
    return 1.0 if rule["cm"] >= T.UNIT_TYPES[unit_type].move_cm else 2.0


def reach(b: Battle, unit: Unit, toward: float, budget: float, *, stop_at: float = 0.0,
          ends_on_open: bool = False) -> float:
    """Where `_move` would bring `unit` (changing nothing)."""
    start = unit.x
    try:
        _move(b, unit, toward, budget, stop_at=stop_at, ends_on_open=ends_on_open)
        return unit.x
    finally:
        unit.x = start


def blocked_at(b: Battle, unit: Unit, toward: float) -> float | None:
    """The first centimetre on the way to `toward` whose terrain `unit` may not enter."""
    step = 1.0 if toward > unit.x else -1.0
    x = unit.x
    while abs(toward - x) > 0:
        x += step
        if not R.movement(unit.type, b.cover_at(x), save=unit.save)["allowed"]:
            return x
    return None


def policy_move(b: Battle, unit: Unit, target: Unit) -> float:
    """The default player's Move (R-OP-15): toward `target`, stopping at the best range of
    a weapon that can hurt it; a hover vehicle backs onto open ground."""
    best = max((T.weapon(w).range_cm for w in unit.firing_weapons()
                if R.affects(w, vehicle=target.vehicle, save=target.save)), default=0)
    return reach(b, unit, target.x, T.UNIT_TYPES[unit.type].move_cm,
                 stop_at=max(0.0, best - 1), ends_on_open=True)


def passengers(b: Battle, carrier: Unit) -> list[Unit]:
    return [u for u in b.units if u.aboard == carrier.id and u.on_table]


def room(b: Battle, carrier: Unit) -> int:
    return carrier.capacity - sum(u.figures for u in passengers(b, carrier))


def carry(b: Battle, carrier: Unit) -> None:
    """Passengers ride where their transport goes."""
    for p in passengers(b, carrier):
        p.x = carrier.x


def unit_cover(b: Battle, unit: Unit) -> str:
    """Cover: "At least half of a Unit has to be in cover for the whole Unit to gain the
    benefit." (`rules.unit_cover`)."""
    inside = unit.figures if unit.figures_in_cover is None else unit.figures_in_cover
    return R.unit_cover(b.cover_at(unit.x), figures=max(1, unit.figures),
                        in_cover=inside)


def _passenger_hits(b: Battle, carrier: Unit, unsaved: int) -> list[dict[str, Any]]:
    """R-OP-14: "If a vehicle makes its save, passengers inside do not have to": each hit
    the transport fails to save strikes its passengers too (the first unit aboard), who
    save it with their own armour; unsaved, a casualty (setting `onepage_passenger_hits`)."""
    riders = passengers(b, carrier)
    if not riders or unsaved <= 0 or b.options.get(
            "onepage_passenger_hits", T.OPTIONS["onepage_passenger_hits"]) != "shared":
        return []
    rider = riders[0]
    saved = R.saves(b.dice, unsaved, rider.save)
    lost = min(rider.figures, saved["unsaved"])
    rider.figures -= lost
    if rider.figures <= 0:
        rider.destroyed = True
    return [{"unit": rider.id, "rolls": saved["rolls"], "casualties": lost}]


def _bail_out(b: Battle, carrier: Unit) -> list[dict[str, Any]]:
    """"6 Vehicle destroyed. All crew/passengers must bail out and each figure takes one
    hit." Each figure's hit is saved with its armour (setting `onepage_bail_out_saves`);
    unsaved hits are casualties (R-OP-14)."""
    out = []
    for rider in passengers(b, carrier):
        rider.aboard = None
        hits = rider.figures
        if b.options.get("onepage_bail_out_saves", T.OPTIONS["onepage_bail_out_saves"]):
            saved = R.saves(b.dice, hits, rider.save)
            lost, rolls = saved["unsaved"], saved["rolls"]
        else:
            lost, rolls = hits, []
        rider.figures -= min(rider.figures, lost)
        if rider.figures <= 0:
            rider.destroyed = True
        out.append({"unit": rider.id, "hits": hits, "rolls": rolls,
                    "casualties": min(hits, lost)})
    return out


def _take_hits(b: Battle, shooter: Unit, target: Unit, unsaved: int, *,
               assault: bool = False) -> dict[str, Any]:
    if unsaved <= 0:
        return {}
    if target.vehicle:
        dmg = R.vehicle_damage(b.dice, unsaved, target.turn_damage)
        riders = _passenger_hits(b, target, unsaved)
        for effect in dmg["effects"]:
            target.turn_damage.append(effect)
            if effect == "destroyed":
                target.destroyed = True
            elif effect == "stunned":
                target.stunned = True
            elif effect == "immobilised":
                if "immobilised" not in target.damage:
                    target.damage.append("immobilised")
            elif effect == "weapon_destroyed":
                working = target.firing_weapons()
                if working:  # "owner chooses": the weakest weapon goes (R-OP-11)
                    lost = min(working, key=lambda k: (T.weapon(k).fire_points
                                                       * T.weapon(k).range_cm, k))
                    target.damage.append(f"weapon:{lost}")
        if target.destroyed:
            riders += _bail_out(b, target)
        return {"damage": dmg, **({"passengers": riders} if riders else {})}
    if assault:
        losses = {"casualties": min(target.figures, unsaved), "suppressed": target.suppressed}
    else:
        losses = R.infantry_losses(unsaved, figures=target.figures,
                                   suppressed=target.suppressed, level=target.training,
                                   suppress_first=bool(b.options.get(
                                       "onepage_suppress_first", True)))
    target.figures -= losses["casualties"]
    target.suppressed = min(target.figures, losses["suppressed"])
    if target.figures <= 0:
        target.destroyed = True
    return {"losses": losses}


def _fire(b: Battle, unit: Unit, target: Unit) -> None:
    d = _distance(unit, target)
    weapons = [w for w in unit.firing_weapons() if R.fire_points(w, d) > 0]
    cover = unit_cover(b, target)
    shot = R.fire(b.dice, weapons=weapons, range_cm=d,
                  expertise=T.training(unit.training).expertise, cover=cover, aim=unit.aimed,
                  target_vehicle=target.vehicle, target_save=target.save)
    unit.aimed = False
    for w in weapons:
        if T.weapon(w).single_shot and R.affects(w, vehicle=target.vehicle, save=target.save):
            unit.spent.append(w)
    effect = _take_hits(b, unit, target, shot["unsaved"])
    if b.keep_log:
        b.note(side=unit.side, unit=unit.id, action="fire", target=target.id,
               range_cm=d, cover=cover, hits=shot["hits"], unsaved=shot["unsaved"],
               rolls=shot["rolls"] + shot["saves"], **effect,
               text=f"{unit.name} fires at {target.name} ({d:g} cm, {cover}): {shot['hits']} "
                    f"hit(s), {shot['unsaved']} unsaved" + _effect_text(target, effect))


def _effect_text(target: Unit, effect: dict[str, Any]) -> str:
    if "damage" in effect:
        riders = effect.get("passengers") or ()
        lost = sum(int(r["casualties"]) for r in riders)
        return (f"; {target.name}: " + ", ".join(effect["damage"]["effects"])
                + (f"; its passengers lose {lost} figure(s)" if riders else ""))
    if "losses" in effect:
        losses = effect["losses"]  # not `lost` (an int above): mypyc keeps one type
        return (f"; {target.name} loses {losses['casualties']} figure(s), "
                f"{losses['suppressed']} suppressed")
    return ""


def _assault(b: Battle, unit: Unit, target: Unit) -> None:
    unit.x = target.x  # into base contact
    fight = R.assault(b.dice, attackers=unit.figures,
                      attacker_expertise=T.training(unit.training).expertise,
                      attacker_save=unit.save, defenders=target.figures,
                      defender_expertise=T.training(target.training).expertise,
                      defender_save=target.save)
    to_target = _take_hits(b, unit, target, fight["defender_casualties"], assault=True)
    to_unit = _take_hits(b, target, unit, fight["attacker_casualties"], assault=True)
    if b.keep_log:
        b.note(side=unit.side, unit=unit.id, action="assault", target=target.id,
               rolls=fight["attacker_rolls"] + fight["defender_rolls"],
               attacker_casualties=fight["attacker_casualties"],
               defender_casualties=fight["defender_casualties"],
               text=f"{unit.name} assaults {target.name}: {target.name} loses "
                    f"{fight['defender_casualties']}, {unit.name} loses "
                    f"{fight['attacker_casualties']}" + _effect_text(target, to_target)
                    + _effect_text(unit, to_unit))


def _fall_back(b: Battle, unit: Unit) -> None:
    """A failed Activation after 50% casualties: "it moves double distance towards the
    friendly table edge" (out of its transport first)."""
    unit.aboard = None
    kind = T.UNIT_TYPES[unit.type]
    moved = _move(b, unit, b.edge(unit.side), kind.move_cm * 2)
    if b.beyond_own_edge(unit):
        unit.off_table = True
    if b.keep_log:
        b.note(side=unit.side, unit=unit.id, action="fall_back", cm=moved,
               off_table=unit.off_table,
               text=f"{unit.name} falls back {moved:g} cm"
                    + (" and leaves the table" if unit.off_table else ""))


def _finish(b: Battle, end: str) -> Battle:
    standing = b.standing_sides()
    if len(standing) == 1:
        b.options["winner"] = standing[0]
    elif not standing:
        b.options["winner"] = None
    elif b.defender in standing:
        b.options["winner"] = b.defender  # R-OP-6: at the turn limit the defender holds
    else:
        b.options["winner"] = max(standing, key=lambda s: (
            sum(u.figures for u in b.units if u.side == s and u.on_table),
            -b.sides.index(s)))
    b.options["end_reason"] = end
    return b
