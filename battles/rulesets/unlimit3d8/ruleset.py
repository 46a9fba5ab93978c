"""Unlimit3d 8 (seed 003) behind the ruleset seam: the existing engine, unchanged.

Pure Python (no Django). The engine's own input and result documents (`BattleInput`,
`BattleResult`) are what the campaign stores for an Unlimit3d 8 battle; this module
translates them to and from the ruleset-neutral types of `battles.rulesets.base`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from battles.rulesets.base import (
    Battlefield,
    Board,
    CatalogueEntry,
    Effect,
    FieldUnit,
    Json,
    OddsQuestion,
    Outcome,
    RulesetBase,
    RulesetError,
    RulesetOption,
    UnitFate,
    XpAward,
    plans_of,
)
from battles.rulesets.unlimit3d8 import odds, replay, script, tabletop
from battles.rulesets.unlimit3d8 import rules as BF
from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BattleResult,
    BuildingInput,
    CargoInput,
    MissileInput,
    UnitInput,
    WeaponInput,
)
from battles.rulesets.unlimit3d8.engine.montecarlo import estimate_odds
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from battles.rulesets.unlimit3d8.layer import LAYER, Layer
from battles.rulesets.unlimit3d8.names import NAME_LISTS
from battles.rulesets.unlimit3d8.narrate import narrate
from battles.rulesets.unlimit3d8.serialize import rules_as_json
from campaign.rules import tables as T
from campaign.rules.dice import Dice


class Unlimit3d8(RulesetBase):
    name = "unlimit3d8"
    version = "1"
    title = "Unlimit3d 8"
    seed_file = "003_70a0c7c3c2dda768.txt"
    dice = ("d8",)
    factions: tuple[str, ...] = ()
    #: Declared campaign effects of a battle (applied by the campaign's effect handlers).
    effects = ("missiles_spent", "cargo", "lab_piracy")
    #: Seed, "Pilots": a vehicle fights only with a hired pilot aboard (R-BJ-1).
    pilots = True
    #: A force is assembled from the strategic layer's parts: vehicles, their weapons
    #: and equipment, and operatives hired as pilots (seed, "Commercial phase").
    purchase_kinds = ("vehicle", "weapon", "equipment", "operative")
    #: Damage stays on the unit card (repairable / unrepairable hit points), mended by the
    #: strategic layer's repair rules, never bought back whole.
    repairs = False
    #: The engine reads the campaign's own battle settings (R-BAT-3, R-BAT-4, R-BAT-11,
    #: R-BAT-32), not `ruleset_options`.
    battle_settings = MappingProxyType({
        "max_rounds": "battle_max_rounds", "stalemate_rounds": "battle_stalemate_rounds",
        "first_player": "battle_first_player",
        "force_field_projectile": "battle_force_field_projectile"})
    #: No settings of its own: its rulings are campaign settings of the core.
    option_specs: tuple[RulesetOption, ...] = ()

    def name_lists(self) -> dict[str, tuple[str, ...]]:
        """Its pilots' and units' default names (issue 26; `names.py`)."""
        return NAME_LISTS

    def tables(self) -> Json:
        return rules_as_json()

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        """Vehicles and exo armour, operatives and weapons at their seed prices. A vehicle
        comes without its pilot (hired separately), hence `crewed=False`."""
        entries = [CatalogueEntry(key=v.key, name=v.name, kind="vehicle", price=v.cost,
                                  profile={"category": v.category, "size": v.size,
                                           "slots": list(v.slots)}, crewed=False)
                   for v in T.VEHICLES.values()]
        entries += [CatalogueEntry(key=p.key, name=p.name, kind="operative",
                                   price=p.hiring_cost, crewed=True)
                    for p in T.PILOT_CLASSES.values()]
        entries += [CatalogueEntry(key=w.key, name=w.name,
                                   kind="equipment" if w.type == "equipment" else "weapon",
                                   price=w.cost, profile={"type": w.type}, crewed=True)
                    for w in T.WEAPONS.values()]
        return sorted(entries, key=lambda e: (e.price, e.kind, e.key))

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        """Pilots, not vehicles, learn (seed, "Experience"): a unit's state is unchanged;
        the campaign awards each pilot's XP (battles.services.experience)."""
        return dict(state)

    def forces(self, battlefield: Battlefield) -> Json:
        """The engine's input: the defender's side first, attackers after in player order;
        each unit with its pilot (`crew`: id, class, level), its weapons in slot order
        (`profile["weapons"]`) and its damage (`state`); the territory's buildings with
        their fitted turret weapons; `extras`: each side's silo missiles (R-BJ-11) and the
        defender's cargo (R-BJ-12)."""
        if battlefield.defender is None:
            raise RulesetError("An Unlimit3d 8 battle needs a defender.")
        defender = str(battlefield.defender)
        order = [battlefield.defender, *sorted(p for p in battlefield.sides
                                               if p != battlefield.defender)]
        sides = {str(pid): tuple(unit_input_of(u, str(pid)) for u in battlefield.sides[pid])
                 for pid in order}
        extras = battlefield.extras
        missiles = {str(k): tuple(MissileInput.from_dict(m) for m in v)
                    for k, v in (extras.get("missiles") or {}).items() if v}
        return BattleInput(
            territory=battlefield.territory, defender=defender, sides=sides,
            buildings=tuple(building_input_of(b) for b in battlefield.buildings),
            seed=battlefield.seed, options=dict(battlefield.options), missiles=missiles,
            cargo=tuple(CargoInput.from_dict(c) for c in extras.get("cargo") or ()),
            plans={str(pid): plan.to_dict() for pid, plan in battlefield.plans.items()},
        ).to_dict()

    def document(self, outcome: Outcome) -> Json:
        """The engine's own `BattleResult` document (kept as `Outcome.result`)."""
        return {**outcome.result, "log": list(outcome.log)}

    def outcome(self, result: Json) -> Outcome:
        return outcome_of(BattleResult.from_dict(result))

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        if policy not in (None, "default"):
            raise RulesetError(f"Unlimit3d 8 has no policy {policy!r}; only the default.")
        plans_of(battle_input)  # a malformed plan is refused (RulesetError), not fought
        result = resolve_battle(BattleInput.from_dict(battle_input), dice=dice)
        return outcome_of(result)

    def resolve_by(self, battle_input: Json,
                   resolver: Callable[[Any], Any]) -> Json:
        """An engine-level resolver gets the engine's `BattleInput` and returns its
        `BattleResult`, stored as it is."""
        result: BattleResult = resolver(BattleInput.from_dict(battle_input))
        return result.to_dict()

    def probes(self) -> tuple[str, ...]:
        """The case book's scripted battle, unit card and roll (`script.py`)."""
        return ("battle", "unit_card", "skill_score")

    def probe(self, rule: str, args: Json, dice: Dice | None) -> Json:
        """`battle`: a scripted or resolved fight with the case's dice (None: no die may
        be rolled); `unit_card`: the card the engine computes. The engine's own errors
        (a rule violation) are not wrapped."""
        if rule == "battle":
            return script.run_battle(args, dice)
        if rule == "unit_card":
            return script.unit_card(args)
        if rule == "skill_score":
            return {"score": BF.skill_score(int(args["skill"]), int(args["sum"]))}
        raise RulesetError(f"Unlimit3d 8 has no probe {rule!r}.")

    def actions(self) -> Layer:
        """The battle as refereed choices (`layer.py`, over the engine's `Fight`)."""
        return LAYER

    def odds(self, battle_input: Json, *, simulations: int, seed: int) -> Json:
        return estimate_odds(BattleInput.from_dict(battle_input), simulations, seed)

    def odds_input(self, question: OddsQuestion) -> Json:
        """The engine's input, sides "you" and "enemy" (`odds.py`, R-BJ-8)."""
        return odds.odds_input(question)

    def odds_estimate(self, request: Json, *, simulations: int, seed: int,
                      workers: int = 1) -> Json:
        return odds.estimate(request, simulations, seed, workers)

    def odds_chunks(self, request: Json, simulations: int) -> list[tuple[int, int]]:
        return odds.chunks(simulations)

    def odds_chunk(self, request: Json, seed: int, chunk: tuple[int, int]) -> Json:
        return odds.chunk(request, seed, chunk)

    def odds_merge(self, request: Json, simulations: int, seed: int,
                   counts: Iterable[Json]) -> Json:
        return odds.merge(request, simulations, seed, counts)

    def tabletop_result(self, battle_input: Json, report: Json, *, seed: int) -> Json:
        """The engine's own result document, read off the table (`tabletop.py`)."""
        return tabletop.tabletop_result(battle_input, report, seed=seed)

    def outcome_from_report(self, battle_input: Json, report: Json) -> Outcome:
        return outcome_of(BattleResult.from_dict(
            tabletop.tabletop_result(battle_input, report,
                                     seed=int(battle_input.get("seed", 0)))))

    def replay(self, battle_input: Json, outcome: Json,
               log: Sequence[Json]) -> list[Json] | None:
        """None: the page narrates the engine's log with the campaign's names."""
        return None

    def narrate(self, entry: Json, names: Mapping[str, Mapping[str, str]]) -> Json:
        """A log entry in words: whose unit acts, the dice folded apart (`narrate.py`)."""
        return narrate(entry, names)

    def board(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> Board:
        """The 32"x32" map, a frame per engine turn (two turns to a round)."""
        sides = {str(u["id"]): str(side)
                 for side, units in (battle_input.get("sides") or {}).items()
                 for u in units or () if isinstance(u, dict) and "id" in u}
        return replay.board(log, sides, int(outcome.get("rounds") or 0))

    def tabletop_schema(self) -> Json:
        return {
            "type": "object",
            "required": ["winner"],
            "properties": {
                "winner": {"type": ["integer", "null"],
                           "description": "The winning player's id, or null."},
                "units": {"type": "array", "items": {
                    "type": "object", "required": ["id", "fate"],
                    "properties": {
                        "id": {"type": "integer"},
                        "fate": {"enum": ["intact", "damaged", "destroyed", "retreated"]},
                        "repairable": {"type": "integer", "minimum": 0,
                                       "description": "hit points ticked / (repairable)"},
                        "unrepairable": {"type": "integer", "minimum": 0,
                                         "description": "hit points ticked X"}}}},
                "xp_events": {"type": "array", "items": {
                    "type": "object", "required": ["unit", "kind"],
                    "properties": {"unit": {"type": "integer"}, "kind": {"type": "string"}}}},
                "buildings_destroyed": {"type": "array", "items": {"type": "integer"}},
            },
        }

    def sample_battle(self, seed: int = 0) -> Json:
        """Two players, two piloted vehicles each (the benchmark's typical small fight)."""
        def unit(uid: int, side: str, vehicle: str, pilot: str, weapon: str) -> Json:
            return {"id": uid, "side": side, "name": f"{vehicle} {uid}", "vehicle": vehicle,
                    "pilot_class": pilot, "pilot_level": 2, "weapons": [{"key": weapon}]}

        return BattleInput.from_dict({
            "territory": 1, "defender": "2", "seed": seed,
            "sides": {"1": [unit(1, "1", "golem", "soldier", "cannon"),
                            unit(2, "1", "paladin", "bandit", "machine_gun")],
                      "2": [unit(3, "2", "golem", "soldier", "cannon"),
                            unit(4, "2", "lycaon", "worker", "machine_gun")]},
        }).to_dict()


def outcome_of(result: BattleResult) -> Outcome:
    """The engine's result in campaign terms (its own document kept as `result`)."""
    data = result.to_dict()
    fates = tuple(UnitFate(unit=int(u.id), player=int(u.side), fate=u.fate,
                           state={"damage_repairable": u.repairable,
                                  "damage_unrepairable": u.unrepairable},
                           detail={"hit_points_left": u.hit_points_left})
                  for u in result.units)
    xp = tuple(XpAward(unit=int(e.unit_id), kind=e.kind, amount=e.xp,
                       crew=int(e.pilot_id) if e.pilot_id is not None else None)
               for e in result.xp_events)
    effects = []
    if result.missiles_used:
        effects.append(Effect("missiles_spent", {"used": dict(result.missiles_used),
                                                 "strikes": list(result.missile_strikes)}))
    if result.cargo:
        effects.append(Effect("cargo", {"cargo": data.get("cargo", []),
                                        "taken": data.get("cargo_taken", {})}))
    if result.lab_piracies:
        effects.append(Effect("lab_piracy", {"piracies": list(result.lab_piracies)}))
    return Outcome(
        winner=int(result.winner) if result.winner is not None else None,
        units=fates, xp=xp,
        buildings_destroyed=tuple(int(b) for b in result.buildings_destroyed),
        building_hit_points={int(b.id): b.hit_points_left for b in result.buildings
                             if not b.destroyed},
        effects=tuple(effects), rounds=result.rounds, end_reason=result.end_reason,
        result=data, log=tuple(result.log))


def weapon_input_of(data: Json) -> WeaponInput:
    return WeaponInput(key=T.weapon(str(data["key"])).key,
                       templates=tuple(str(t).lower() for t in data.get("templates") or ()))


def unit_input_of(unit: FieldUnit, side: str) -> UnitInput:
    crew = unit.crew
    if crew is None:
        raise RulesetError(f"{unit.name or unit.id} has no pilot and cannot fight.")
    return UnitInput(
        id=unit.id, side=side, name=unit.name, vehicle=T.vehicle(unit.key).key,
        pilot_class=str(crew["class"]).lower(), pilot_level=int(crew["level"]),
        weapons=tuple(weapon_input_of(w) for w in unit.profile.get("weapons") or ()),
        hit_points_lost_repairable=int(unit.state.get("damage_repairable", 0)),
        hit_points_lost_unrepairable=int(unit.state.get("damage_unrepairable", 0)),
        is_character=True, pilot_id=crew["id"])


def building_input_of(data: Json) -> BuildingInput:
    weapon = data.get("weapon")
    return BuildingInput(id=data["id"], kind=data["kind"], x=int(data["x"]), y=int(data["y"]),
                         hit_points=int(data["hit_points"]), active=bool(data["active"]),
                         upgrades=tuple(data.get("upgrades") or ()),
                         weapon=weapon_input_of(weapon) if weapon else None)


def seeded_dice(battle_input: Json) -> Dice:
    """The dice a stored battle is fought with: its own seed, as the engine always did."""
    return Dice(random.Random(int(battle_input.get("seed", 0))))


RULESET = Unlimit3d8()
