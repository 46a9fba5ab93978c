"""The one-page sci-fi skirmish rules (seed 001) behind the ruleset seam.

Pure Python (no Django). Rulings: docs/rulings/onepage.md (R-OP-n).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from battles.rulesets.base import (
    Battlefield,
    Board,
    CatalogueEntry,
    FieldUnit,
    Frame,
    Json,
    Marker,
    Outcome,
    RulesetBase,
    RulesetError,
    Simulation,
    UnitFate,
    XpAward,
    axis_lanes,
    board_frames,
    note_attack,
    note_move,
    run_probe,
    with_plans,
)
from battles.rulesets.onepage import actions, engine, rules
from battles.rulesets.onepage import policy as bot
from battles.rulesets.onepage import tables as T
from battles.rulesets.onepage.names import NAME_LISTS
from campaign.rules.dice import Dice

SURVIVED = "battle_survived"

#: The catalogue (R-OP-1): (key, name, type, figures, armour, weapons).
_SQUADS: tuple[tuple[str, str, str, int, str, tuple[str, ...]], ...] = (
    ("rifle_squad", "Rifle squad", "infantry", 6, "medium", ("rifle",) * 5 + ("lmg",)),
    ("assault_squad", "Assault squad", "infantry", 5, "medium", ("assault_rifle",) * 4
     + ("grenade_launcher",)),
    ("militia_squad", "Militia squad", "infantry", 6, "light", ("rifle",) * 6),
    ("smg_team", "SMG team", "infantry", 4, "light", ("smg",) * 4),
    ("sniper_team", "Sniper team", "infantry", 2, "light", ("sniper_rifle", "pistol")),
    ("anti_tank_team", "Anti-tank team", "infantry", 3, "medium", ("rpg", "rifle", "rifle")),
    ("rocket_team", "Rocket team", "infantry", 2, "medium", ("rocket", "pistol")),
    ("mortar_team", "Mortar team", "infantry", 3, "light", ("light_mortar", "pistol",
                                                            "pistol")),
    ("power_squad", "Power-armour squad", "infantry", 4, "power", ("assault_rifle",) * 3
     + ("lmg",)),
    ("heavy_squad", "Heavy infantry squad", "infantry", 5, "heavy", ("assault_rifle",) * 4
     + ("light_at_gun",)),
)
_VEHICLES: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("scout_walker", "Scout walker", "walker", "light", ("lmg",)),
    ("battle_walker", "Battle walker", "walker", "medium", ("light_cannon", "lmg")),
    ("armoured_car", "Armoured car", "ground", "light", ("lmg", "grenade_launcher")),
    ("light_tank", "Light tank", "ground", "medium", ("light_cannon", "lmg")),
    ("battle_tank", "Battle tank", "ground", "heavy", ("heavy_cannon", "lmg")),
    ("siege_tank", "Siege tank", "ground", "very_heavy", ("heavy_cannon", "light_mortar",
                                                          "lmg")),
    ("hover_tank", "Hover tank", "hover", "medium", ("light_cannon", "missile")),
    ("hover_skimmer", "Hover skimmer", "hover", "none", ("smg", "rocket")),
    ("armoured_carrier", "Armoured carrier", "ground", "medium", ("lmg",)),
)
#: R-OP-14: transports and the figures they carry.
_CAPACITY: dict[str, int] = {"armoured_carrier": 8}
SEAT_PRICE = 3
_VEHICLE_BASE = {"walker": 40, "ground": 50, "hover": 70}


def weapon_value(key: str) -> int:
    """R-OP-1: a weapon is worth its fire points x range / 12 cm, rounded up."""
    w = T.weapon(key)
    return math.ceil(w.fire_points * w.range_cm / 12)


def squad_price(armour: str, weapons: Sequence[str]) -> int:
    """R-OP-1: each figure 3 SC + (7 - its armour save) + its weapon's worth."""
    save = T.PERSONAL_ARMOUR[armour]
    return sum(3 + (7 - save) + weapon_value(w) for w in weapons)


def vehicle_price(kind: str, armour: str, weapons: Sequence[str]) -> int:
    """R-OP-1: a base by type (walker 40, ground 50, hover 70) + 15 per point of save
    better than 7 + twice each weapon's worth."""
    return (_VEHICLE_BASE[kind] + 15 * (7 - T.VEHICLE_ARMOUR[armour])
            + 2 * sum(weapon_value(w) for w in weapons))


def _entries() -> list[CatalogueEntry]:
    out = [CatalogueEntry(
        key=key, name=name, kind="infantry", price=squad_price(armour, weapons),
        profile={"type": kind, "figures": figures, "armour": armour,
                 "save": T.PERSONAL_ARMOUR[armour], "weapons": list(weapons)})
        for key, name, kind, figures, armour, weapons in _SQUADS]
    out += [CatalogueEntry(
        key=key, name=name, kind="vehicle",
        price=vehicle_price(kind, armour, weapons) + SEAT_PRICE * _CAPACITY.get(key, 0),
        profile={"type": kind, "figures": 1, "armour": armour,
                 "save": T.VEHICLE_ARMOUR[armour], "weapons": list(weapons),
                 **({"capacity": _CAPACITY[key]} if key in _CAPACITY else {})},
        ruling="R-OP-14" if key in _CAPACITY else None)
        for key, name, kind, armour, weapons in _VEHICLES]
    return sorted(out, key=lambda e: (e.price, e.key))


CATALOGUE: tuple[CatalogueEntry, ...] = tuple(_entries())


def _option(options: Mapping[str, Any] | None, key: str) -> Any:
    return (options or {}).get(key, T.OPTIONS[key])


def terrain_strips(seed: int, gap_cm: int, buildings: Sequence[Json]) -> list[str]:
    """R-OP-5: 6 cm strips from the defender's line to the attackers'; the defender's strip
    is a bunker's hard cover, or another building's moderate cover, or open; each other
    strip takes its cover from the battle's seed (a hash, not a die: the table is laid out
    before the game): open 3 in 6, soft 2 in 6, moderate 1 in 6."""
    kinds = {str(b.get("kind")) for b in buildings}
    first = "hard" if "bunker" in kinds else "moderate" if kinds else "open"
    strips = [first]
    for i in range(1, max(1, gap_cm // engine.STRIP_CM) + 1):
        h = hashlib.sha256(f"{seed}:{i}".encode()).digest()[0] % 6
        strips.append("open" if h < 3 else "soft" if h < 5 else "moderate")
    return strips


class Layer:
    """`ActionLayer` of the one-page rules: `actions.py` referees, `policy.py` chooses."""

    def start(self, battle_input: Json, dice: Dice, setup: Json | None = None
              ) -> actions.State:
        return actions.start(battle_input, dice, setup)

    def actor(self, state: actions.State) -> int | None:
        return actions.actor(state)

    def legal(self, state: actions.State) -> list[Json]:
        return actions.legal(state)

    def apply(self, state: actions.State, action: Json) -> None:
        actions.apply(state, action)

    def choose(self, state: actions.State, policy: str | None = None) -> Json:
        return bot.choose(state, policy)

    def view(self, state: actions.State) -> Json:
        return actions.view(state)


class OnePage(RulesetBase):
    name = "onepage"
    option_specs = T.OPTION_SPECS
    version = "1"
    title = "One-page sci-fi skirmish"
    seed_file = T.SEED_FILE
    dice = ("d6",)
    factions: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    pilots = False

    def name_lists(self) -> dict[str, tuple[str, ...]]:
        """Its pilots' and units' default names (issue 26; `names.py`)."""
        return NAME_LISTS

    def tables(self) -> Json:
        return {**T.as_json(), "catalogue": [e.to_dict() for e in CATALOGUE]}

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        return list(CATALOGUE)

    def initial_state(self, key: str) -> Json:
        entry = _entry(key)
        return {"training": "green", "figures": entry.profile["figures"], "battles": 0,
                "damage": []}

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        """R-OP-2: Green -> Seasoned -> Veteran -> Elite with battles survived (thresholds
        `onepage_seasoned_after`, `_veteran_after`, `_elite_after`); never down."""
        battles = int(state.get("battles", 0)) + sum(
            a.amount for a in awards if a.kind == SURVIVED)
        earned = "green"
        for level, key in (("seasoned", "onepage_seasoned_after"),
                           ("veteran", "onepage_veteran_after"),
                           ("elite", "onepage_elite_after")):
            if battles >= int(_option(options, key)):
                earned = level
        current = str(state.get("training", "green"))
        best = max(current, earned, key=T.LADDER.index)
        return {**state, "battles": battles, "training": best}

    def repair(self, profile: Json, state: Json) -> tuple[int, Json]:
        """R-OP-12: a lost figure costs its share of the unit's price (rounded up); each
        vehicle damage (immobilised, a weapon destroyed) a quarter of the price."""
        price = _price(profile)
        figures_max = int(profile.get("figures", 1))
        missing = max(0, figures_max - int(state.get("figures", figures_max)))
        damage = list(state.get("damage") or ())
        cost = math.ceil(price * missing / figures_max) + math.ceil(price / 4) * len(damage)
        return cost, {**state, "figures": figures_max, "damage": []}

    def forces(self, battlefield: Battlefield) -> Json:
        options = {k: battlefield.options.get(k, v) for k, v in T.OPTIONS.items()}
        gap = int(options["onepage_deploy_gap_cm"])
        defender = battlefield.defender
        order = ([defender] if defender is not None else []) + sorted(
            p for p in battlefield.sides if p != defender)
        sides = {}
        for pid in order:
            line = 0 if pid == defender else gap
            sides[str(pid)] = _embark([_unit_input(u, line) for u in battlefield.sides[pid]])
        return with_plans({"seed": battlefield.seed, "territory": battlefield.territory,
                           "defender": str(defender) if defender is not None else None,
                           "gap_cm": gap, "options": options,
                           "terrain": terrain_strips(battlefield.seed, gap,
                                                     battlefield.buildings),
                           "sides": sides}, battlefield)

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        if policy not in (None, "default"):
            raise RulesetError(f"The one-page rules have no policy {policy!r}.")
        b = bot.play_battle(battle_input, dice)
        return _outcome(b)

    def actions(self) -> Layer:
        """The battle as refereed choices (issue 28; verbs in R-OP-16)."""
        return Layer()

    def simulation(self, battle_input: Json) -> Simulation:
        def simulate(dice: Dice) -> tuple[str | None, list[tuple[str, bool | int]]]:
            b = bot.play_battle(battle_input, dice, keep_log=False)
            return b.options["winner"], [(u.side, u.destroyed) for u in b.units]

        return simulate

    def tabletop_schema(self) -> Json:
        return {
            "type": "object", "required": ["winner"], "additionalProperties": False,
            "properties": {
                "winner": {"type": ["integer", "null"],
                           "description": "The winning player's id, or null."},
                "units": {"type": "array", "maxItems": 200, "items": {
                    "type": "object", "required": ["id"], "additionalProperties": False,
                    "properties": {
                        "id": {"type": "integer"},
                        "figures_lost": {"type": "integer", "minimum": 0, "maximum": 100,
                                         "description": "Casualties (infantry)."},
                        "vehicle_damage": {"type": "array", "maxItems": 10, "items": {
                            "enum": ["immobilised", "weapon_destroyed", "destroyed"]},
                            "description": "Lasting results of the vehicle damage table."},
                        "weapons_lost": {"type": "array", "maxItems": 10,
                                         "items": {"enum": list(T.WEAPONS)}},
                        "fled": {"type": "boolean",
                                 "description": "Fell back off the table."}}}},
            },
        }

    def outcome_from_report(self, battle_input: Json, report: Json) -> Outcome:
        roster = {int(u["id"]): (str(side), u) for side, units in battle_input["sides"].items()
                  for u in units}
        winner = report.get("winner")
        if winner is not None and str(winner) not in battle_input["sides"]:
            raise RulesetError("The winner must be one of the players who fought, or null.")
        entered = {}
        for item in report.get("units") or ():
            if int(item["id"]) not in roster:
                raise RulesetError(f"Unit {item['id']} did not fight in this battle.")
            entered[int(item["id"])] = item
        fates = []
        for uid, (side, u) in roster.items():
            item = entered.get(uid, {})
            vehicle = T.UNIT_TYPES[u["type"]].vehicle
            lost = int(item.get("figures_lost", 0))
            if lost > int(u["figures"]):
                raise RulesetError(f"{u['name']} had {u['figures']} figures; it cannot lose "
                                   f"{lost}.")
            if vehicle and lost:
                raise RulesetError(f"{u['name']} is a vehicle: report its vehicle damage, "
                                   "not figures lost.")
            damage = list(u.get("damage") or ())
            for effect in item.get("vehicle_damage") or ():
                if not vehicle:
                    raise RulesetError(f"{u['name']} is infantry: it has no vehicle damage.")
                if effect != "destroyed" and effect not in damage:
                    damage.append(effect)
            damage += [f"weapon:{w}" for w in item.get("weapons_lost") or ()]
            destroyed = "destroyed" in (item.get("vehicle_damage") or ()) or (
                not vehicle and lost == int(u["figures"]))
            figures = int(u["figures"]) - lost
            fate = ("destroyed" if destroyed else "retreated" if item.get("fled")
                    else "damaged" if lost or damage != list(u.get("damage") or ())
                    else "intact")
            fates.append(UnitFate(unit=uid, player=int(side), fate=fate,
                                  state={"figures": 0 if destroyed else figures,
                                         "damage": [d for d in damage
                                                    if not d.startswith("weapon:")],
                                         "weapons_lost": [d.split(":", 1)[1] for d in damage
                                                          if d.startswith("weapon:")]}))
        xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates if f.fate != "destroyed")
        return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                       xp=xp, end_reason="tabletop")

    def replay(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> list[Json]:
        return [{"text": step.get("text", ""), "actor": step.get("unit"),
                 "target": step.get("target"), "round": step.get("turn"),
                 "rolls": list(step.get("rolls") or ())} for step in log]

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board:
        """The table as the engine abstracts it (R-OP-5): one axis, cm from the
        defender's line, each side's edge 6 cm behind its line; a lane per unit, a frame
        per turn."""
        sides = battle_input.get("sides") or {}
        start, owner = axis_lanes(sides, float(battle_input.get("gap_cm") or 0))
        gap = float(battle_input.get("gap_cm") or 0)
        figures = {str(u["id"]): int(u.get("figures") or 1)
                   for units in sides.values() for u in units}
        defender = str(battle_input.get("defender"))

        def lose(units: dict[str, Marker], uid: Any, n: Any) -> None:
            key = str(uid)
            figures[key] = figures.get(key, 1) - int(n or 0)
            if figures[key] <= 0 and key in units:
                units[key].state = "destroyed"

        def apply(e: Json, units: dict[str, Marker], frame: Frame) -> None:
            action, uid = e.get("action"), e.get("unit")
            m = units.get(str(uid))
            if action in ("move", "embark", "disembark") and m is not None and "to" in e:
                note_move(frame, units, uid, (float(e["to"]), m.pos[1]))
                for rider in e.get("carried") or ():  # passengers ride along (R-OP-14)
                    r = units.get(str(rider))
                    if r is not None:
                        note_move(frame, units, rider, (float(e["to"]), r.pos[1]))
                        if e.get("off_table"):
                            r.state = "retreated"
                if e.get("off_table"):  # off its own edge (R-OP-18)
                    m.state = "retreated"
            elif action == "fall_back" and m is not None:  # toward its own edge (R-OP-5)
                back = -1.0 if m.side == defender else 1.0
                note_move(frame, units, uid, (m.pos[0] + back * float(e.get("cm") or 0),
                                              m.pos[1]))
                if e.get("off_table"):
                    m.state = "retreated"
            elif action in ("fire", "assault"):
                t = units.get(str(e.get("target")))
                if action == "assault" and m is not None and t is not None:
                    note_move(frame, units, uid, (t.pos[0], m.pos[1]))
                note_attack(frame, units, uid, e.get("target"))
                lose(units, e.get("target"), (e.get("losses") or {}).get("casualties")
                     if action == "fire" else e.get("defender_casualties"))
                if action == "assault":
                    lose(units, uid, e.get("attacker_casualties"))
                for rider in e.get("passengers") or ():  # hits aboard, bailing out
                    lose(units, rider.get("unit"), rider.get("casualties"))
                if "destroyed" in ((e.get("damage") or {}).get("effects") or ()) \
                        and t is not None:
                    t.state = "destroyed"

        frames = board_frames(start, owner, log, step_key="turn", apply=apply,
                              outcome=outcome)
        return Board(width=gap, height=max(gap, 1.0), frames=frames,
                     rounds=int(outcome.get("rounds") or 0), grid="axis", unit="cm",
                     round_word="turn",
                     margin=float(engine.EDGE_BEHIND_CM),
                     axis_label="cm between the two lines (the table edges 6 cm behind)")

    # --- the case book ------------------------------------------------------------------
    def probes(self) -> tuple[str, ...]:
        return tuple(_PROBES)

    def probe(self, rule: str, args: Json, dice: Dice) -> Json:
        return run_probe(_PROBES, rule, args, dice, title="The one-page rules")

    def sections(self) -> list[Json]:
        return [{"section": s, "reason": None} for s in SECTIONS]

    def sample_battle(self, seed: int = 0) -> Json:
        def unit(uid: int, player: int, key: str) -> FieldUnit:
            entry = _entry(key)
            return FieldUnit(id=uid, player=player, key=key, name=f"{entry.name} {uid}",
                             profile=dict(entry.profile), state=self.initial_state(key))

        return self.forces(Battlefield(
            territory=1, defender=2, seed=seed,
            sides={1: [unit(1, 1, "rifle_squad"), unit(2, 1, "light_tank")],
                   2: [unit(3, 2, "rifle_squad"), unit(4, 2, "anti_tank_team")]}))


SECTIONS: tuple[str, ...] = (
    "The Cardinal Rule", "Six-sided Dice Conventions", "Units", "Unit Training/Experience",
    "Initiative", "Activation", "Actions", "Movement", "Firing", "Vehicle damage",
    "Suppression", "Cover", "Assault", "Small Arms", "Heavy Weapons", "Armour",
)


def _entry(key: str) -> CatalogueEntry:
    for e in CATALOGUE:
        if e.key == key:
            return e
    raise RulesetError(f"No unit {key!r} in the one-page catalogue.")


def _price(profile: Json) -> int:
    kind = profile.get("type", "infantry")
    if T.UNIT_TYPES[kind].vehicle:
        return (vehicle_price(kind, profile["armour"], profile["weapons"])
                + SEAT_PRICE * int(profile.get("capacity", 0)))
    return squad_price(profile["armour"], profile["weapons"])


def _unit_input(u: FieldUnit, line: int) -> Json:
    profile = u.profile or _entry(u.key).profile
    figures_max = int(profile.get("figures", 1))
    figures = int(u.state.get("figures", figures_max))
    if figures <= 0:
        raise RulesetError(f"{u.name} has no figures left and cannot fight.")
    damage = list(u.state.get("damage") or ())
    damage += [f"weapon:{w}" for w in u.state.get("weapons_lost") or ()]
    return {"id": u.id, "name": u.name, "key": u.key, "type": profile["type"],
            "training": u.state.get("training", "green"), "save": int(profile["save"]),
            "weapons": list(profile["weapons"]), "figures": figures,
            "figures_max": figures_max, "x": line, "damage": damage,
            **({"capacity": int(profile["capacity"])} if profile.get("capacity") else {})}


def _embark(units: list[Json]) -> list[Json]:
    """R-OP-14: a side's infantry deploys in its transports, whole units in unit order,
    while they fit."""
    for carrier in (u for u in units if u.get("capacity")):
        room = int(carrier["capacity"]) - sum(int(u["figures"]) for u in units
                                              if u.get("aboard") == carrier["id"])
        for u in units:
            if (u["type"] == "infantry" and u.get("aboard") is None
                    and int(u["figures"]) <= room):
                u["aboard"] = carrier["id"]
                room -= int(u["figures"])
    return units


def _outcome(b: engine.Battle) -> Outcome:
    fates = []
    for u in b.units:
        damage = [d for d in u.damage if not d.startswith("weapon:")]
        lost_weapons = [d.split(":", 1)[1] for d in u.damage if d.startswith("weapon:")]
        changed = u.figures < u.figures_start or len(u.damage) > 0
        fate = ("destroyed" if u.destroyed else "retreated" if u.off_table
                else "damaged" if changed else "intact")
        fates.append(UnitFate(
            unit=u.id, player=int(u.side), fate=fate,
            state={"figures": max(0, u.figures), "damage": damage,
                   "weapons_lost": lost_weapons},
            detail={"figures_lost": u.figures_start - max(0, u.figures),
                    "spent": list(u.spent)}))
    winner = b.options.get("winner")
    xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates if f.fate != "destroyed")
    return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                   xp=xp, rounds=b.turn, end_reason=str(b.options.get("end_reason", "")),
                   result={"winner": winner, "turns": b.turn,
                           "end_reason": b.options.get("end_reason")},
                   log=tuple(b.log))


_PROBES: dict[str, Any] = {
    "roll": lambda dice, needed, modifier=0: (lambda f: {
        "roll": f, "success": rules.succeeds(f, needed, modifier)})(dice.d6()),
    "activation": rules.activation,
    "initiative": rules.initiative,
    "needed_to_hit": lambda dice, expertise, cover="open": {
        "needed": rules.needed_to_hit(expertise, cover)},
    "fire_points": lambda dice, weapon, range_cm: {
        "fire_points": rules.fire_points(weapon, range_cm)},
    "fire": rules.fire,
    "infantry_losses": lambda dice, **kw: rules.infantry_losses(**kw),
    "vehicle_damage": rules.vehicle_damage,
    "movement": lambda dice, **kw: rules.movement(**kw),
    "assault": rules.assault,
    "run_over": rules.run_over,
    "coherency": lambda dice, gaps_cm: {"penalty": rules.Coherency(list(gaps_cm)).penalty()},
    "can_target": lambda dice, **kw: {"can_target": rules.can_target(**kw)},
    "unit_cover": lambda dice, cover, figures, in_cover: {
        "cover": rules.unit_cover(cover, figures=figures, in_cover=in_cover)},
    "price": lambda dice, key: {"price": _entry(key).price},
    "veterancy": lambda dice, state, battles=1, options=None: _self().veterancy(
        state, [XpAward(unit=0, kind=SURVIVED, amount=battles)], options),
    "repair": lambda dice, key, state: dict(zip(("cost", "state"), _self().repair(
        _entry(key).profile, state), strict=True)),
    "training": lambda dice, level: {
        "activation": T.training(level).activation, "expertise": T.training(level).expertise,
        "suppress": T.training(level).suppress},
}


def _self() -> OnePage:
    return RULESET


def seeded_dice(battle_input: Json) -> Dice:
    return Dice(random.Random(int(battle_input.get("seed", 0))))


RULESET: OnePage = OnePage()
