"""`probe` and `fight` steps: one rule, or a whole battle, of any ruleset, with the
case's dice.

A case names its ruleset at the top (`ruleset: onepage`, default `unlimit3d8`).
`probe: {rule, args}` calls the ruleset's `probe` (one rule in isolation: a to-hit roll,
a save, a damage table); `fight: {input, policy}` resolves a whole battle input. Both
roll the case's dice through the dice seam, so every face is scripted; `then: result:`
matches the answer. A `RulesetError` is the refusal `ruleset_error`.
"""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import Outcome
from battles.rulesets.registry import find_ruleset
from casebook.actions import StepError, _need, action
from casebook.given import Ctx


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """An outcome as a case reads it: fates keyed by unit id."""
    return {
        "winner": outcome.winner,
        "rounds": outcome.rounds,
        "end_reason": outcome.end_reason,
        "units": {str(f.unit): {"fate": f.fate, "player": f.player, "state": dict(f.state),
                                "captured_by": f.captured_by} for f in outcome.units},
        "xp": [{"unit": x.unit, "kind": x.kind, "amount": x.amount} for x in outcome.xp],
        "effects": [{"kind": e.kind, "data": e.data} for e in outcome.effects],
        "buildings_destroyed": list(outcome.buildings_destroyed),
        "result": outcome.result,
        "log": list(outcome.log),
    }


@action("probe")
def do_probe(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "rule")
    ruleset = find_ruleset(ctx.ruleset)
    rule = str(params["rule"])
    if rule not in ruleset.probes():
        raise StepError(f"ruleset {ruleset.name} has no probe {rule!r} "
                        f"(it has: {', '.join(ruleset.probes())})")
    return ruleset.probe(rule, dict(params.get("args") or {}), ctx.dice)


@action("fight")
def do_fight(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "input")
    ruleset = find_ruleset(ctx.ruleset)
    outcome = ruleset.resolve(dict(params["input"]), ctx.dice, params.get("policy"))
    return outcome_data(outcome)
