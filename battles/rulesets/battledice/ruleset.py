"""The battle-dice game with God Machines (seed 004) behind the ruleset seam.

Pure Python (no Django). Rulings: docs/rulings/battledice.md (R-BD-n).
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
from battles.rulesets.battledice import actions, engine, rules
from battles.rulesets.battledice import policy as bot
from battles.rulesets.battledice import tables as T
from battles.rulesets.battledice.names import NAME_LISTS
from campaign.rules import hexgrid as hexes
from campaign.rules.dice import Dice

SURVIVED = "battle_survived"
_NAMES = {"infantry": "infantry", "vehicle": "vehicles", "god_machine": "God Machine"}


def price(stats: T.Stats) -> int:
    """R-BD-2: 6 SC per battle die + 4 per hex of movement + 2 per hex of range + 8 per hit
    the unit can take (a model each, or a single model's damage capacity); God Machines
    double it (void shields)."""
    single = stats.models == 1 and stats.unit_class != "infantry"
    base = (6 * stats.dice + 4 * stats.move + 2 * stats.range
            + 8 * (stats.size if single else stats.models))
    return base * (2 if stats.unit_class == "god_machine" else 1)


def _name(s: T.Stats) -> str:
    if s.unit_class == "leader":
        return "Leader" if s.models == 1 else "Leader unit"
    kind = s.unit_type.replace("_", " ")
    return f"{kind.capitalize()} {_NAMES[s.unit_class]}"


CATALOGUE: tuple[CatalogueEntry, ...] = tuple(sorted(
    (CatalogueEntry(key=s.key, name=_name(s), kind=s.unit_class, price=price(s),
                    profile={"class": s.unit_class, "type": s.unit_type, "models": s.models,
                             "size": s.size, "move": s.move, "range": s.range,
                             "dice": s.dice})
     for s in T.STATS.values()), key=lambda e: (e.price, e.key)))


def _option(options: Mapping[str, Any] | None, key: str) -> Any:
    return (options or {}).get(key, T.OPTIONS[key])


def layout(seed: int, buildings: Sequence[Json]) -> list[list[Any]]:
    """R-BD-4: the defender's rows (0-1) hold one building hex per building of the
    territory (at most four); the middle rows take woods, ruins or a hill from the seed
    (a hash: the board is laid out before any die is rolled), about one hex in six."""
    terrain: list[list[Any]] = []
    for i, _b in enumerate(list(buildings)[:4]):
        terrain.append([2 + 2 * i, 1, "building"])
    for row in range(2, T.ROWS - 2):
        for col in range(T.COLUMNS):
            h = hashlib.sha256(f"{seed}:{col}:{row}".encode()).digest()[0]
            if h % 6 == 0:
                terrain.append([col, row, ("woods", "ruins", "hill")[h // 6 % 3]])
    return terrain


def deck_order(seed: int) -> list[int]:
    """R-BD-3: the order deck, shuffled once for the battle from its seed."""
    deck = list(T.ORDER_DECK)
    random.Random(f"deck:{seed}").shuffle(deck)
    return deck


class Layer:
    """`ActionLayer` of battle dice: `actions.py` referees, `policy.py` chooses."""

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


class BattleDice(RulesetBase):
    name = "battledice"
    option_specs = T.OPTION_SPECS
    version = "1"
    title = "Battle dice with God Machines"
    seed_file = T.SEED_FILE
    dice = ("symbol",)
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
        return {"models": T.stats(key).models, "damage": 0, "battles": 0, "rank": 0}

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        """R-BD-7: a rank (+1 battle die) per `battledice_rank_every` battles survived,
        at most two."""
        battles = int(state.get("battles", 0)) + sum(
            a.amount for a in awards if a.kind == SURVIVED)
        every = max(1, int(_option(options, "battledice_rank_every")))
        rank = max(int(state.get("rank", 0)), min(T.MAX_RANK, battles // every))
        return {**state, "battles": battles, "rank": rank}

    def repair(self, profile: Json, state: Json) -> tuple[int, Json]:
        """R-BD-10: a lost model costs its share of the price; a point of damage on a
        single model its share of the price per point of damage capacity."""
        stats = T.stats(f"{profile['type']}_{profile['class']}")
        cost = price(stats)
        missing = max(0, stats.models - int(state.get("models", stats.models)))
        damage = int(state.get("damage", 0))
        total = math.ceil(cost * missing / stats.models) + math.ceil(
            cost * damage / stats.size)
        return total, {**state, "models": stats.models, "damage": 0}

    def forces(self, battlefield: Battlefield) -> Json:
        options = {k: battlefield.options.get(k, v) for k, v in T.OPTIONS.items()}
        rules.faces_of(options)
        defender = battlefield.defender
        order = ([defender] if defender is not None else []) + sorted(
            p for p in battlefield.sides if p != defender)
        sides: dict[str, list[Json]] = {}
        for index, pid in enumerate(order):
            rows = (0, 1) if index == 0 else (T.ROWS - 1, T.ROWS - 2)
            sides[str(pid)] = _deploy(list(battlefield.sides[pid]), rows)
        return with_plans({"seed": battlefield.seed, "territory": battlefield.territory,
                           "defender": str(defender) if defender is not None else None,
                           "options": options,
                           "terrain": layout(battlefield.seed, battlefield.buildings),
                           "deck": deck_order(battlefield.seed), "sides": sides},
                          battlefield)

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        if policy not in (None, "default"):
            raise RulesetError(f"Battle dice has no policy {policy!r}.")
        return _outcome(bot.play_battle(battle_input, dice))

    def actions(self) -> Layer:
        """The battle as refereed choices (issue 28; verbs in R-BD-12)."""
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
                "winner": {"type": ["integer", "null"]},
                "units": {"type": "array", "maxItems": 200, "items": {
                    "type": "object", "required": ["id"], "additionalProperties": False,
                    "properties": {
                        "id": {"type": "integer"},
                        "hits": {"type": "integer", "minimum": 0, "maximum": 100,
                                 "description": "Hits taken after void shields: models lost, "
                                                "or damage on a single model."},
                        "void_shields_lost": {"type": "integer", "minimum": 0,
                                              "maximum": 20,
                                              "description": "God Machines: damage taken."},
                        "retreated_off": {"type": "boolean",
                                          "description": "Retreated off the board."}}}},
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
            stats = T.stats(u["key"])
            hits = int(item.get("hits", 0)) + int(item.get("void_shields_lost", 0))
            if item.get("void_shields_lost") and stats.unit_class != "god_machine":
                raise RulesetError(f"{u['name']} is no God Machine: it has no void shields.")
            after = rules.apply_hits(models=int(u["models"]), size=stats.size,
                                     damage=int(u.get("damage", 0)), hits=hits,
                                     unit_class=stats.unit_class)
            if hits > int(u["models"]) * stats.size:
                raise RulesetError(f"{u['name']} cannot take {hits} hits.")
            fate = ("destroyed" if after["destroyed"] else "retreated"
                    if item.get("retreated_off") else "damaged" if hits else "intact")
            fates.append(UnitFate(unit=uid, player=int(side), fate=fate,
                                  state={"models": after["models"],
                                         "damage": after["damage"]}))
        xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates if f.fate != "destroyed")
        return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                       xp=xp, end_reason="tabletop")

    def replay(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> list[Json]:
        return [{"text": step.get("text", ""), "actor": step.get("unit"),
                 "target": step.get("target"), "round": step.get("turn"),
                 "rolls": list(step.get("symbols") or ()) + list(step.get("shields") or ())}
                for step in log]

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board:
        """The 10x8 hex board (R-BD-4, odd-row offset hexes), a frame per turn. Retreats
        are not logged hex by hex: each retreat symbol moves the target one hex directly
        away from the unit that fired (R-BD-5), unless the hex is off the board (the
        unit leaves the field) or taken (it holds)."""
        sides = battle_input.get("sides") or {}
        units_in = [u for side in sides.values() for u in side]
        at_hex = {str(u["id"]): hexes.to_axial(*u["at"]) for u in units_in}
        owner = {str(u["id"]): str(side) for side, us in sides.items() for u in us}
        leaders = {str(u["id"]): str(u["leader_of"]) for u in units_in
                   if u.get("leader_of") is not None}

        def place(units: dict[str, Marker], frame: Frame, uid: str, h: hexes.Hex) -> None:
            at_hex[uid] = h
            note_move(frame, units, uid, odd_row_centre(*hexes.to_offset(h)))
            for leader, host in leaders.items():
                if host == uid and leader in units:
                    at_hex[leader] = h
                    units[leader].pos = units[uid].pos

        def apply(e: Json, units: dict[str, Marker], frame: Frame) -> None:
            action, uid = e.get("action"), str(e.get("unit"))
            if action == "move" and uid in units:
                place(units, frame, uid, hexes.to_axial(*e["to"]))
            elif action == "withdraw" and uid in units:  # R-BD-14: off its own edge
                units[uid].state = "retreated"
                for leader, host in leaders.items():
                    if host == uid and leader in units:
                        units[leader].state = "retreated"
            elif action in ("fire", "close_assault"):
                tid = str(e.get("target"))
                note_attack(frame, units, uid, tid)
                t = units.get(tid)
                if t is None:
                    return
                if e.get("destroyed"):
                    t.state = "destroyed"
                    return
                for _ in range(int(e.get("retreats") or 0)):
                    nxt = hexes.away(at_hex[uid], at_hex[tid])
                    if not engine.on_board(nxt):
                        t.state = "retreated"
                        break
                    if all(at_hex[o] != nxt or units[o].state != "active"
                           for o in units if o != tid):
                        place(units, frame, tid, nxt)

        start = {uid: odd_row_centre(*hexes.to_offset(h)) for uid, h in at_hex.items()}
        terrain = {(int(c), int(r)): str(kind) for c, r, kind in
                   battle_input.get("terrain") or ()}
        cells = tuple(Cell(*odd_row_centre(c, r), terrain=terrain.get((c, r), ""))
                      for r in range(T.ROWS) for c in range(T.COLUMNS))
        width, height = odd_row_centre(T.COLUMNS, T.ROWS - 1)
        return Board(width=width, height=height + 1.0,
                     frames=board_frames(start, owner, log, step_key="turn", apply=apply,
                                         outcome=outcome),
                     rounds=int(outcome.get("rounds") or 0), grid="hex", cell=1.0,
                     cells=cells, unit="hex", round_word="turn")

    def probes(self) -> tuple[str, ...]:
        return tuple(_PROBES)

    def probe(self, rule: str, args: Json, dice: Dice) -> Json:
        return run_probe(_PROBES, rule, args, dice, title="Battle dice")

    def sections(self) -> list[Json]:
        return [{"section": s, "reason": r} for s, r in SECTIONS]

    def sample_battle(self, seed: int = 0) -> Json:
        def unit(uid: int, player: int, key: str) -> FieldUnit:
            e = next(e for e in CATALOGUE if e.key == key)
            return FieldUnit(id=uid, player=player, key=key, name=f"{e.name} {uid}",
                             profile=dict(e.profile), state=self.initial_state(key))

        return self.forces(Battlefield(territory=1, defender=2, seed=seed, sides={
            1: [unit(1, 1, "medium_infantry"), unit(2, 1, "heavy_vehicle"),
                unit(3, 1, "light_leader")],
            2: [unit(4, 2, "medium_infantry"), unit(5, 2, "medium_vehicle"),
                unit(6, 2, "light_god_machine")]}))


SECTIONS: tuple[tuple[str, str | None], ...] = (
    ("Battle dice", None), ("Game Turn", None), ("Move units", None), ("Battles", None),
    ("Line of site", None), ("Battle Hierarchy", None), ("Retreat", None),
    ("Single model units", None), ("Void Shields", None), ("Leaders", None),
    ("Single Model Leaders", None), ("Leader Units", None),
    ("Unit Stats", None),
)


def _deploy(units: list[FieldUnit], rows: tuple[int, int]) -> list[Json]:
    """R-BD-4: a side's units stand on its two home rows, left to right in unit order;
    a single Leader starts attached to the side's first other unit."""
    placed: list[Json] = []
    hosts = [u for u in units if not _single_leader(u)]
    slots = [(c, r) for r in rows for c in range(T.COLUMNS)]
    if len(hosts) > len(slots):
        raise RulesetError(f"At most {len(slots)} units of a side fit the board.")
    position: dict[int, tuple[int, int]] = {}
    for u, slot in zip(hosts, slots, strict=False):
        position[u.id] = slot
    for u in units:
        key = u.key
        stats = T.stats(key)
        models = int(u.state.get("models", stats.models))
        if models <= 0:
            raise RulesetError(f"{u.name} has no models left and cannot fight.")
        data: Json = {"id": u.id, "name": u.name, "key": key, "models": models,
                      "damage": int(u.state.get("damage", 0)),
                      "rank": int(u.state.get("rank", 0))}
        if _single_leader(u) and hosts:
            data["at"] = list(position[hosts[0].id])
            data["leader_of"] = hosts[0].id
        else:
            data["at"] = list(position.get(u.id, slots[len(position) % len(slots)]))
        placed.append(data)
    return placed


def _single_leader(u: FieldUnit) -> bool:
    return u.key == "light_leader"


def _outcome(b: engine.Battle) -> Outcome:
    fates = []
    for u in b.units:
        changed = u.models < u.models_start or u.damage > u.damage_start
        fate = ("destroyed" if u.destroyed else "retreated" if u.off_board
                else "damaged" if changed else "intact")
        fates.append(UnitFate(unit=u.id, player=int(u.side), fate=fate,
                              state={"models": max(0, u.models), "damage": u.damage},
                              detail={"at": list(engine.to_offset(u.at))}))
    winner = b.options.get("winner")
    xp = tuple(XpAward(unit=f.unit, kind=SURVIVED) for f in fates if f.fate != "destroyed")
    return Outcome(winner=int(winner) if winner is not None else None, units=tuple(fates),
                   xp=xp, rounds=b.turn, end_reason=str(b.options.get("end_reason", "")),
                   result={"winner": winner, "turns": b.turn,
                           "end_reason": b.options.get("end_reason")},
                   log=tuple(b.log))


def _target(args: Json) -> rules.Target:
    return rules.Target(**args)


_PROBES: dict[str, Any] = {
    "roll": lambda dice, n=1, faces=None: {"symbols": rules.roll_symbols(
        dice, n, rules.faces_of({"battledice_faces": faces} if faces else None))},
    "battle": lambda dice, attacker, target, n, attacker_has_leader=False: rules.hits_from(
        rules.roll_symbols(dice, n), attacker_class=attacker["class"],
        attacker_type=attacker["type"], target=_target(target),
        attacker_has_leader=attacker_has_leader),
    "ignores_first_target": lambda dice, attacker, target: {
        "ignores": rules.ignores_first_target(attacker["class"], attacker["type"],
                                              _target(target))},
    "void_shields": lambda dice, **kw: rules.void_shields(dice, **kw),
    "apply_hits": lambda dice, **kw: rules.apply_hits(**kw),
    "battle_dice": lambda dice, unit_dice, **kw: {"dice": rules.battle_dice(dice=unit_dice,
                                                                             **kw)},
    "must_close_assault": lambda dice, adjacent_enemies: {
        "must": rules.must_close_assault(adjacent_enemies)},
    "line_of_sight": lambda dice, **kw: {"clear": rules.line_of_sight(**kw)},
    "away": lambda dice, source, unit: {"to": list(engine.to_offset(hexes.away(
        engine.to_axial(*source), engine.to_axial(*unit))))},
    "distance": lambda dice, a, b: {"hexes": hexes.distance(engine.to_axial(*a),
                                                            engine.to_axial(*b))},
    "order_card": lambda dice, hand, deck: dict(zip(
        ("ordered", "hand", "deck"), rules.hand_after_play(list(hand), list(deck)),
        strict=True)),
    "stats": lambda dice, key: {k: getattr(T.stats(key), k) for k in
                                ("models", "size", "move", "range", "dice")},
    "price": lambda dice, key: {"price": next(e.price for e in CATALOGUE if e.key == key)},
    "veterancy": lambda dice, state, battles=1, options=None: _self().veterancy(
        state, [XpAward(unit=0, kind=SURVIVED, amount=battles)], options),
    "fight": lambda dice, input: _fight(dice, input),
}


def _fight(dice: Dice, battle_input: Json) -> Json:
    b = bot.play_battle(battle_input, dice)
    return {"winner": b.options["winner"], "units": {
        str(u.id): {"models": u.models, "damage": u.damage,
                    "at": list(engine.to_offset(u.at)), "off_board": u.off_board}
        for u in b.units}}


def _self() -> BattleDice:
    return RULESET


def seeded_dice(battle_input: Json) -> Dice:
    return Dice(random.Random(int(battle_input.get("seed", 0))))


RULESET: BattleDice = BattleDice()
