"""Recompute every battle of a finished tactical phase from its revealed seed (issue
18): the seed each battle was opened with, and, for battles the engine fought, the whole
battle replayed by its ruleset with that seed (the winner and every logged roll), and
the phase's two lots (issue 30): who defends where no one stayed (R-BJ-2) and who picks
the first battle (R-BJ-4), drawn from the same seed and journaled with their draw."""

from __future__ import annotations

import random
from typing import Any

from battles.models import Battle
from battles.rulesets.registry import find_ruleset
from battles.services.opening import defender_lot, order_lot
from campaign.dice import derived_seed
from campaign.models import Campaign, Event
from campaign.rules.dice import Dice
from campaign.services.commitments import Check


def verify_battles(campaign: Campaign, turn: int, phase: str, secret: str) -> Check:
    check = Check()
    if phase != "tactical":
        return check
    _verify_lots(campaign, turn, secret, check)
    for battle in (Battle.objects.filter(campaign=campaign, turn=turn)
                   .select_related("territory").order_by("order")):
        expected = derived_seed(secret, "battle", turn, battle.territory.name)
        where = battle.territory.name
        if battle.seed != expected or int((battle.input or {}).get("seed", -1)) != expected:
            check.mismatches.append({"battle": battle.pk, "territory": where,
                                     "detail": "its seed is not the phase's"})
            continue
        if battle.mode != Battle.Mode.ENGINE or battle.status != Battle.Status.FINISHED:
            continue
        dice = Dice(random.Random(expected))
        ruleset = find_ruleset(battle.ruleset_name)
        outcome = ruleset.resolve(battle.input, dice)
        check.rolls += dice.count
        document = ruleset.document(outcome)
        if outcome.winner != battle.winner_id or list(document.get("log") or outcome.log) \
                != list(battle.log or []):
            check.mismatches.append({"battle": battle.pk, "territory": where,
                                     "detail": "replaying it with the revealed seed gives "
                                               "another battle"})
    return check


def _verify_lots(campaign: Any, turn: int, secret: str, check: Check) -> None:
    """The lots of the tactical phase, from the journal entries that drew them."""
    defenders = dict(Battle.objects.filter(campaign=campaign, turn=turn)
                     .values_list("territory_id", "defender_id"))
    for kind, data in (Event.objects.filter(campaign=campaign, turn=turn,
                                            kind__in=("battle_order", "battle_opened"))
                       .order_by("id").values_list("kind", "data")):
        if kind == "battle_order":
            lot = data.get("lot") or {}
            players = list(lot.get("players") or [])
            check.rolls += 1
            if not players or order_lot(secret, turn, len(players)) != lot.get("drawn") \
                    or players[lot["drawn"]] != data.get("first_picker"):
                check.mismatches.append({"lot": "order of battles", "detail":
                                         "the first picker is not the one the phase's "
                                         "seed draws"})
        elif data.get("defender_reason") == "lot":
            lot = data.get("lot") or {}
            candidates = list(lot.get("candidates") or [])
            where = data.get("name", "")
            check.rolls += 1
            if not candidates or defender_lot(secret, turn, int(data["territory"]),
                                              len(candidates)) != lot.get("drawn") \
                    or candidates[lot["drawn"]] != data.get("defender") \
                    or defenders.get(data["territory"]) != data.get("defender"):
                check.mismatches.append({"lot": "defender", "territory": where,
                                         "detail": "the defender is not the one the "
                                                   "phase's seed draws"})
