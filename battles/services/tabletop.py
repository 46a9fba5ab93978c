"""Battles played on the table (campaign option `battle_mode` = "tabletop").

No job runs: a player who fought (or the umpire) enters the result; every other player
who fought confirms it, or the umpire decides (an umpire's entry or confirmation records
at once). The result goes through `recording.record_result`, the engine's own path
(R-BJ-9).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from jsonschema import Draft202012Validator

from battles.models import Battle
from battles.rulesets.base import RulesetError
from battles.rulesets.registry import find_ruleset
from battles.rulesets.unlimit3d8.engine.model import FATES
from battles.services.experience import SURVIVED, bonus_kinds
from battles.services.recording import record_result
from campaign.access import Membership
from campaign.errors import Conflict, Forbidden, InvalidInput, NotFound
from campaign.models import Event
from campaign.rules import tables as T
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict


def _battle_for_update(member: Membership, battle_id: int) -> Battle:
    battle = Battle.objects.select_for_update().filter(pk=battle_id,
                                                       campaign=member.campaign).first()
    if battle is None:
        raise NotFound("No such battle.")
    if battle.mode != Battle.Mode.TABLETOP:
        raise Conflict("This battle is resolved by the rules engine.", code="engine_battle")
    if battle.status == Battle.Status.FINISHED:
        raise Conflict("This battle is already recorded.", code="battle_finished")
    return battle


def _involved(battle: Battle) -> list[int]:
    return [int(s["player"]) for s in battle.sides]


def _check_actor(member: Membership, battle: Battle) -> None:
    if member.is_umpire and not member.umpire_plays:
        return
    if member.player is None or member.player.pk not in _involved(battle):
        raise Forbidden("Only the players who fought this battle, or the umpire, may enter "
                        "or confirm its result.", code="not_involved")


def clean_ruleset_report(battle: Battle, data: Any) -> dict[str, Any]:
    """A tabletop report of a ruleset other than Unlimit3d 8, checked against the JSON
    Schema the ruleset publishes (its own words: figures lost, vehicle damage, hits,
    void shields...) and then by the ruleset against the battle: the result document
    the campaign records."""
    ruleset = find_ruleset(battle.ruleset_name)
    validator = Draft202012Validator(ruleset.tabletop_schema())
    problems = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if problems:
        first = problems[0]
        where = "/".join(str(p) for p in first.absolute_path) or "the report"
        raise InvalidInput(f"{where}: {first.message}", code="invalid_report",
                           fields={where: [e.message for e in problems[:5]]})
    try:
        outcome = ruleset.outcome_from_report(battle.input, data)
    except RulesetError as exc:
        raise InvalidInput(str(exc), code="invalid_report") from exc
    document = ruleset.document(outcome)
    document["log"] = [{"event": "tabletop", "entered": data}]
    return document


def clean_result(battle: Battle, data: Any) -> dict[str, Any]:
    """Turn the entered result into the result document the battle's ruleset records
    (Unlimit3d 8: the engine's `BattleResult` dict). Units not listed keep their damage
    and count as intact; the survival XP is derived, not entered."""
    if not isinstance(data, dict):
        raise InvalidInput("Send the result as an object.")
    if battle.ruleset_name != "unlimit3d8":
        return clean_ruleset_report(battle, data)
    sides = {str(p) for p in _involved(battle)}
    winner = data.get("winner")
    if winner is not None and str(winner) not in sides:
        raise InvalidInput("The winner must be one of the players who fought, or null.",
                           code="invalid_winner", fields={"winner": ["Not a side."]})
    roster = {int(u["id"]): (side, u) for side, units in battle.input["sides"].items()
              for u in units}
    entered: dict[int, dict[str, Any]] = {}
    for item in data.get("units") or []:
        if not isinstance(item, dict) or item.get("id") not in roster:
            raise InvalidInput("Each unit is {\"id\", \"fate\", \"repairable\", "
                               "\"unrepairable\"} for a unit of this battle.",
                               code="invalid_units")
        if item.get("fate") not in FATES:
            raise InvalidInput(f"fate must be one of {', '.join(FATES)}.",
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
            raise InvalidInput("Damage is a whole number of hit points.",
                               code="invalid_units") from exc
        hit_points = T.VEHICLES[unit["vehicle"]].hit_points
        if repairable < 0 or unrepairable < 0 or repairable + unrepairable > hit_points:
            raise InvalidInput(f"Unit {uid}: damage must be 0 to {hit_points} hit points.",
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
        uid = item.get("unit") if isinstance(item, dict) else None
        if uid not in roster:
            raise InvalidInput("Each XP event is {\"unit\", \"kind\"} for a unit of this "
                               "battle.", code="invalid_xp")
        unit = roster[uid][1]
        kind = item.get("kind")
        if kind == SURVIVED:
            continue
        if kind not in bonus_kinds(unit["pilot_class"]):
            allowed = ", ".join(sorted(bonus_kinds(unit["pilot_class"])))
            raise InvalidInput(f"A {unit['pilot_class']} earns battle XP only for: "
                               f"{allowed}.", code="invalid_xp")
        events.append({"unit_id": uid, "pilot_id": unit.get("pilot_id"), "kind": kind,
                       "xp": T.BONUS_XP})
    buildings = data.get("buildings_destroyed") or []
    known = {int(b["id"]) for b in battle.input.get("buildings", [])}
    if not isinstance(buildings, list) or not all(b in known for b in buildings):
        raise InvalidInput("buildings_destroyed lists buildings of this battle.",
                           code="invalid_buildings")
    return {"winner": str(winner) if winner is not None else None, "units": units,
            "buildings_destroyed": list(buildings), "buildings": [],
            "xp_events": events, "log": [{"event": "tabletop", "entered": data}],
            "rounds": 0, "end_reason": "tabletop", "seed": battle.seed}


@retry_on_conflict
def submit_result(*, member: Membership, battle_id: int, data: Any) -> Battle:
    """Enter a tabletop result. A player's entry waits for the other sides; the umpire's
    is recorded at once."""
    with transaction.atomic():
        battle = _battle_for_update(member, battle_id)
        _check_actor(member, battle)
        result = clean_result(battle, data)
        umpire = member.is_umpire and not member.umpire_plays
        battle.proposed_result = result
        battle.proposed_by = None if umpire else member.player
        battle.confirmations = [] if umpire else [member.player.pk]
        battle.save(update_fields=["proposed_result", "proposed_by", "confirmations"])
        record_event(campaign=member.campaign, kind="tabletop_result_entered",
                     data={"battle": battle.pk, "by": "umpire" if umpire
                           else member.player.pk, "winner": result["winner"]})
    if umpire or _all_confirmed(battle):
        record_result(battle_id=battle.pk, result=result, source="tabletop")
    battle.refresh_from_db()
    return battle


def _all_confirmed(battle: Battle) -> bool:
    return set(_involved(battle)) <= set(battle.confirmations)


@retry_on_conflict
def confirm_result(*, member: Membership, battle_id: int) -> Battle:
    """A player who fought confirms the entered result; the umpire's confirmation decides."""
    with transaction.atomic():
        battle = _battle_for_update(member, battle_id)
        _check_actor(member, battle)
        if battle.proposed_result is None:
            raise Conflict("No result has been entered for this battle yet.",
                           code="no_result")
        umpire = member.is_umpire and not member.umpire_plays
        if not umpire and member.player.pk not in battle.confirmations:
            battle.confirmations = [*battle.confirmations, member.player.pk]
            battle.save(update_fields=["confirmations"])
        record_event(campaign=member.campaign, kind="tabletop_result_confirmed",
                     data={"battle": battle.pk,
                           "by": "umpire" if umpire else member.player.pk},
                     visibility=Event.Visibility.PUBLIC)
        result = battle.proposed_result
        ready = umpire or _all_confirmed(battle)
    if ready:
        record_result(battle_id=battle.pk, result=result, source="tabletop")
    battle.refresh_from_db()
    return battle


__all__ = ["clean_result", "confirm_result", "submit_result"]
