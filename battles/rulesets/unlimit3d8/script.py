"""Scripted Unlimit3d 8 battles for the case book (`Ruleset.probe("battle", spec, dice)`):
a fight in the real engine with the case's dice, and the unit card it computes
(`probe("unit_card", ...)`).

Two ways: `script` plays the listed turns one by one through the engine's own turn
(`play_turn`: CDT removal, turrets, the action, its CDT) with the scripted action as the
player's choice; `resolve: true` plays the whole battle with the default policy
(`resolve_battle`). The answer gives every unit and building as they stand and the
engine's log. Refusals are `RulesetError`s: code "illegal_action" (the engine refused a
scripted action), "step_error" (the step does not follow the format), "given_error" (a
weapon that is neither a name nor a mapping).
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Json, RulesetError
from battles.rulesets.unlimit3d8.engine import actions as A
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.card import build_card
from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BuildingInput,
    CargoInput,
    MissileInput,
    UnitInput,
    WeaponInput,
)
from battles.rulesets.unlimit3d8.engine.policy import BattleView, policies_by_side
from battles.rulesets.unlimit3d8.engine.resolve import build_state, resolve_battle
from battles.rulesets.unlimit3d8.engine.turn import play_turn
from campaign.rules import notation
from campaign.rules.dice import Dice, ForcedDice
from campaign.rules.notation import plain


def _step_error(message: str) -> RulesetError:
    return RulesetError(message, code="step_error")


def _illegal(message: str) -> RulesetError:
    return RulesetError(message, code="illegal_action")


def weapon_spec(raw: Any) -> tuple[str, list[str]]:
    """A weapon as a case writes it (`campaign.rules.notation.weapon_spec`)."""
    try:
        return notation.weapon_spec(raw)
    except ValueError as exc:
        raise RulesetError(str(exc), code="given_error") from None


UNIT_KEYS = frozenset({"id", "vehicle", "pilot", "level", "weapons", "shield", "damage", "at",
                       "is_character", "name", "pilot_id"})


def _weapons(raw: list[Any]) -> tuple[Any, ...]:

    out = []
    for item in raw or []:
        key, templates = weapon_spec(item)
        out.append(WeaponInput(key, tuple(templates)))
    return tuple(out)


def battle_input(spec: dict[str, Any], seed: int = 0) -> Any:

    sides: dict[str, tuple[Any, ...]] = {}
    for side, roster in (spec.get("sides") or {}).items():
        units = []
        for u in roster:
            unknown = set(u) - UNIT_KEYS
            if unknown:
                raise _step_error(f"unknown unit key(s) {sorted(unknown)} in battle")
            damage = u.get("damage") or {}
            at = u.get("at")
            units.append(UnitInput(
                id=str(u["id"]), side=str(side), name=str(u.get("name", u["id"])),
                vehicle=u.get("vehicle", "golem"), pilot_class=u.get("pilot", "soldier"),
                pilot_level=int(u.get("level", 1)), weapons=_weapons(u.get("weapons") or []),
                shield=u.get("shield"),
                hit_points_lost_repairable=int(damage.get("repairable", 0)),
                hit_points_lost_unrepairable=int(damage.get("unrepairable", 0)),
                is_character=bool(u.get("is_character", True)),
                pilot_id=u.get("pilot_id", str(u["id"])),
                position=(float(at[0]), float(at[1])) if at is not None else None))
        sides[str(side)] = tuple(units)
    buildings = []
    for b in spec.get("buildings") or []:
        weapon = None
        if b.get("weapon"):
            key, templates = weapon_spec(b["weapon"])
            weapon = WeaponInput(key, tuple(templates))
        buildings.append(BuildingInput(
            id=str(b["id"]), kind=b["kind"], x=int(b.get("x", 7)), y=int(b.get("y", 7)),
            hit_points=b.get("hit_points"), active=bool(b.get("active", True)),
            upgrades=tuple(b.get("upgrades") or ()), weapon=weapon,
            technology_cost=b.get("technology_cost")))
    defender = str(spec.get("defender") or next(iter(sides)))
    missiles = {str(side): tuple(MissileInput(silo_distance=int(m.get("silo_distance", 0)),
                                              silo=m.get("silo")) for m in listed or ())
                for side, listed in (spec.get("missiles") or {}).items()}
    cargo = tuple(CargoInput(id=str(c["id"]), x=int(c.get("x", 7)), y=int(c.get("y", 7)),
                             resource=str(c.get("resource", "")), units=int(c.get("units", 0)))
                  for c in spec.get("cargo") or ())
    return BattleInput(territory=spec.get("territory", "T"), defender=defender, sides=sides,
                       buildings=tuple(buildings), seed=seed,
                       options=dict(spec.get("options") or {}), missiles=missiles,
                       cargo=cargo)


def _point(value: Any) -> tuple[float, float]:
    return (float(value[0]), float(value[1]))


def make_action(step: dict[str, Any]) -> Any:
    """The engine action object a script step describes."""

    do = step.get("do", "pass")
    unit = str(step.get("unit", ""))
    kind = step.get("target_kind", "unit")
    target = str(step.get("target", ""))
    if do == "pass":
        return A.Pass(unit=unit)
    if do == "move":
        return A.Move(unit=unit, to=_point(step["to"]))
    if do == "ranged":
        return A.RangedAttack(unit=unit, weapon=step["weapon"], target=target, target_kind=kind)
    if do == "assault":
        return A.Assault(unit=unit, to=_point(step["to"]), weapon=step["weapon"],
                         target=target, target_kind=kind)
    if do == "close_combat":
        return A.CloseCombat(unit=unit, weapon=step["weapon"], target=target, target_kind=kind)
    if do == "tackle":
        return A.Tackle(unit=unit, target=target, aggressive=bool(step.get("aggressive", True)))
    if do == "ram":
        return A.Ram(unit=unit, target=target)
    if do == "order":
        orders = tuple(make_action(o) for o in step.get("orders") or ())
        return A.Order(unit=unit, kind=step.get("kind", "technical"),
                       targets=tuple(str(t) for t in step.get("targets") or ()),
                       tokens=int(step.get("tokens", 0)), orders=orders,
                       move_to=_point(step["move_to"]) if step.get("move_to") else None)
    if do == "repair":
        return A.Repair(unit=unit, target=target, hit_points=int(step["hit_points"]))
    if do == "warp":
        return A.Warp(unit=unit, to=_point(step["to"]))
    if do == "piracy":
        return A.Piracy(unit=unit, target=target, target_kind=kind)
    if do == "retreat":
        return A.Retreat(unit=unit)
    if do == "designate":
        return A.Designate(unit=unit, target=target, target_kind=kind)
    if do == "lift":
        return A.Lift(unit=unit, cargo=str(step["cargo"]))
    if do == "enter_bunker":
        return A.EnterBunker(unit=unit, bunker=str(step["bunker"]))
    raise _step_error(f"unknown battle action {do!r}")


class ScriptPolicy:
    """Plays exactly the scripted action; turrets fire at the scripted target or hold."""

    def __init__(self, action: Any, turret_targets: dict[str, str]) -> None:
        self.action = action
        self.turret_targets = turret_targets

    def begin_choice(self, view: Any, side: str) -> None:
        return None

    def choose(self, view: Any, side: str) -> Any:
        return self.action

    def turret_target(self, view: Any, turret: Any) -> Any:
        target = self.turret_targets.get(str(turret.id))
        return view.state.units.get(target) if target else None


def _apply_overrides(state: Any, overrides: dict[str, Any]) -> None:
    for ident, attrs in (overrides or {}).items():
        obj = state.units.get(str(ident)) or state.buildings.get(str(ident))
        if obj is None:
            raise _step_error(f"'set' names {ident!r}, which is not in the battle")
        for key, value in attrs.items():
            if key == "pos":
                value = _point(value)
            if not hasattr(obj, key):
                raise _step_error(f"'set': {ident!r} has no attribute {key!r}")
            setattr(obj, key, value)


def state_view(state: Any) -> dict[str, Any]:
    """The battle as it stands, as plain data for `then: battle:`."""
    units = {}
    for u in state.units.values():
        units[str(u.id)] = {
            "hp_left": u.hp_left, "lost": u.lost, "repairable": u.repairable,
            "unrepairable": u.unrepairable, "cdt": u.cdt, "destroyed": u.destroyed,
            "retreated": u.retreated, "shield_hp": u.shield_hp,
            "immobilized_by": u.immobilized_by, "combustion": u.combustion,
            "corroded": u.corroded, "haywire": u.haywire, "pos": [round(c, 3) for c in u.pos],
            "armor": u.armor, "base_defense": u.card.base_defense,
            "close_defense": u.close_defense, "skills": dict(u.card.skills),
            "in_bunker": u.in_bunker, "carrying": u.carrying,
            "side": u.side, "fate": ("destroyed" if u.destroyed else "retreated"
                                     if u.retreated else "damaged" if u.lost else "intact")}
    buildings = {}
    for b in state.buildings.values():
        buildings[str(b.id)] = {"hp_left": b.hp_left, "lost": b.lost, "destroyed": b.destroyed,
                                "active": b.active, "controller": b.controller,
                                "ablative_hp": b.ablative_hp, "cdt": b.cdt}
    cargo = {str(c.id): {"pos": [round(v, 3) for v in c.pos], "carrier": c.carrier,
                         "lifter": c.lifter, "lost": c.lost, "owner": c.owner}
             for c in state.cargo.values()}
    return {"units": units, "buildings": buildings, "log": plain(list(state.log)),
            "xp": {str(k): sorted(v) for k, v in state.credits.items()}, "cargo": cargo,
            "pending_missiles": len(state.pending_missiles),
            "missiles_used": dict(state.missiles_used),
            "missile_strikes": plain(list(state.missile_strikes)),
            "lab_piracies": plain(list(state.lab_piracies))}


def run_battle(spec: dict[str, Any], dice: Dice | None) -> dict[str, Any]:
    """The battle `spec` describes, scripted turn by turn or resolved whole, with `dice`
    (None: no die may be rolled)."""
    dice = dice if dice is not None else ForcedDice([])
    battle = battle_input(spec, seed=int(spec.get("seed", 0)))
    if spec.get("resolve"):
        try:
            factory = policies_by_side(dict(spec.get("policies") or {}))
        except ValueError as exc:
            raise _illegal(str(exc)) from exc
        result = resolve_battle(battle, dice=dice, policy_factory=factory)
        data: dict[str, Any] = plain(result.to_dict())
        data["units"] = {str(u["id"]): u for u in data["units"]}
        data["buildings"] = {str(b["id"]): b for b in data["buildings"]}
        return data
    try:
        state = build_state(battle, dice)
    except ValueError as exc:
        raise _illegal(f"deployment refused: {exc}") from exc
    _apply_overrides(state, spec.get("set") or {})
    view = BattleView(state)
    for step in spec.get("script") or []:
        side = str(step.get("side") or state.units[str(step["unit"])].side)
        action = make_action(step)
        turrets = {str(k): str(v) for k, v in (step.get("turrets") or {}).items()}
        state.round += 1
        try:
            play_turn(state, side, ScriptPolicy(action, turrets), view)
        except IllegalActionError as exc:
            raise _illegal(str(exc)) from exc
        _apply_overrides(state, step.get("then_set") or {})
    return state_view(state)


def unit_card(p: Json) -> Json:
    """The unit card the battle engine computes for a vehicle, pilot and weapons
    (`bandit_level8_row`: the campaign's ruling on the bandit's level-8 row)."""
    weapons = []
    for raw in p.get("weapons") or []:
        key, templates = weapon_spec(raw)
        weapons.append(WeaponInput(key, tuple(templates)))
    unit = UnitInput(id="u", side="s", name="u", vehicle=p["vehicle"],
                     pilot_class=p.get("pilot", "soldier"), pilot_level=int(p.get("level", 1)),
                     weapons=tuple(weapons), shield=p.get("shield"))
    card = build_card(unit, bandit_level8_row=p["bandit_level8_row"])
    return {"size": card.size, "weight": card.weight, "armor": card.armor,
            "hit_points": card.hit_points, "base_defense": card.base_defense,
            "move_increment": card.move_increment, "max_move": card.max_move,
            "max_move_inches": card.max_move_inches, "skills": dict(card.skills),
            "columns": {s: list(card.column(s)) for s in card.skills},
            "weapons": {w.key: {"base_damage": w.base_damage, "cooldown": w.cooldown,
                                "range_increment": w.range_increment, "misfire": w.misfire,
                                "size": w.size, "builtin": w.builtin}
                        for w in card.weapons},
            "shield": plain(card.shield)}
