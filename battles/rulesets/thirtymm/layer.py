"""`Ruleset.actions()` for 30 Minute Missions: the referee (`actions`) and the default
policy (`policy`) behind the seam's `ActionLayer`, and a whole battle played through
them (`play`), as `resolve` and the odds fight it."""

from __future__ import annotations

from typing import Any

from battles.rulesets.base import RulesetError
from battles.rulesets.thirtymm import actions as A
from battles.rulesets.thirtymm import engine as E
from battles.rulesets.thirtymm import policy as P
from campaign.rules.dice import Dice

Json = dict[str, Any]
POLICIES = (None, "default")


class ThirtyMinuteMissionsActions:
    """The battle as refereed choices (base.ActionLayer); the state is an `A.Play`."""

    def start(self, battle_input: Json, dice: Dice, setup: Json | None = None) -> A.Play:
        if "board" not in battle_input:
            from battles.rulesets.thirtymm.ruleset import duel_input  # noqa: PLC0415 (cycle: battles.rulesets.thirtymm.layer -> battles.rulesets.thirtymm.ruleset -> battles.rulesets.thirtymm.layer)
            battle_input = duel_input(**battle_input)
        return A.start(battle_input, dice, setup)

    def actor(self, state: A.Play) -> int | None:
        return A.actor(state)

    def legal(self, state: A.Play) -> list[Json]:
        return A.legal(state)

    def apply(self, state: A.Play, action: Json) -> None:
        A.apply(state, action)

    def choose(self, state: A.Play, policy: str | None = None) -> Json:
        if policy not in POLICIES:
            raise RulesetError(f"30 Minute Missions has no policy {policy!r}.")
        return P.choose(state)

    def view(self, state: A.Play) -> Json:
        return A.view(state)


LAYER = ThirtyMinuteMissionsActions()


def play(battle_input: Json, dice: Dice, *, keep_log: bool = True,
         cache: dict[str, Any] | None = None) -> E.Battle:
    """One battle, the default policy choosing every action through the referee.
    `cache`: kept between plays of the same battle input (the odds' simulations) so the
    board's movement costs are worked out once."""
    state = A.start(battle_input, dice, keep_log=keep_log, cache=cache)
    while not state.over:
        A.perform(state, P.choose(state))
    return state.b
