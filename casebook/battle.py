"""`battle` steps: a fight in the real engine of the default ruleset (Unlimit3d 8), with
the case's dice, asked through the ruleset seam (`probe("battle", spec, dice)`; the
engine-facing code is the ruleset's, `battles/rulesets/unlimit3d8/script.py`).

Two ways: `script` plays the listed turns one by one through the engine's own turn with
the scripted action as the player's choice; `resolve: true` plays the whole battle with
the default policy. Forced dice come from the case's `dice` (one stream for the case).
The answer (`then: battle:` checks it) gives every unit and building as they stand and
the engine's log.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import RulesetError
from battles.rulesets.registry import DEFAULT, find_ruleset
from campaign.rules.dice import ForcedDice
from casebook.actions import StepError
from casebook.given import Ctx, GivenError


class IllegalAction(Exception):
    """The engine refused a scripted action (code `illegal_action`)."""

    code = "illegal_action"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def probe_default(rule: str, params: dict[str, Any], ctx: Ctx) -> Any:
    """One probe of the default ruleset with the case's dice (none given: no die may be
    rolled); its refusals as the case book's own."""
    dice = ctx.dice if ctx.dice is not None else ForcedDice([])
    try:
        return find_ruleset(DEFAULT).probe(rule, params, dice)
    except RulesetError as exc:
        if exc.code == "illegal_action":
            raise IllegalAction(str(exc)) from exc
        if exc.code == "step_error":
            raise StepError(str(exc)) from exc
        if exc.code == "given_error":
            raise GivenError(str(exc)) from exc
        raise


def run_battle(ctx: Ctx, spec: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = probe_default("battle", spec, ctx)
    return result
