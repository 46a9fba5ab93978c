"""Battles played on the table (campaign option `battle_mode` = "tabletop").

No job runs: a player who fought (or the umpire) enters the result; every other player
who fought confirms it, or the umpire decides (an umpire's entry or confirmation records
at once). The result goes through `recording.record_result`, the engine's own path
(R-BJ-9).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from battles.models import Battle
from battles.rulesets.base import RulesetError
from battles.rulesets.registry import find_ruleset
from battles.services.recording import record_result
from campaign.access import Membership
from campaign.errors import Conflict, Forbidden, InvalidInput, NotFound
from campaign.models import Event
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


def clean_result(battle: Battle, data: Any) -> dict[str, Any]:
    """Turn the entered result into the result document the battle's ruleset records
    (Unlimit3d 8: the engine's `BattleResult` dict; the others: their report, checked
    against the JSON Schema they publish and then against the battle). The ruleset's
    refusal is a 400 with its sentence and code."""
    if not isinstance(data, dict):
        raise InvalidInput("Send the result as an object.")
    ruleset = find_ruleset(battle.ruleset_name)
    try:
        return ruleset.tabletop_result(battle.input, data, seed=battle.seed)
    except RulesetError as exc:
        raise InvalidInput(str(exc), code=exc.code or "invalid_report",
                           fields=exc.fields) from exc


@retry_on_conflict
def submit_result(*, member: Membership, battle_id: int, data: Any) -> Battle:
    """Enter a tabletop result. A player's entry waits for the other sides; the umpire's
    is recorded at once."""
    with transaction.atomic():
        battle = _battle_for_update(member, battle_id)
        _check_actor(member, battle)
        result = clean_result(battle, data)
        umpire = member.is_umpire and not member.umpire_plays
        player_pk = None if member.player is None else member.player.pk
        battle.proposed_result = result
        battle.proposed_by = None if umpire else member.player
        battle.confirmations = [] if umpire else [player_pk]
        battle.save(update_fields=["proposed_result", "proposed_by", "confirmations"])
        record_event(campaign=member.campaign, kind="tabletop_result_entered",
                     data={"battle": battle.pk, "by": "umpire" if umpire
                           else player_pk, "winner": result["winner"]})
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
        player_pk = None if member.player is None else member.player.pk
        if not umpire and player_pk not in battle.confirmations:
            battle.confirmations = [*battle.confirmations, player_pk]
            battle.save(update_fields=["confirmations"])
        record_event(campaign=member.campaign, kind="tabletop_result_confirmed",
                     data={"battle": battle.pk,
                           "by": "umpire" if umpire else player_pk},
                     visibility=Event.Visibility.PUBLIC)
        result = battle.proposed_result
        ready = umpire or _all_confirmed(battle)
    if ready:
        record_result(battle_id=battle.pk, result=result, source="tabletop")
    battle.refresh_from_db()
    return battle


__all__ = ["clean_result", "confirm_result", "submit_result"]
