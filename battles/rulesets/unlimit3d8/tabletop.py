"""An Unlimit3d 8 battle played on the table: the report a person enters (winner, each
unit's fate and hit points ticked, the bonus XP events, the buildings destroyed) read into
the engine's own result document, as if the engine had fought it (R-BJ-9).

Units not listed keep their damage and count as intact; the survival XP is derived, not
entered. Every refusal is a `RulesetError` with the code the campaign's 400 carries.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Json, RulesetError
from battles.rulesets.unlimit3d8.engine.model import FATES
from campaign.rules import tables as T

#: The XP kind every surviving pilot earns; derived by the campaign, never entered.
SURVIVED = "survived"


def tabletop_result(battle_input: Json, data: Json, *, seed: int) -> Json:
    """The engine's `BattleResult` document a tabletop report stands for."""
    sides = {str(s) for s in battle_input.get("sides") or {}}
    winner = data.get("winner")
    if winner is not None and str(winner) not in sides:
        raise RulesetError("The winner must be one of the players who fought, or null.",
                           code="invalid_winner", fields={"winner": ["Not a side."]})
    roster = {int(u["id"]): (side, u) for side, units in battle_input["sides"].items()
              for u in units}
    entered: dict[int, dict[str, Any]] = {}
    for item in data.get("units") or []:
        if not isinstance(item, dict) or item.get("id") not in roster:
            raise RulesetError("Each unit is {\"id\", \"fate\", \"repairable\", "
                               "\"unrepairable\"} for a unit of this battle.",
                               code="invalid_units")
        if item.get("fate") not in FATES:
            raise RulesetError(f"fate must be one of {', '.join(FATES)}.",
                               code="invalid_units")
        entered[int(item["id"])] = item
    units = []
    for uid, (side, unit) in roster.items():
        item = entered.get(uid, {})
        try:
            repairable = int(item.get("repairable", unit["hit_points_lost_repairable"]))
            unrepairable = int(item.get("unrepairable",
                                        unit["hit_points_lost_unrepairable"]))
        except (TypeError, ValueError) as exc:
            raise RulesetError("Damage is a whole number of hit points.",
                               code="invalid_units") from exc
        hit_points = T.VEHICLES[unit["vehicle"]].hit_points
        if repairable < 0 or unrepairable < 0 or repairable + unrepairable > hit_points:
            raise RulesetError(f"Unit {uid}: damage must be 0 to {hit_points} hit points.",
                               code="invalid_units")
        fate = item.get("fate", "intact")
        if repairable + unrepairable >= hit_points:
            fate = "destroyed"
        units.append({"id": uid, "side": side, "fate": fate,
                      "hit_points_left": hit_points - repairable - unrepairable,
                      "repairable": repairable, "unrepairable": unrepairable,
                      "xp_events": []})
    events = []
    for item in data.get("xp_events") or []:
        who = item.get("unit") if isinstance(item, dict) else None
        if who not in roster:
            raise RulesetError("Each XP event is {\"unit\", \"kind\"} for a unit of this "
                               "battle.", code="invalid_xp")
        unit = roster[who][1]
        kind = item.get("kind")
        if kind == SURVIVED:
            continue
        if kind not in T.bonus_kinds(unit["pilot_class"]):
            allowed = ", ".join(sorted(T.bonus_kinds(unit["pilot_class"])))
            raise RulesetError(f"A {unit['pilot_class']} earns battle XP only for: "
                               f"{allowed}.", code="invalid_xp")
        events.append({"unit_id": who, "pilot_id": unit.get("pilot_id"), "kind": kind,
                       "xp": T.BONUS_XP})
    buildings = data.get("buildings_destroyed") or []
    known = {int(b["id"]) for b in battle_input.get("buildings", [])}
    if not isinstance(buildings, list) or not all(b in known for b in buildings):
        raise RulesetError("buildings_destroyed lists buildings of this battle.",
                           code="invalid_buildings")
    return {"winner": str(winner) if winner is not None else None, "units": units,
            "buildings_destroyed": list(buildings), "buildings": [],
            "xp_events": events, "log": [{"event": "tabletop", "entered": data}],
            "rounds": 0, "end_reason": "tabletop", "seed": seed}
