"""`probe`, `fight`, `setup`, `act` and `legal` steps: one rule, a whole battle, or a
battle played choice by choice through the ruleset's action layer, with the case's dice.

A case names its ruleset at the top (`ruleset: onepage`, default `unlimit3d8`).
`probe: {rule, args}` calls the ruleset's `probe` (one rule in isolation: a to-hit roll,
a save, a damage table); `fight: {input, policy}` resolves a whole battle input. Both
roll the case's dice through the dice seam, so every face is scripted; `then: result:`
matches the answer. A `RulesetError` is the refusal `ruleset_error`.

`setup: {input, set}` deploys a battle through `Ruleset.actions()` (`set` adjusts the
deployed state in the ruleset's own keys); `act: {side, do, ...}` plays one action on it
(an `ActionRefused` is the refusal with the ruleset's own code, and the step checks that
the refusal left the state as it was); `legal: {}` answers the actions the side to act
may take now; `finish: {policy}` lets a policy play the battle out. Each answers the
state's view (`legal`: the list of actions), which `then: result:` matches.
"""

from __future__ import annotations

import copy
from typing import Any

from battles.rulesets.base import ActionLayer, ActionRefused, Outcome
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


def _layer(ctx: Ctx) -> tuple[ActionLayer, Any]:
    held = ctx.results.get("__play__")
    if held is None:
        raise StepError("no battle is set up: start with a `setup: {input: ...}` step")
    layer, state = held
    return layer, state


@action("setup")
def do_setup(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "input")
    layer = find_ruleset(ctx.ruleset).actions()
    state = layer.start(dict(params["input"]), ctx.dice, dict(params.get("set") or {}))
    ctx.results["__play__"] = (layer, state)
    return layer.view(state)


@action("act")
def do_act(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "do")
    layer, state = _layer(ctx)
    before = copy.deepcopy(layer.view(state))
    try:
        layer.apply(state, dict(params))
    except ActionRefused:
        after = layer.view(state)
        if after != before:
            raise StepError("the ruleset refused the action but changed the battle state "
                            "(a refusal must change nothing)") from None
        raise
    return layer.view(state)


@action("legal")
def do_legal(ctx: Ctx, params: dict[str, Any]) -> Any:
    layer, state = _layer(ctx)
    return layer.legal(state)


@action("finish")
def do_finish(ctx: Ctx, params: dict[str, Any]) -> Any:
    """A policy (`policy:`, default the ruleset's default) plays on through the layer
    until the battle is over (at most `steps` choices, default 10,000)."""
    layer, state = _layer(ctx)
    for _ in range(int(params.get("steps", 10_000))):
        if layer.actor(state) is None:
            break
        layer.apply(state, layer.choose(state, params.get("policy")))
    return layer.view(state)
