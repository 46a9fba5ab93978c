"""Recompute every battle of a finished tactical phase from its revealed seed (issue
18): the seed each battle was opened with, and, for battles the engine fought, the whole
battle replayed by its ruleset with that seed (the winner and every logged roll)."""

from __future__ import annotations

import random
from typing import Any

from battles.models import Battle
from battles.rulesets.registry import find_ruleset
from campaign.dice import derived_seed
from campaign.rules.dice import Dice
from campaign.services.commitments import Check


def verify_battles(campaign: Any, turn: int, phase: str, secret: str) -> Check:
    check = Check()
    if phase != "tactical":
        return check
    for battle in (Battle.objects.filter(campaign=campaign, turn=turn)
                   .select_related("territory").order_by("order")):
        expected = derived_seed(secret, "battle", turn, battle.territory.name)
        where = battle.territory.name
        if battle.seed != expected or int((battle.input or {}).get("seed", -1)) != expected:
            check.mismatches.append({"battle": battle.pk, "territory": where,
                                     "detail": "its seed is not the phase's"})
            continue
        if battle.mode != "engine" or battle.status != Battle.Status.FINISHED:
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
