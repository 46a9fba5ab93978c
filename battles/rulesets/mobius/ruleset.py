"""Mobius (SAGE 2021 Edition, seed 000) behind the ruleset seam.

Pure Python (no Django). Rulings: docs/rulings/mobius.md (R-MOB-n).
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
from battles.rulesets.mobius import armylists as A
from battles.rulesets.mobius import engine, rules
from battles.rulesets.mobius import tables as T
from battles.rulesets.mobius.actions import LAYER, MobiusActions, play_out
from battles.rulesets.mobius.allocation import ALLOCATIONS
from battles.rulesets.mobius.names import NAME_LISTS
from campaign.rules.dice import Dice

SURVIVED = "battle_survived"


def _option(options: Mapping[str, Any] | None, key: str) -> Any:
    return (options or {}).get(key, T.OPTIONS[key])


def price(points: int, per_sc: int) -> int:
    """R-MOB-1: SC = army-list points / `mobius_points_per_sc`, rounded up."""
    return math.ceil(int(points) / max(1, int(per_sc)))


def _entry(faction: str, unit: Json, per_sc: int, ruling: str) -> CatalogueEntry:
    profile = {**unit, "faction": faction}
    return CatalogueEntry(key=str(unit["key"]), name=str(unit["name"]), kind=str(unit["type"]),
                          price=price(int(unit["points"]), per_sc), profile=profile,
                          faction=faction, crewed=True, ruling=ruling)


def terrain_strips(seed: int, gap: int, buildings: Sequence[Json]) -> list[str]:
    """R-MOB-3: 6" strips from the first side's line to the last; the defender's strip is a
    trench if the territory has a bunker, a building if it has another building, open
    otherwise; each other strip from the battle's seed (a hash, not a die: the table is
    laid out before the game): open 5 in 12, soft 2, hard 2, ruins 1, forest 1,
    dangerous 1."""
    kinds = {str(b.get("kind")) for b in buildings}
    first = "trench" if "bunker" in kinds else "building" if kinds else "open"
    strips = [first]
    for i in range(1, max(1, gap // engine.STRIP) + 1):
        h = hashlib.sha256(f"mobius:{seed}:{i}".encode()).digest()[0] % 12
        strips.append("open" if h < 5 else "soft" if h < 7 else "hard" if h < 9
                      else "ruins" if h < 10 else "forest" if h < 11 else "dangerous")
    return strips


class Mobius(RulesetBase):
    name = "mobius"
    option_specs = T.OPTION_SPECS
    version = "1"
    title = "Mobius"
    seed_file = T.SEED_FILE
    dice = ("d6",)
    factions: tuple[str, ...] = tuple(T.FACTIONS)
    effects: tuple[str, ...] = ()
    pilots = False

    def name_lists(self) -> dict[str, tuple[str, ...]]:
        """Its pilots' and units' default names (issue 26; `names.py`)."""
        return NAME_LISTS

    def tables(self) -> Json:
        return {**T.as_json(), "army_list_schema": A.SCHEMA,
                "catalogue": [e.to_dict() for e in self.catalogue()]}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """The umpire's imported army lists and the settings are checked before they are
        stored."""
        A.validate_all(options.get("mobius_army_lists", []))
        if int(options.get("mobius_points_per_sc", 2)) < 1:
            raise RulesetError("mobius_points_per_sc must be at least 1.")
        if int(options.get("mobius_points_limit", 1000)) < 1:
            raise RulesetError("mobius_points_limit must be at least 1 point.")
        if not 1 <= int(options.get("mobius_rounds", 5)) <= 20:
            raise RulesetError("mobius_rounds must be between 1 and 20.")
        if options.get("mobius_rule_of_quarters", "recommendation") not in \
                T.QUARTERS_SETTINGS:
            raise RulesetError("mobius_rule_of_quarters must be one of "
                               + ", ".join(T.QUARTERS_SETTINGS) + ".")
        mission = options.get("mobius_mission", "struggle_for_survival")
        if mission not in T.MISSION_SETTINGS:
            raise RulesetError("mobius_mission must be one of "
                               + ", ".join(T.MISSION_SETTINGS) + ".")
        if not 6 <= int(options.get("mobius_deploy_gap", 24)) <= 72:
            raise RulesetError("mobius_deploy_gap must be between 6 and 72 inches.")
        if int(options.get("mobius_veteran_after", 2)) > int(
                options.get("mobius_elite_after", 5)):
            raise RulesetError("mobius_veteran_after must not be more than "
                               "mobius_elite_after.")

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        if faction is not None and faction not in T.FACTIONS:
            raise RulesetError(f"Unknown Mobius faction {faction!r}; factions: "
                               + ", ".join(T.FACTIONS) + ".")
        per = int(_option(options, "mobius_points_per_sc"))
        entries = [_entry(f, u, per, str(u.get("ruling") or "R-MOB-7"))
                   for f, u in A.starter_units()]
        for army in (options or {}).get("mobius_army_lists") or ():
            for u in army["units"]:
                entries.append(_entry(str(army["faction"]), dict(u), per,
                                      "imported by the umpire (R-MOB-9)"))
        if faction is not None:
            entries = [e for e in entries if e.faction == faction]
        return sorted(entries, key=lambda e: (e.price, e.key))

    def initial_state(self, key: str) -> Json:
        """A unit is bought whole (absent HP: every model at full HP), a Regular."""
        return {"battles": 0, "level": "regular"}

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        """R-MOB-8: Regular -> Veteran -> Elite with battles survived
        (`mobius_veteran_after`, `mobius_elite_after`); never down."""
        battles = int(state.get("battles", 0)) + sum(
            a.amount for a in awards if a.kind == SURVIVED)
        earned = "regular"
        if battles >= int(_option(options, "mobius_veteran_after")):
            earned = "veteran"
        if battles >= int(_option(options, "mobius_elite_after")):
            earned = "elite"
        current = str(state.get("level", "regular"))
        best = max(current if current in T.LADDER else "regular", earned, key=T.LADDER.index)
        return {**state, "battles": battles, "level": best}

    def repair(self, profile: Json, state: Json) -> tuple[int, Json]:
        """R-MOB-27: lost HP costs its share of the unit's price (default points per SC),
        rounded up."""
        full = int(profile.get("hp", 1)) * int(profile.get("models", 1))
        hp = state.get("hp")
        left = full if hp is None else sum(int(h) for h in hp)
        cost = math.ceil(price(int(profile.get("points", 0)), T.DEFAULT_POINTS_PER_SC)
                         * max(0, full - left) / max(1, full))
        fresh = {k: v for k, v in state.items() if k not in ("hp", "models")}
        return cost, fresh

    def forces(self, battlefield: Battlefield) -> Json:
        options = {k: battlefield.options.get(k, v) for k, v in T.OPTIONS.items()
                   if k != "mobius_army_lists"}
        gap = int(options["mobius_deploy_gap"])
        limit = int(options["mobius_points_limit"])
        defender = battlefield.defender
        order = ([defender] if defender is not None else []) + sorted(
            p for p in battlefield.sides if p != defender)
        sides: dict[str, list[Json]] = {}
        held: dict[str, list[int]] = {}
        spent: dict[str, int] = {}
        why: dict[str, str] = {}
        for i, pid in enumerate(order):
            line = 0 if len(order) < 2 else gap * i / (len(order) - 1)
            fielded, total = [], 0
            for u in sorted(battlefield.sides[pid], key=lambda x: x.id):
                data = _unit_input(u, line)
                if total + int(data["points"]) > limit:  # R-MOB-2
                    held.setdefault(str(pid), []).append(u.id)
                    why[str(u.id)] = "points_limit"
                    continue
                total += int(data["points"])
                fielded.append(data)
            if options["mobius_rule_of_quarters"] == "enforced":
                for data in _over_the_quarter(fielded):  # R-MOB-2
                    fielded.remove(data)
                    total -= int(data["points"])
                    held.setdefault(str(pid), []).append(int(data["id"]))
                    why[str(data["id"])] = "rule_of_quarters"
            sides[str(pid)] = fielded
            spent[str(pid)] = total
        data = {"seed": battlefield.seed, "territory": battlefield.territory,
                "defender": str(defender) if defender is not None else None,
                "order": [str(p) for p in order], "gap": gap, "options": options,
                "mission": options["mobius_mission"], "limits": dict.fromkeys(sides, limit),
                "points": spent, "held_back": held, "held_back_why": why,
                "terrain": terrain_strips(battlefield.seed, gap, battlefield.buildings),
                "sides": sides}
        return with_plans(data, battlefield)  # the sealed plans (R-MOB-40..43)

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        if policy not in (None, "default"):
            raise RulesetError(f"Mobius has no policy {policy!r}.")
        return _outcome(_play(battle_input, dice), battle_input)

    def simulation(self, battle_input: Json) -> Simulation:
        """Each simulation plays the battle without a log, on fresh copies of its units
        read from the input once (`engine.roster`)."""
        listed = engine.roster(battle_input)

        def simulate(dice: Dice) -> tuple[str | None, list[tuple[str, bool | int]]]:
            b = play_out(LAYER.start(battle_input, dice, keep_log=False, listed=listed))
            return b.winner, [(u.side, not u.in_play) for u in b.units]

        return simulate

    def tabletop_schema(self) -> Json:
        return {
            "type": "object", "required": ["winner"], "additionalProperties": False,
            "properties": {
                "winner": {"type": ["integer", "null"],
                           "description": "The winning player's id, or null."},
                "mission": {"enum": [m for m in T.MISSION_SETTINGS if m != "random"]},
                "victory_points": {"type": "object", "additionalProperties": {
                    "type": "integer", "minimum": 0, "maximum": 1000}},
                "lied_about_blips": {"type": "array", "maxItems": 8,
                                     "items": {"type": "integer"},
                                     "description": "Players caught lying about a Blip: "
                                                    "their whole army goes MIA."},
                "units": {"type": "array", "maxItems": 200, "items": {
                    "type": "object", "required": ["id"], "additionalProperties": False,
                    "properties": {
                        "id": {"type": "integer"},
                        "models_lost": {"type": "integer", "minimum": 0, "maximum": 30,
                                        "description": "Models removed as Casualties."},
                        "hp_lost": {"type": "integer", "minimum": 0, "maximum": 1200,
                                    "description": "Hit Points lost by the models left."},
                        "routed": {"type": "boolean",
                                   "description": "Moved off the battlefield in a panic."},
                        "destroyed": {"type": "boolean",
                                      "description": "Removed as a Casualty (a vehicle: a "
                                                     "wreck)."}}}},
            },
        }

    def outcome_from_report(self, battle_input: Json, report: Json) -> Outcome:
        roster = {int(u["id"]): (str(side), u) for side, units in battle_input["sides"].items()
                  for u in units}
        winner = report.get("winner")
        if winner is not None and str(winner) not in battle_input["sides"]:
            raise RulesetError("The winner must be one of the players who fought, or null.")
        liars = {str(p) for p in report.get("lied_about_blips") or ()}
        if liars - set(battle_input["sides"]):
            raise RulesetError("Only a player who fought can be caught lying about Blips.")
        if winner is not None and str(winner) in liars:
            raise RulesetError("A player caught lying about Blips loses the battle: he "
                               "cannot be its winner.")
        entered = {}
        for item in report.get("units") or ():
            if int(item["id"]) not in roster:
                raise RulesetError(f"Unit {item['id']} did not fight in this battle.")
            entered[int(item["id"])] = item
        fates = []
        for uid, (side, u) in roster.items():
            item = entered.get(uid, {})
            hp = [int(h) for h in u["hp"]]
            lost_models = int(item.get("models_lost", 0))
            if lost_models > len(hp):
                raise RulesetError(f"{u['name']} had {len(hp)} models; it cannot lose "
                                   f"{lost_models}.")
            left = sorted(hp)[lost_models:]
            hp_lost = int(item.get("hp_lost", 0))
            if left and hp_lost >= sum(left):
                raise RulesetError(f"{u['name']} has {sum(left)} HP in the models left; "
                                   f"losing {hp_lost} would remove them all: report them "
                                   "as models lost.")
            dealt = rules.allocate(Dice(0), left, hp_lost, 1)["hp"] if hp_lost else left
            destroyed = bool(item.get("destroyed")) or not left or side in liars
            fate = ("destroyed" if destroyed else "retreated" if item.get("routed")
                    else "damaged" if sum(dealt) < sum(hp) else "intact")
            fates.append(UnitFate(unit=uid, player=int(side), fate=fate,
                                  state={"hp": [] if destroyed else dealt,
                                         "models": 0 if destroyed else len(dealt)},
                                  detail={"mia": side in liars}))
        xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates if f.fate != "destroyed")
        return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                       xp=xp, end_reason="tabletop",
                       result={"mission": report.get("mission"),
                               "victory_points": report.get("victory_points") or {},
                               "mia": sorted(liars)})

    def replay(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> list[Json]:
        return [{"text": step.get("text", ""), "actor": step.get("unit"),
                 "target": step.get("target"), "round": step.get("round"),
                 "phase": step.get("phase"), "rolls": list(step.get("rolls") or ())}
                for step in log]

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board:
        """The table as the engine abstracts it (R-MOB-3): one axis, inches from the
        first side's line to the last, a lane per unit, a frame per round. A charge ends
        in base contact (LOCK_RANGE from its target); a joined Independent stands with
        its unit."""
        sides = battle_input.get("sides") or {}
        start, owner = axis_lanes(sides, float(battle_input.get("gap") or 0))
        gap = float(battle_input.get("gap") or 0)

        def apply(e: Json, units: dict[str, Marker], frame: Frame) -> None:
            action, uid = e.get("action"), e.get("unit")
            m = units.get(str(uid))
            if m is None:
                return
            if e.get("to") is not None:
                note_move(frame, units, uid, (float(e["to"]), m.pos[1]))
            elif action == "charge":
                t = units.get(str(e.get("target")))
                if t is not None:
                    back = T.LOCK_RANGE if m.pos[0] > t.pos[0] else -T.LOCK_RANGE
                    note_move(frame, units, uid, (t.pos[0] + back, m.pos[1]))
            elif action == "joins":
                t = units.get(str(e.get("target")))
                if t is not None:
                    m.pos = (t.pos[0], m.pos[1])
            elif e.get("target") is not None and action != "duel":
                note_attack(frame, units, uid, e["target"])

        frames = board_frames(start, owner, log, step_key="round", apply=apply,
                              outcome=outcome)
        return Board(width=gap, height=max(gap, 1.0), frames=frames,
                     rounds=int(outcome.get("rounds") or 0), grid="axis", unit="inch",
                     margin=float(engine.EDGE_BEHIND),
                     axis_label="inches from the first side's line to the last")

    # --- the case book ------------------------------------------------------------------
    def probes(self) -> tuple[str, ...]:
        return tuple(_PROBES)

    def probe(self, rule: str, args: Json, dice: Dice) -> Json:
        return run_probe(_PROBES, rule, args, dice, title="Mobius")

    def sections(self) -> list[Json]:
        return [{"section": s, "reason": r} for s, r in SECTIONS]

    def actions(self) -> MobiusActions:
        """The action layer (issue 28, R-MOB-39): every choice of a battle refereed."""
        return LAYER

    def sample_battle(self, seed: int = 0) -> Json:
        def unit(uid: int, player: int, key: str) -> FieldUnit:
            entry = _starter(key)
            return FieldUnit(id=uid, player=player, key=key, name=f"{entry.name} {uid}",
                             profile=dict(entry.profile), state=self.initial_state(key))

        return self.forces(Battlefield(
            territory=1, defender=2, seed=seed,
            sides={1: [unit(1, 1, "acorn_officer"), unit(2, 1, "acorn_royal_army"),
                       unit(3, 1, "sonic"), unit(4, 1, "acorn_car")],
                   2: [unit(5, 2, "egg_boss"), unit(6, 2, "egg_pawns"),
                       unit(7, 2, "egg_pawns"), unit(8, 2, "swatbots"),
                       unit(9, 2, "egg_walker")]}))


#: The seed's sections for the compliance page; a reason where no case covers one.
SECTIONS: tuple[tuple[str, str | None], ...] = (
    ("Several D6", None), ("Army Size (Points)", None),
    ("Ranks & Structure", None), ("Commander", None), ("Second in Command", None),
    ("Units", None), ("Unit Cohesion", None), ("Independents", None),
    ("Statistics", None), ("Weapon Stat-Lines", None), ("Basic Gameplay", None),
    ("The First Turn Curse", None), ("Turn Structure", None), ("Movement Phase", None),
    ("Special Move Values", None), ("Terrain Affecting Movement", None),
    ("Ranged Attacks", None), ("Defence Saves", None), ("Units with Different Saves", None),
    ("Ranged Attacks & Movement", None), ("Taking Cover", None), ("Special Commands", None),
    ("Melee Phase", None), ("Escaping From Melee Lock", None), ("Melee Attacks", None),
    ("Panic", None), ("Blips", None), ("Reserves", None), ("Unit Types", None),
    ("Flying", None), ("Vehicles", None), ("Ramming", None), ("Tank Shock", None),
    ("Attacking Vehicles", None), ("Vehicle Armour Saves", None),
    ("Destroying Vehicles", None), ("Transport", None), ("The Rule of Quarters", None),
    ("Vehicle Subtypes", None), ("Heroes & HQ", None), ("Duels", None),
    ("Named Characters", None), ("Bodyguard", None),
    ("Special Rules: Attacks", None), ("Special Rules: Units & Models", None),
    ("Special Terrain", None), ("Buildings", None), ("Scenarios", None),
    ("Basic Missions", None), ("Factions Summarised", None), ("Campaign", None),
)


#: Why a unit stayed out of a battle (R-MOB-2), as its report says it.
HELD_BACK = {"points_limit": "over the points limit (R-MOB-2)",
             "rule_of_quarters": "over the Rule of Quarters' share of vehicles (R-MOB-2)"}


def _over_the_quarter(fielded: list[Json]) -> list[Json]:
    """The Rule of Quarters enforced (R-MOB-2): "no more than 25% of your Army's total
    Points Value be dedicated to Vehicles". The vehicles bought last stay out until the
    rest (vehicles and all) keeps to the quarter."""
    kept = list(fielded)
    out: list[Json] = []
    vehicles = [d for d in kept if d["type"] == "vehicle"]
    while vehicles and not A.rule_of_quarters(kept):
        last = vehicles.pop()
        kept.remove(last)
        out.append(last)
    return out


def _field_army(dice: Dice, keys: Sequence[str], options: Json | None = None) -> Json:
    """The `field_army` probe: one side fielding the starter units `keys` (campaign ids 1,
    2, ... in that order) with the campaign's settings; answers what fights and what is
    held back (R-MOB-2)."""
    units = [FieldUnit(id=i, player=1, key=k, name=k, profile=dict(_starter(k).profile),
                       state=RULESET.initial_state(k)) for i, k in enumerate(keys, start=1)]
    data = RULESET.forces(Battlefield(territory=1, defender=1, sides={1: units},
                                      options=dict(options or {})))
    held = {int(i) for i in data["held_back"].get("1", ())}
    why = data["held_back_why"]
    return {"fielded": [u["key"] for u in data["sides"]["1"]],
            "held_back": [{"key": k, "why": why[str(i)]}
                          for i, k in enumerate(keys, start=1) if i in held],
            "points": data["points"]["1"]}


def _starter(key: str) -> CatalogueEntry:
    for f, u in A.starter_units():
        if u["key"] == key:
            return _entry(f, u, T.DEFAULT_POINTS_PER_SC, str(u.get("ruling")))
    raise RulesetError(f"No unit {key!r} in the Mobius starter lists.")


def _unit_input(u: FieldUnit, line: float) -> Json:
    profile = dict(u.profile) if u.profile else dict(_starter(u.key).profile)
    models = int(profile.get("models", 1))
    full = int(profile["hp"])
    hp = [int(h) for h in u.state["hp"]] if u.state.get("hp") is not None else [full] * models
    hp = [h for h in hp if h > 0]
    if not hp:
        raise RulesetError(f"{u.name} has no models left and cannot fight.")
    level = str(u.state.get("level", "regular"))
    pan = int(profile["pan"]) + (1 if level in ("veteran", "elite") else 0)  # R-MOB-8
    cqc = int(profile.get("cqc") or 0) + (1 if level == "elite" else 0)
    return {"id": u.id, "name": u.name, "key": u.key, "faction": profile.get("faction"),
            "rank": profile.get("rank", "troops"), "type": profile["type"],
            "subtypes": list(profile.get("subtypes") or ()),
            "rules": list(profile.get("rules") or ()), "points": int(profile["points"]),
            "hp": hp, "hp_start": full, "move": int(profile["move"]),
            "move_flying": profile.get("move_flying"), "move_min": profile.get("move_min"),
            "cqc": cqc, "rc": profile.get("rc"), "pan": min(12, pan),
            "def": profile.get("def"), "arm": profile.get("arm"),
            "weapons": list(profile.get("weapons") or ()),
            "camouflage": profile.get("camouflage"), "shielded": profile.get("shielded"),
            "variant_of": profile.get("variant_of"), "transport": profile.get("transport"),
            "reserve": u.reinforcement, "level": level, "x": line}


def _play(battle_input: Json, dice: Dice, keep_log: bool = True) -> engine.Battle:
    """The battle played out by the default policy through the action layer: every choice
    is refereed (R-MOB-19, R-MOB-39)."""
    return play_out(LAYER.start(battle_input, dice, keep_log=keep_log))


def _outcome(b: engine.Battle, battle_input: Json) -> Outcome:
    fates = []
    entered: dict[str, dict[int, Json]] = {}  # each side's units as entered, by id
    for side, roster in battle_input["sides"].items():
        mine = entered[side] = {}
        for x in roster:
            mine.setdefault(int(x["id"]), x)  # the first with an id, as a search finds
    for u in b.units:
        start = [int(h) for h in entered[u.side][u.id]["hp"]]
        hp = [h for h in u.hp if h > 0]
        fate = ("destroyed" if u.destroyed else "retreated" if u.routed
                else "damaged" if sum(hp) < sum(start) else "intact")
        fates.append(UnitFate(
            unit=u.id, player=int(u.side), fate=fate,
            state={"hp": [] if u.destroyed else hp, "models": 0 if u.destroyed else len(hp)},
            detail={"models_lost": len(start) - len(hp), "hp_lost": sum(start) - sum(hp)}))
    for side, ids in (battle_input.get("held_back") or {}).items():
        for uid in ids:
            reason = HELD_BACK.get((battle_input.get("held_back_why") or {}).get(str(uid), ""),
                                   HELD_BACK["points_limit"])
            fates.append(UnitFate(unit=int(uid), player=int(side), fate="intact",
                                  detail={"held_back": reason}))
    xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates
               if f.fate != "destroyed" and not f.detail.get("held_back"))
    winner = int(b.winner) if b.winner is not None else None
    return Outcome(winner=winner, units=tuple(fates), xp=xp, rounds=b.round,
                   end_reason=b.end_reason,
                   result={"winner": winner, "rounds": b.round, "mission": b.mission,
                           "end_reason": b.end_reason, "victory_points": dict(b.vp),
                           "casualty_rates": engine.casualty_rates(b),
                           "control_points": list(b.points_owner)},
                   log=tuple(b.log))


def _fight(dice: Dice, input: Json) -> Json:
    outcome = RULESET.resolve(input, dice)
    return {"winner": outcome.winner, "rounds": outcome.rounds,
            "end_reason": outcome.end_reason, "mission": outcome.result.get("mission"),
            "casualty_rates": outcome.result.get("casualty_rates"),
            "units": {str(f.unit): {"fate": f.fate, "state": f.state} for f in outcome.units}}


_PROBES: dict[str, Any] = {
    "hit": lambda dice, needed, modifier=0: (lambda f: {
        "roll": f, "hit": rules.hits(f, needed, modifier)})(dice.d6()),
    "d3": lambda dice: (lambda f: {"roll": f, "d3": T.d3(f)})(dice.d6()),
    "d2": lambda dice: (lambda f: {"roll": f, "d2": T.d2(f)})(dice.d6()),
    "damage": lambda dice, dam: {"damage": rules.roll_damage(dice, dam)},
    "first_turn_curse": lambda dice, **kw: {"targetable": rules.first_turn_curse(**kw)},
    "roll_off": lambda dice, players: rules.roll_off(dice, players),
    "rapid_bonus": lambda dice, subtypes: rules.rapid_bonus(subtypes, dice),
    "move_allowance": lambda dice, **kw: rules.move_allowance(**kw),
    "minimum_move": lambda dice, **kw: rules.minimum_move(**kw),
    "unit_move": lambda dice, members: {"move": rules.unit_move(members)},
    "difficult_stop": lambda dice, **kw: {"inches": rules.difficult_stop(**kw)},
    "dangerous_terrain": rules.dangerous_terrain,
    "vehicle_terrain": rules.vehicle_terrain,
    "can_enter": lambda dice, terrain, **kw: {"allowed": rules.can_enter(terrain, **kw)},
    "vertical_move": lambda dice, **kw: rules.vertical_move(**kw),
    "trench_move": lambda dice, **kw: rules.trench_move(**kw),
    "special_terrain_cost": lambda dice, **kw: rules.special_terrain_cost(**kw),
    "can_fire": lambda dice, **kw: rules.can_fire(**kw),
    "cover_level": lambda dice, terrain="open", **kw: {
        "level": rules.cover_level(terrain, **kw)},
    "roll_to_hit": rules.roll_to_hit,
    "roll_for_cover": rules.roll_for_cover,
    "save_needed": lambda dice, **kw: {"needed": rules.save_needed(**kw)},
    "defence_saves": rules.defence_saves,
    "allocate": lambda dice, hp, failed, dam, order=None: rules.allocate(
        dice, hp, failed, dam, ALLOCATIONS[order] if order is not None else None),
    "mixed_saves": rules.mixed_saves,
    "ranged_attack": rules.ranged_attack,
    "flying_modifier": lambda dice, **kw: {"modifier": rules.flying_modifier(**kw)},
    "trench_attacks": lambda dice, ak_total: {"attacks": rules.trench_attacks(ak_total)},
    "window_firers": lambda dice, width, models: {"firers": rules.window_firers(width,
                                                                                models)},
    "blast_pool": lambda dice, **kw: {"pool": rules.blast_pool(**kw)},
    "take_cover": lambda dice, **kw: rules.take_cover(**kw),
    "special_command": rules.special_command,
    "melee_to_hit": lambda dice, attacker_cqc, target_cqc: {
        "needed": T.melee_hit_needed(attacker_cqc, target_cqc)},
    "melee_ak": lambda dice, **kw: {"ak": rules.melee_ak(**kw)},
    "melee_attack": rules.melee_attack,
    "melee_losers": lambda dice, hp_lost: {"losers": rules.melee_losers(hp_lost)},
    "escape": rules.escape,
    "after_wipe": rules.after_wipe,
    "panic_test": rules.panic_test,
    "panic_flight": rules.panic_flight,
    "terrifying": lambda dice, **kw: rules.terrifying_penalty(**kw),
    "second_in_command": rules.second_in_command,
    "reserves_allowed": lambda dice, **kw: {"units": rules.reserves_allowed(**kw)},
    "reserve_entry": lambda dice, **kw: rules.reserve_entry(**kw),
    "blip_revealed": lambda dice, event, **kw: {"revealed": rules.blip_revealed(event,
                                                                                **kw)},
    "lying_about_blips": lambda dice, **kw: rules.lying_about_blips(**kw),
    "push_it": rules.push_it,
    "stand_together": lambda dice, **kw: rules.stand_together(**kw),
    "strength_in_numbers": lambda dice, **kw: {"pan": rules.strength_in_numbers(**kw)},
    "hatred": lambda dice, **kw: {"modifier": rules.hatred(**kw)},
    "blitz": lambda dice, **kw: {"hero_phase": rules.blitz(**kw)},
    "blast_members": lambda dice, members, radius: {
        "members": rules.blast_members(members, radius)},
    "repair": lambda dice, key, state: dict(zip(("cost", "state"), RULESET.repair(
        _starter(key).profile, state), strict=True)),
    "war_howl": lambda dice, distances: rules.war_howl(distances),
    "duel": lambda dice, fighters: rules.duel(dice, fighters),
    "immortal_recover": rules.immortal_recover,
    "immortal_rise": rules.immortal_rise,
    "vehicle_weapons": lambda dice, movement: {"weapons": rules.vehicle_weapons(movement)},
    "vehicle_cqc": lambda dice, movement: {"cqc": T.VEHICLE_CQC[movement]},
    "armour_needed": lambda dice, facing, **kw: {"needed": rules.armour_needed(facing, **kw)},
    "vehicle_armour": rules.vehicle_armour,
    "field_army": _field_army,
    "ram": rules.ram,
    "tank_shock": rules.tank_shock,
    "transport_destroyed": lambda dice, **kw: rules.transport_destroyed(**kw),
    "open_topped_fire": lambda dice, **kw: rules.open_topped_fire(**kw),
    "artillery_fire": lambda dice, **kw: rules.artillery_fire(**kw),
    "spg_modifier": lambda dice, **kw: {"modifier": rules.spg_modifier(**kw)},
    "giant_attacks": lambda dice, weapons: {"attacks": rules.giant_attacks(weapons)},
    "cohesion": lambda dice, gaps: rules.cohesion(gaps),
    "unit_spacing": lambda dice, **kw: {"allowed": rules.unit_spacing(**kw)},
    "named_characters": lambda dice, variants: rules.named_characters(variants),
    "granted_rules": lambda dice, subtypes: {"rules": sorted(
        {r for s in subtypes for r in T.GRANTED_RULES.get(s, ())})},
    "deployment": lambda dice, kind: {"inches": T.DEPLOYMENTS[kind],
                                      "first": "defender"},
    "game_size": lambda dice, size: {"min": T.GAME_SIZES[size][0],
                                     "max": T.GAME_SIZES[size][1]},
    "army": lambda dice, keys, points_limit: {"problems": A.army_problems(
        [_starter(k).profile for k in keys], points_limit)},
    "rule_of_quarters": lambda dice, keys: {"within": A.rule_of_quarters(
        [_starter(k).profile for k in keys])},
    "validate_army_list": lambda dice, army: (lambda ok: {"valid": True, "units": len(
        ok["units"])})(A.validate(army)),
    "starter": lambda dice, key: dict(_starter(key).profile),
    "catalogue": lambda dice, faction=None, options=None: {
        "entries": [{"key": e.key, "price": e.price, "faction": e.faction}
                    for e in RULESET.catalogue(faction=faction, options=options)]},
    "price": lambda dice, points, per_sc: {"price": price(points, per_sc)},
    "veterancy": lambda dice, state, battles=1, options=None: RULESET.veterancy(
        state, [XpAward(unit=0, kind=SURVIVED, amount=battles)], options),
    "casualty_rate": lambda dice, input, rounds=0: (lambda b: engine.casualty_rates(b))(
        engine.build(input, dice)),
    "fight": _fight,
}


def seeded_dice(battle_input: Json) -> Dice:
    return Dice(random.Random(int(battle_input.get("seed", 0))))


RULESET: Mobius = Mobius()
