"""Unlimit3d 8's battle as refereed choices (the seam's `ActionLayer`).

The engine already referees every action (`engine/actions`: an illegal one raises
`IllegalActionError`) and `engine.resolve.Fight` plays a battle choice by choice; this
module gives that the seam's shape: JSON actions in (`{"side", "do", "unit", ...}`, the
verbs of docs/CASEBOOK_FORMAT.md's `battle` step), `ActionRefused` out, the state as it
was after a refusal.
"""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, fields
from typing import Any

from battles.rulesets.base import ActionRefused, Json
from battles.rulesets.unlimit3d8.engine import actions as A
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.rulesets.unlimit3d8.engine.policy import POLICIES
from battles.rulesets.unlimit3d8.engine.resolve import Fight
from battles.rulesets.unlimit3d8.engine.state import BattleState
from campaign.rules.dice import Dice

#: The `do` verb of each action (one table, read both ways).
VERBS: dict[str, type[A.Action]] = {
    "pass": A.Pass, "move": A.Move, "ranged": A.RangedAttack, "assault": A.Assault,
    "close_combat": A.CloseCombat, "tackle": A.Tackle, "ram": A.Ram, "order": A.Order,
    "repair": A.Repair, "warp": A.Warp, "piracy": A.Piracy, "retreat": A.Retreat,
    "designate": A.Designate, "lift": A.Lift, "enter_bunker": A.EnterBunker,
}
_VERB_OF = {cls: verb for verb, cls in VERBS.items()}
_POINTS = frozenset({"to", "move_to"})
#: Seed, "Tactical Turn": "They then choose an unit on which card there is no CDT, and an
#: action to perform."
TURN_RULE = "They then choose an unit on which card there is no CDT, and an action to perform"


def action_from_json(data: Json) -> A.Action:
    """The engine action a JSON action names (ActionRefused `malformed_action`)."""
    verb = str(data.get("do", "pass"))
    cls = VERBS.get(verb)
    if cls is None:
        raise ActionRefused("unknown_action", f"There is no action {verb!r} in Unlimit3d 8; "
                            f"the actions are {', '.join(VERBS)}.")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.name == "unit":
                values["unit"] = ""
                continue
            if f.default is MISSING and f.default_factory is MISSING:
                raise ActionRefused("malformed_action",
                                    f"The action {verb!r} needs {f.name!r}.")
            continue
        value = data[f.name]
        if f.name in _POINTS and value is not None:
            value = (float(value[0]), float(value[1]))
        elif f.name == "orders":
            value = tuple(action_from_json(o) for o in value or ())
        elif f.name == "targets":
            value = tuple(value or ())
        values[f.name] = value
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise ActionRefused("malformed_action", f"The action {verb!r} is malformed: {exc}.")\
            from None


def action_to_json(action: A.Action, side: str) -> Json:
    data = action.describe()
    data.pop("action", None)
    if isinstance(action, A.Order):
        data["orders"] = [action_to_json(o, side) for o in action.orders]
    return {"side": side, "do": _VERB_OF[type(action)], **data}


@dataclass
class Play:
    """One battle in play: the engine's `Fight` (state, policies, whose choice)."""

    fight: Fight

    @property
    def state(self) -> BattleState:
        return self.fight.state


class Layer:
    """`ActionLayer` over the engine's `Fight`."""

    def start(self, battle_input: Json, dice: Dice, setup: Json | None = None) -> Play:
        def adjust(state: BattleState) -> None:
            for ident, attrs in (setup or {}).items():
                obj = next((table[key] for table in (state.units, state.buildings)
                            for key in (ident, str(ident)) if key in table), None)
                if obj is None:
                    raise ActionRefused("unknown_unit", f"{ident!r} is not in the battle.")
                for key, value in dict(attrs).items():
                    if not hasattr(obj, key):
                        raise ActionRefused("malformed_setup", f"{ident!r} has no {key!r}.")
                    setattr(obj, key, (float(value[0]), float(value[1]))
                            if key == "pos" else value)

        return Play(Fight(BattleInput.from_dict(battle_input), dice=dice, setup=adjust))

    def actor(self, play: Play) -> str | None:
        return play.fight.side

    def legal(self, play: Play) -> list[Json]:
        """The default policy's choice and passing. The engine's actions take points
        anywhere within reach, so they are not listed one by one: `apply` referees any."""
        side = play.fight.side
        if side is None:
            return []
        chosen = self.choose(play)
        return [chosen] if chosen["do"] == "pass" else [chosen, {"side": side, "do": "pass"}]

    def apply(self, play: Play, action: Json) -> None:
        fight = play.fight
        side = fight.side
        if side is None:
            raise ActionRefused("battle_over", "The battle is over: nobody acts any more.")
        if str(action.get("side")) != side:
            raise ActionRefused("not_your_turn", f"It is side {side}'s turn, not side "
                                f"{action.get('side')}'s.", TURN_RULE)
        engine_action = action_from_json(action)
        kept = copy.deepcopy(fight.state, {id(fight.state.dice): fight.state.dice})
        try:
            fight.act(engine_action)
        except IllegalActionError as exc:
            for f in fields(kept):  # compiled, the state has no __dict__ to update
                setattr(fight.state, f.name, getattr(kept, f.name))
            fight.side = side
            raise ActionRefused("illegal_action", str(exc), TURN_RULE) from None

    def choose(self, play: Play, policy: str | None = None) -> Json:
        side = play.fight.side
        if side is None:
            raise ActionRefused("battle_over", "The battle is over: nobody acts any more.")
        if policy not in (None, "default") and policy not in POLICIES:
            raise ActionRefused("unknown_policy", f"Unlimit3d 8 has no policy {policy!r}; "
                                f"the policies are {', '.join(POLICIES)}.")
        chooser = (play.fight.policies[side] if policy in (None, "default")
                   else POLICIES[str(policy)](side, play.state.options))
        return action_to_json(chooser.choose(play.fight.view, side), side)

    def view(self, play: Play) -> Json:
        state = play.state
        return {
            "round": state.round, "turn": state.turn, "actor": play.fight.side,
            "units": {str(u.id): {"side": u.side, "pos": [round(c, 3) for c in u.pos],
                                  "cdt": u.cdt, "hp_left": u.hp_left, "lost": u.lost,
                                  "destroyed": u.destroyed, "retreated": u.retreated}
                      for u in state.units.values()},
            "buildings": {str(b.id): {"hp_left": b.hp_left, "destroyed": b.destroyed,
                                      "cdt": b.cdt} for b in state.buildings.values()},
        }


LAYER = Layer()
