"""30 Minute Missions: Wargame (seed 002) behind the ruleset seam.

Pure Python (no Django). Rulings: docs/rulings/thirtymm.md (R-30-n).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from battles.rulesets.base import (
    Battlefield,
    Board,
    CatalogueEntry,
    Cell,
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
    board_frames,
    note_attack,
    note_move,
    odd_row_centre,
    run_probe,
    with_plans,
)
from battles.rulesets.thirtymm import datasheets as D
from battles.rulesets.thirtymm import engine, rules
from battles.rulesets.thirtymm import tables as T
from battles.rulesets.thirtymm.layer import LAYER, ThirtyMinuteMissionsActions, play
from battles.rulesets.thirtymm.names import NAME_LISTS
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

SURVIVED = "battle_survived"


def _option(options: Mapping[str, Any] | None, key: str) -> Any:
    return (options or {}).get(key, T.OPTIONS[key])


def _entry(sheet: Json, cost_per_sc: int, ruling: str | None) -> CatalogueEntry:
    return CatalogueEntry(key=sheet["key"], name=sheet["name"], kind=sheet["type"],
                          price=D.price(sheet, cost_per_sc), profile=dict(sheet),
                          ruling=ruling)


#: The board's hexes (offset column, row) in the order `layout` writes them, row by row.
_HEXES: tuple[tuple[int, int], ...] = tuple((c, r) for r in range(T.ROWS)
                                             for c in range(T.row_length(r)))
_INDEX: dict[tuple[int, int], int] = {spot: i for i, spot in enumerate(_HEXES)}
_RIVER: tuple[tuple[int, int], ...] = tuple((c, T.RIVER_ROW)
                                            for c in range(T.row_length(T.RIVER_ROW)))
_PALETTE = ("green", "green", "black", "tan", "white", "red", "hill")
#: The hexes `layout` may colour, in its order, each with the tail of its hash's text and
#: its neighbours (offset); worked out once, not once a battle (issue 32).
_CANDIDATES: tuple[tuple[tuple[int, int], bytes, tuple[tuple[int, int], ...]], ...] = tuple(
    ((col, row), f"{col}:{row}".encode(),
     tuple(H.to_offset(n) for n in H.neighbours(H.to_axial(col, row))))
    for row in range(T.ROWS) if abs(row - T.RIVER_ROW) > 1
    for col in range(T.DEPLOYMENT_DEPTH, T.row_length(row) - T.DEPLOYMENT_DEPTH))


def layout(seed: int, buildings: Sequence[Json]) -> tuple[list[list[Any]], list[Json]]:
    """R-30-10: the battlefield. Grey ground; a river of shallow ocean along the middle
    row; between the deployment areas about one hex in six takes a colour (green, black,
    tan, white, red) or a +1 hill from the seed (a hash: the board is laid out before any
    die is rolled), never next to a different colour ("different colors need to be placed
    at least 1 hex apart"). Each building of the territory stands as a 1-hex structure at
    +1 elevation in front of the defender's area (R-30-15)."""
    colour: dict[tuple[int, int], str] = dict.fromkeys(_RIVER, "light_blue")
    height: dict[tuple[int, int], int] = {}
    palette = _PALETTE
    head = hashlib.sha256(f"30mm:{seed}:".encode())  # each hex's text starts so
    for spot, suffix, around in _CANDIDATES:
        hashed = head.copy()
        hashed.update(suffix)
        h = hashed.digest()
        if h[0] % 6:
            continue
        pick = palette[h[1] % 7]
        if pick == "hill":
            height[spot] = 1
            continue
        near = {colour.get(n) for n in around} - {None, pick}
        if not near:
            colour[spot] = pick
    structures = []
    spots = [(T.DEPLOYMENT_DEPTH, r) for r in (3, 9, 1, 11)]
    for (col, row), b in zip(spots, list(buildings)[:4], strict=False):
        colour.pop((col, row), None)
        structures.append({"id": int(b.get("id", 0)), "kind": str(b.get("kind", "")),
                           "at": [col, row], "elevation": 1,
                           "defense": rules.structure_defense(1, 1)})
    terrain = [[c, r, "grey", 0] for c, r in _HEXES]
    for spot, name in colour.items():
        terrain[_INDEX[spot]][2] = name
    for spot, up in height.items():
        terrain[_INDEX[spot]][3] = up
    return terrain, structures


def _slots(defending: bool) -> list[tuple[int, int]]:
    """R-30-10: the defender deploys in the first 3 hexes from the west short edge, the
    attacker from the east; the middle rows first, the front column first."""
    rows = sorted(range(T.ROWS), key=lambda r: (abs(r - T.RIVER_ROW), r))
    out = []
    for depth in range(T.DEPLOYMENT_DEPTH - 1, -1, -1):
        for r in rows:
            col = depth if defending else T.row_length(r) - 1 - depth
            out.append((col, r))
    return out


#: `_slots` of the defender (True) and the attacker (False), worked out once.
_SLOTS: dict[bool, tuple[tuple[int, int], ...]] = {
    defending: tuple(_slots(defending)) for defending in (True, False)}


class ThirtyMinuteMissions(RulesetBase):
    name = "thirtymm"
    option_specs = T.OPTION_SPECS
    version = "1"
    title = "30 Minute Missions"
    seed_file = T.SEED_FILE
    dice = ("d8",)
    factions: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    pilots = False

    def name_lists(self) -> dict[str, tuple[str, ...]]:
        """Its pilots' and units' default names (issue 26; `names.py`)."""
        return NAME_LISTS

    def tables(self) -> Json:
        return {**T.as_json(), "datasheet_schema": D.SCHEMA,
                "catalogue": [e.to_dict() for e in self.catalogue()]}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """The umpire's imported datasheets are validated before they are stored."""
        sheets = D.validate_all(options.get("thirtymm_datasheets", []))
        clash = {s["key"] for s in sheets} & {s["key"] for s in D.STARTERS}
        if clash:
            raise RulesetError("Datasheet keys already used by the starter set: "
                               + ", ".join(sorted(clash)) + ".")
        size = options.get("thirtymm_engagement", "auto")
        if size != "auto" and size not in T.ENGAGEMENTS:
            raise RulesetError("thirtymm_engagement must be auto or one of "
                               + ", ".join(T.ENGAGEMENTS) + ".")
        if int(options.get("thirtymm_cost_per_sc", 5)) < 1:
            raise RulesetError("thirtymm_cost_per_sc must be at least 1.")

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        per = int(_option(options, "thirtymm_cost_per_sc"))
        entries = [_entry(s, per, str(s.get("ruling") or "R-30-3")) for s in D.STARTERS]
        for sheet in (options or {}).get("thirtymm_datasheets") or ():
            entries.append(_entry(dict(sheet), per, "imported by the umpire (R-30-1)"))
        return sorted(entries, key=lambda e: (e.price, e.key))

    def initial_state(self, key: str) -> Json:
        """Sections start whole (an absent section is at full durability)."""
        return {"sections": {}, "battles": 0}

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        """R-30-16: the pilot climbs Rookie -> Regular -> Veteran -> Ace with battles
        survived; never falls."""
        battles = int(state.get("battles", 0)) + sum(
            a.amount for a in awards if a.kind == SURVIVED)
        earned = 0
        for i, key in enumerate(("thirtymm_regular_after", "thirtymm_veteran_after",
                                 "thirtymm_ace_after"), start=1):
            if battles >= int(_option(options, key)):
                earned = i
        before = T.RANKS.index(state["rank"]) if state.get("rank") in T.RANKS else 0
        return {**state, "battles": battles, "rank": T.RANKS[max(before, earned)]}

    def repair(self, profile: Json, state: Json) -> tuple[int, Json]:
        """R-30-17: durability restored costs the unit's price times the share of its
        total durability lost, rounded up."""
        total = sum(int(s["durability"]) for s in profile["sections"])
        lost = sum(int(s["durability"]) - int((state.get("sections") or {}).get(
            s["key"], s["durability"])) for s in profile["sections"])
        price = D.price(profile, int(_option(None, "thirtymm_cost_per_sc")))
        return math.ceil(price * lost / total) if total else 0, {**state, "sections": {}}

    def forces(self, battlefield: Battlefield) -> Json:
        options = {k: battlefield.options.get(k, v) for k, v in T.OPTIONS.items()
                   if k != "thirtymm_datasheets"}
        defender = battlefield.defender
        order = ([defender] if defender is not None else []) + sorted(
            p for p in battlefield.sides if p != defender)
        costs = {p: [int(u.profile.get("deployment_cost", 0)) for u in battlefield.sides[p]]
                 for p in order}
        size = str(options["thirtymm_engagement"])
        if size == "auto":
            size = rules.engagement(max((sum(c) for c in costs.values()), default=0)) \
                or "battle"
        if size not in T.ENGAGEMENTS:
            raise RulesetError(f"Unknown engagement size {size!r}.")
        limit = T.ENGAGEMENTS[size]
        terrain, structures = layout(battlefield.seed, battlefield.buildings)
        sides: dict[str, list[Json]] = {}
        reserve: dict[str, list[int]] = {}
        for index, pid in enumerate(order):
            units = list(battlefield.sides[pid])
            chosen = set(rules.squad_within(costs[pid], limit))
            fielded = [u for i, u in enumerate(units) if i in chosen]
            reserve[str(pid)] = [u.id for i, u in enumerate(units) if i not in chosen]
            sides[str(pid)] = _deploy(fielded, defending=index == 0, taken=structures)
        return with_plans({"seed": battlefield.seed, "territory": battlefield.territory,
                           "defender": str(defender) if defender is not None else None,
                           "engagement": size, "limit": limit, "options": options,
                           "board": {"terrain": terrain, "structures": structures},
                           "sides": sides, "reserve": reserve}, battlefield, str)

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        if policy not in (None, "default"):
            raise RulesetError(f"30 Minute Missions has no policy {policy!r}.")
        return _outcome(play(battle_input, dice), battle_input)

    def simulation(self, battle_input: Json) -> Simulation:
        cache: dict[str, Any] = {}  # the board's steps and sight lines, worked out once

        def simulate(dice: Dice) -> tuple[str | None, list[tuple[str, bool | int]]]:
            b = play(battle_input, dice, keep_log=False, cache=cache)
            return engine.winner(b), [(u.side, u.condition == "destroyed") for u in b.units]

        return simulate

    def actions(self) -> ThirtyMinuteMissionsActions:
        """The battle as refereed choices (issue 28; `actions.py`, `policy.py`)."""
        return LAYER

    def tabletop_schema(self) -> Json:
        return {
            "type": "object", "required": ["winner"], "additionalProperties": False,
            "properties": {
                "winner": {"type": ["integer", "null"]},
                "mission": {"type": "string", "maxLength": 60},
                "victory_points": {"type": "object", "maxProperties": 8,
                                   "additionalProperties": {"type": "integer", "minimum": 0,
                                                            "maximum": 14}},
                "units": {"type": "array", "maxItems": 100, "items": {
                    "type": "object", "required": ["id"], "additionalProperties": False,
                    "properties": {
                        "id": {"type": "integer"},
                        "sections_destroyed": {
                            "type": "array", "maxItems": 12, "items": {"type": "string",
                                                                       "maxLength": 40},
                            "description": "Keys of the sections destroyed (a destroyed "
                                           "torso or cockpit destroys the unit)."},
                        "damage": {"type": "object", "maxProperties": 12,
                                   "additionalProperties": {"type": "integer", "minimum": 0,
                                                            "maximum": 200},
                                   "description": "Durability lost per section key."},
                        "ap_stored": {"type": "integer", "minimum": 0, "maximum": T.AP_CAP,
                                      "description": "AP left on the D20 at the end."}}}},
            },
        }

    def outcome_from_report(self, battle_input: Json, report: Json) -> Outcome:
        roster = {int(u["id"]): (str(side), u) for side, units in battle_input["sides"].items()
                  for u in units}
        winner = report.get("winner")
        if winner is not None and str(winner) not in battle_input["sides"]:
            raise RulesetError("The winner must be one of the players who fought, or null.")
        entered: dict[int, Json] = {}
        for item in report.get("units") or ():
            if int(item["id"]) not in roster:
                raise RulesetError(f"Unit {item['id']} did not fight in this battle.")
            entered[int(item["id"])] = item
        fates = []
        for uid, (side, u) in roster.items():
            item = entered.get(uid, {})
            sections = {s["key"]: dict(s) for s in u["sections"]}
            for key in item.get("sections_destroyed") or ():
                if key not in sections:
                    raise RulesetError(f"{u['name']} has no section {key!r} (it has "
                                       f"{', '.join(sections)}).")
                sections[key]["durability"] = 0
            for key, lost in (item.get("damage") or {}).items():
                if key not in sections:
                    raise RulesetError(f"{u['name']} has no section {key!r}.")
                sections[key]["durability"] = max(0, int(sections[key]["durability"]) - lost)
            fates.append(_fate(uid, side, u, list(sections.values()),
                               {"ap_stored": item.get("ap_stored", 0)}))
        for side, ids in (battle_input.get("reserve") or {}).items():
            fates += [UnitFate(unit=int(i), player=int(side), fate="intact",
                               detail={"reserve": True}) for i in ids]
        xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates
                   if f.fate != "destroyed" and not f.detail.get("reserve"))
        return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                       xp=xp, end_reason="tabletop",
                       result={"mission": report.get("mission"),
                               "victory_points": report.get("victory_points") or {}})

    def replay(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> list[Json]:
        return [{"text": step.get("text", ""), "actor": step.get("unit"),
                 "target": step.get("target"), "round": step.get("round"),
                 "rolls": [r for r in (step.get("ap_roll"), step.get("attack"),
                                       step.get("evasion")) if r is not None]}
                for step in log]

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board:
        """The 16x13 hex board (R-30-10: rows of 16 and 15 hexes in turn, odd-row offset)
        with its terrain colours, a frame per round (every unit activates once a round,
        "Phases of a Turn")."""
        sides = battle_input.get("sides") or {}
        owner = {str(u["id"]): str(side) for side, us in sides.items() for u in us}
        start = {str(u["id"]): odd_row_centre(*u["at"]) for us in sides.values() for u in us
                 if u.get("at") is not None}

        def apply(e: Json, units: dict[str, Marker], frame: Frame) -> None:
            action, uid = e.get("action"), e.get("unit")
            if action == "throw" and e.get("to") is not None:
                note_attack(frame, units, uid, e.get("target"))
                note_move(frame, units, e.get("target"), odd_row_centre(*e["to"]))
            elif e.get("to") is not None and action in ("move", "grapple", "release",
                                                          "break_grapple"):
                note_move(frame, units, uid, odd_row_centre(*e["to"]))
            elif action in ("out", "withdraw"):
                m = units.get(str(uid))
                if m is not None:
                    m.state = ("retreated" if action == "withdraw"
                               or e.get("condition") == "fled" else "destroyed")
            elif uid is not None and e.get("target") is not None:
                note_attack(frame, units, uid, e["target"])

        terrain = (battle_input.get("board") or {}).get("terrain") or ()
        cells = tuple(Cell(*odd_row_centre(int(t[0]), int(t[1])), terrain=str(t[2]))
                      for t in terrain)
        width, height = odd_row_centre(T.LONG_ROW, T.ROWS - 1)
        return Board(width=width - math.sqrt(3) / 2, height=height + 1.0,
                     frames=board_frames(start, owner, log, step_key="round", apply=apply,
                                         outcome=outcome),
                     rounds=int(outcome.get("rounds") or 0), grid="hex", cell=1.0,
                     cells=cells, unit="hex")

    def probes(self) -> tuple[str, ...]:
        return tuple(_PROBES)

    def probe(self, rule: str, args: Json, dice: Dice) -> Json:
        return run_probe(_PROBES, rule, args, dice, title="30 Minute Missions",
                         errors=(TypeError, KeyError, ValueError))

    def sections(self) -> list[Json]:
        return [{"section": s, "reason": r} for s, r in SECTIONS]

    def sample_battle(self, seed: int = 0) -> Json:
        catalogue = _SAMPLE_CATALOGUE
        if not catalogue:  # the starters' entries, once (each unit copies its profile)
            catalogue += self.catalogue()

        def unit(uid: int, player: int, key: str) -> FieldUnit:
            e = next(e for e in catalogue if e.key == key)
            return FieldUnit(id=uid, player=player, key=key, name=f"{e.name} {uid}",
                             profile=dict(e.profile), state=self.initial_state(key))

        return self.forces(Battlefield(territory=1, defender=2, seed=seed, sides={
            1: [unit(1, 1, "standard_mech"), unit(2, 1, "assault_tank"),
                unit(3, 1, "gunship"), unit(4, 1, "scout_drone")],
            2: [unit(5, 2, "standard_mech"), unit(6, 2, "assault_tank"),
                unit(7, 2, "patrol_boat"), unit(8, 2, "scout_drone")]}))


#: The default catalogue `sample_battle` fields its units from (filled on first use).
_SAMPLE_CATALOGUE: list[CatalogueEntry] = []

SECTIONS: tuple[tuple[str, str | None], ...] = (
    ("Combat Objective", None), ("Required Components", None), ("Unit Sections", None),
    ("Unit Types", None), ("Classification", None), ("Board Setup", None),
    ("Deployment", None), ("Phases of a Turn", None), ("Movement Phase", None),
    ("Movement Options", None), ("Combat", None), ("Ranged Combat Phase", None),
    ("Close Combat Phase", None), ("Basic Attacks", None), ("Grappling", None),
    ("End of Round", None), ("Destroying Unit Sections", None),
    ("Destroyed vs Inoperative", None), ("Command Actions", None), ("Status Effects", None),
    ("Elevation", None), ("High Ground Bonus", None), ("Hex Colors and Effects", None),
    ("Buildings and Structures", None), ("Battle Sequence", None), ("Glossary", None),
    ("Non-Hex Terrain", "Scatter terrain is agreed between players at the table; the "
                        "engine's board has none (R-30-10)."),
)


def _stats(u: FieldUnit) -> tuple[Json, str]:
    sheet = u.profile
    pilot = str(sheet.get("pilot", "rookie"))
    rank = pilot
    if pilot != "ai" and u.state.get("rank") in T.RANKS:
        rank = T.RANKS[max(T.RANKS.index(pilot), T.RANKS.index(u.state["rank"]))]
    base = {k: int(sheet[k]) for k in T.SRM_ORDER}
    return (rules.rank_stats(base, rank) if rank != "ai" else base), rank


def _deploy(units: list[FieldUnit], *, defending: bool, taken: list[Json]) -> list[Json]:
    blocked = {tuple(s["at"]) for s in taken}
    slots = [s for s in _SLOTS[defending] if s not in blocked]
    water = [s for s in slots if s[1] == T.RIVER_ROW]
    used: set[tuple[int, int]] = set()
    placed = []
    for u in units:
        if not u.profile.get("sections"):
            raise RulesetError(f"{u.name} has no datasheet and cannot fight.")
        sheet = u.profile
        state_sections = u.state.get("sections") or {}
        sections = [{"key": s["key"], "kind": s["kind"], "defense": int(s["defense"]),
                     "max": int(s["durability"]),
                     "durability": int(state_sections.get(s["key"], s["durability"]))}
                    for s in sheet["sections"]]
        if rules.condition(sheet["type"], sections) == "destroyed":
            raise RulesetError(f"{u.name} is destroyed and cannot fight.")
        pool = water if sheet["type"] == "aquatic" else [s for s in slots
                                                          if s[1] != T.RIVER_ROW]
        spot = next((s for s in pool if s not in used), None)
        if spot is None:
            raise RulesetError(f"No room left in the deployment area for {u.name}.")
        used.add(spot)
        cls = rules.classify(D.total_defense(sheet))
        stats, rank = _stats(u)
        placed.append({
            "id": u.id, "name": u.name, "key": u.key, "type": sheet["type"],
            "systems": list(sheet.get("systems") or ()), "stats": stats, "rank": rank,
            "sections": sections, "weapons": [dict(w) for w in sheet["weapons"]],
            "class": cls["class"], "movement": cls["movement"], "ap_bonus": cls["ap_bonus"],
            "cost": int(sheet["deployment_cost"]), "at": list(spot),
            "facing": 0 if defending else 3,
            "elevation": 1 if sheet["type"] == "aerial" else 0})
    return placed


def _fate(uid: int, side: str, u: Json, sections: list[Json], detail: Json) -> UnitFate:
    condition = rules.condition(u["type"], sections)
    hurt = any(int(s["durability"]) < int(s["max"]) for s in sections)
    fate = ("destroyed" if condition == "destroyed" else "damaged" if hurt else "intact")
    lost = [s["key"] for s in sections if int(s["durability"]) <= 0]
    return UnitFate(unit=uid, player=int(side), fate=fate,
                    state={"sections": {s["key"]: int(s["durability"]) for s in sections
                                        if int(s["durability"]) < int(s["max"])}},
                    detail={"condition": condition, "sections_destroyed": lost, **detail})


def _outcome(b: engine.Battle, battle_input: Json) -> Outcome:
    fates = []
    for u in b.units:
        fate = _fate(u.id, u.side, {"type": u.utype}, u.sections,
                     {"at": list(H.to_offset(u.at)), "ap_stored": u.ap})
        if u.left:  # R-30-24: it left the battlefield over its table edge
            fate = dataclasses.replace(fate, fate="retreated",
                                       detail={**fate.detail, "withdrew": True})
        fates.append(fate)
    for side, ids in (battle_input.get("reserve") or {}).items():
        fates += [UnitFate(unit=int(i), player=int(side), fate="intact",
                           detail={"reserve": True}) for i in ids]
    winner = engine.winner(b)
    vp = engine.scores(b)
    xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates
               if f.fate != "destroyed" and not f.detail.get("reserve"))
    return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                   xp=xp, rounds=b.round, end_reason=str(b.options.get("end_reason", "")),
                   result={"winner": winner, "rounds": b.round, "mission": b.mission,
                           "engagement": battle_input.get("engagement"),
                           "victory_points": vp,
                           "end_reason": b.options.get("end_reason")},
                   log=tuple(b.log))


def _sections_arg(sections: Sequence[Json]) -> list[Json]:
    return [{"kind": s["kind"], "durability": s.get("durability", 1)} for s in sections]


def _fight(dice: Dice, battle_input: Json) -> Json:
    b = play(battle_input, dice)
    return {"winner": engine.winner(b), "mission": b.mission["mission"],
            "rounds": b.round, "victory_points": engine.scores(b),
            "units": {str(u.id): {"condition": u.condition,
                                  "at": list(H.to_offset(u.at)), "ap": u.ap,
                                  "sections": {s["key"]: s["durability"]
                                               for s in u.sections}}
                      for u in b.units},
            "log": [step["text"] for step in b.log]}


def duel_input(units: Sequence[Json], rounds: int = 1, terrain: Sequence[Sequence[Any]] = (),
               structures: Sequence[Json] = (), defender: str = "2",
               engagement: str = "scouting", options: Json | None = None) -> Json:
    """A small battle on a grey board, every unit a starter placed by hand: `units` are
    `{id, side, key, at, facing?, elevation?, sections?}`; `terrain` overrides hexes as
    `[column, row, colour, elevation]`; `structures` are `{at, defense?}`."""
    sides: dict[str, list[Json]] = {}
    for spec in units:
        sheet = _starter_sheet(str(spec["key"]))
        side = str(spec["side"])
        unit = FieldUnit(id=int(spec["id"]), player=int(side), key=sheet["key"],
                         name=str(spec.get("name", sheet["name"])), profile=sheet,
                         state={"sections": dict(spec.get("sections") or {})})
        entry = _deploy([unit], defending=side == defender, taken=[])[0]
        entry["at"] = list(spec["at"])
        for key in ("facing", "elevation"):
            entry[key] = int(spec[key] if key in spec else entry[key])
        sides.setdefault(side, []).append(entry)
    overrides = {(int(c), int(r)): [int(c), int(r), str(k), int(e)] for c, r, k, e in terrain}
    board = [overrides.get((c, r), [c, r, "grey", 0])
             for r in range(T.ROWS) for c in range(T.row_length(r))]
    placed = [{"id": 0, "kind": "", "elevation": 1,
               "defense": rules.structure_defense(1, 1), **dict(s)} for s in structures]
    return {"sides": sides, "defender": defender, "engagement": engagement,
            "options": {"thirtymm_max_rounds": rounds, **(options or {})},
            "board": {"terrain": board, "structures": placed}}


def _duel(dice: Dice, units: Sequence[Json], rounds: int = 1,
          terrain: Sequence[Sequence[Any]] = (), structures: Sequence[Json] = (),
          defender: str = "2", engagement: str = "scouting", options: Json | None = None
          ) -> Json:
    """A whole small battle (`duel_input`) fought by the default policy with the case's
    dice."""
    return _fight(dice, duel_input(units, rounds, terrain, structures, defender, engagement,
                                   options))


def _datasheet(dice: Dice, sheet: Json) -> Json:
    checked = D.validate(sheet)
    cls = rules.classify(D.total_defense(checked))
    return {"valid": True, "total_defense": D.total_defense(checked), **cls}


_PROBES: dict[str, Any] = {
    "classify": lambda dice, total_defense: rules.classify(total_defense),
    "roll_ap": lambda dice, **kw: rules.roll_ap(dice, **kw),
    "attack": lambda dice, **kw: rules.attack_roll(dice, **kw),
    "evasion": lambda dice, **kw: rules.evasion_roll(dice, **kw),
    "damage": lambda dice, base, critical=False: {"damage": rules.damage(base, critical)},
    "apply_damage": lambda dice, durability, amount: rules.apply_damage(durability, amount),
    "penalties": lambda dice, sections: rules.section_penalties(_sections_arg(sections)),
    "movement": lambda dice, base, penalty="full", water=False,
    half="reduction_rounded_up": {
        "points": rules.standard_movement(base, penalty, water, half)},
    "condition": lambda dice, unit_type, sections: {
        "condition": rules.condition(unit_type, _sections_arg(sections))},
    "high_ground": lambda dice, difference: rules.high_ground(difference),
    "weapon_ap": lambda dice, ap, unit_type, main_cannon=False: {
        "ap": rules.weapon_ap(ap, unit_type=unit_type, main_cannon=main_cannon)},
    "weapon_range": lambda dice, base, unit_type, green_between=0: {
        "range": rules.weapon_range(base, unit_type=unit_type, green_between=green_between)},
    "in_range": lambda dice, distance, range: {"in_range": rules.in_range(distance, range)},
    "terrain_accuracy": lambda dice, colours: {"modifier": rules.terrain_accuracy(colours)},
    "needs_los": lambda dice, unit_type, weapon: {
        "needs": rules.needs_line_of_sight(unit_type, weapon)},
    "mounted_explodes": lambda dice: rules.mounted_explodes(dice),
    "field_of_view": lambda dice, facing, direction, unit_type="mech": {
        "sees": rules.field_of_view(facing, direction, unit_type)},
    "step_cost": lambda dice, **kw: {"cost": rules.step_cost(**kw)},
    "fall_damage": lambda dice, classification, height: {
        "damage": rules.fall_damage(classification, height)},
    "collision_damage": lambda dice, classification, distance: {
        "damage": rules.collision_damage(classification, distance)},
    "throw_distance": lambda dice, assault: {"hexes": rules.throw_distance(assault)},
    "can_throw": lambda dice, attacker_class, target_class: {
        "can": rules.can_throw(attacker_class, target_class)},
    "deviation": lambda dice: rules.deviation(dice),
    "grapple": lambda dice, **kw: rules.grapple(dice, **kw),
    "reboot": lambda dice, attempts_before=0: rules.reboot(dice, attempts_before),
    "structure_defense": lambda dice, hexes, elevation: {
        "defense": rules.structure_defense(hexes, elevation)},
    "hit_structure": lambda dice, defense, damage: rules.hit_structure(defense, damage),
    "end_of_turn": lambda dice, colour, systems=(): rules.hex_end_of_turn(colour, systems),
    "engagement": lambda dice, cost: {"size": rules.engagement(cost)},
    "squad": lambda dice, costs, limit: {"fielded": rules.squad_within(costs, limit)},
    "mission": lambda dice, size: rules.mission(dice, size),
    "victory_points": lambda dice, primary, secondary: rules.victory_points(primary,
                                                                            secondary),
    "secondary": lambda dice, units_out, first_blood=False: {
        "points": rules.secondary_points(units_out, first_blood)},
    "destroy_points": lambda dice, cost_out, cost_total: {
        "points": rules.destroy_points(cost_out, cost_total)},
    "rank_stats": lambda dice, stats, rank: rules.rank_stats(stats, rank),
    "veterancy": lambda dice, state, battles=1, options=None: _self().veterancy(
        state, [XpAward(unit=0, kind=SURVIVED, amount=battles)], options),
    "datasheet": _datasheet,
    "board": lambda dice: {"hexes": sum(T.row_length(r) for r in range(T.ROWS)),
                           "rows": T.ROWS,
                           "row_lengths": [T.row_length(r) for r in range(T.ROWS)]},
    "price": lambda dice, key, cost_per_sc=None: {"price": next(
        e.price for e in _self().catalogue(
            options={"thirtymm_cost_per_sc": cost_per_sc} if cost_per_sc else None)
        if e.key == key)},
    "deploy": lambda dice, keys, defending=True: {"at": [u["at"] for u in _deploy(
        [FieldUnit(id=i, player=1, key=k, name=k, profile=next(
            dict(s) for s in D.STARTERS if s["key"] == k)) for i, k in enumerate(keys)],
        defending=defending, taken=[])]},
    "fight": _fight,
    "duel": _duel,
    "starter": lambda dice, key: _starter(key),
    "repair": lambda dice, key, sections: {"cost": _self().repair(
        _starter_sheet(key), {"sections": dict(sections)})[0]},
}


def _starter_sheet(key: str) -> Json:
    sheet = next((dict(s) for s in D.STARTERS if s["key"] == key), None)
    if sheet is None:
        raise RulesetError(f"No starter datasheet {key!r}.")
    return sheet


def _starter(key: str) -> Json:
    """R-30-3: a starter, checked like any datasheet, with its class and its weapons' AP."""
    sheet = D.validate(_starter_sheet(key))
    cls = rules.classify(D.total_defense(sheet))
    return {"type": sheet["type"], "total_defense": D.total_defense(sheet), **cls,
            "weapon_ap": {w["key"]: rules.weapon_ap(int(w["ap"]), unit_type=sheet["type"],
                                                    main_cannon=bool(w.get("main_cannon")))
                          for w in sheet["weapons"]}}


def _self() -> ThirtyMinuteMissions:
    return RULESET


def seeded_dice(battle_input: Json) -> Dice:
    return Dice(random.Random(int(battle_input.get("seed", 0))))


RULESET: ThirtyMinuteMissions = ThirtyMinuteMissions()
