"""Order (Will): "A character that doesn't do anything else than moving can issue an order
to those who have a lower character level." Cohesion order: "any number of units with no
CDT ... The difficulty of the test is 3 x (number of target units)". Technical order: "a
unit with CDT on it ... The difficulty of the roll is 3 x ( number of tokens)". "If the roll
is a failure the order doesn't have any effect." "A character who issues an order takes two
CDT, in addition to the CDT they take for moving, if they do."

Haywire: "all Command tests have +5 difficulty" (R-BAT-21: when the issuer or any ordered
unit is haywired). Turrets "can't take technical orders".
"""

from __future__ import annotations

from collections.abc import Callable

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.attack import skill_test
from battles.rulesets.unlimit3d8.engine.actions.base import Action, Order
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.move import check_move, move_cdt, relocate
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState

HAYWIRE_COMMAND = 5


def perform_order(state: BattleState, unit: UnitState, action: Order,
                  perform: Callable[[BattleState, UnitState, Action], int]) -> int:
    if not unit.card.is_character:
        raise IllegalActionError(f"unit {unit.id} has no character to issue orders")
    if action.kind not in ("technical", "cohesion") or not action.targets:
        raise IllegalActionError(f"bad order {action.kind!r}")
    unknown = [t for t in action.targets if t not in state.units]
    if unknown:
        # Turrets and other buildings are not units: they "can't take technical orders".
        raise IllegalActionError(f"{unknown[0]!r} is not a unit that can be ordered")
    targets = [state.units[t] for t in action.targets]
    for t in targets:
        if t.side != unit.side or not t.active or t is unit:
            raise IllegalActionError(f"unit {t.id} cannot be ordered by {unit.id}")
        if t.card.level >= unit.card.level:
            raise IllegalActionError("orders go only to units of a lower level")
    # Every check comes before the move and the Will test: a refused order changes nothing
    # and consumes no dice.
    haywire = HAYWIRE_COMMAND if unit.haywire or any(t.haywire for t in targets) else 0
    if action.kind == "technical":
        target = targets[0]
        if len(targets) != 1 or not 1 <= action.tokens <= target.cdt:
            raise IllegalActionError("a technical order takes 1..CDT tokens off one unit")
        if action.tokens > target.cdt - state.locked_cdt(target):
            # Designation: "No command order can reduce this amount."
            raise IllegalActionError("designation tokens cannot be ordered away")
        difficulty = BT.ORDER_DIFFICULTY_PER * action.tokens + haywire
    else:
        if any(t.cdt for t in targets) or len(action.orders) != len(targets):
            raise IllegalActionError("a cohesion order needs ready units, one order each")
        for t, sub in zip(targets, action.orders, strict=True):
            if sub.unit != t.id or isinstance(sub, Order):
                raise IllegalActionError("each ordered unit performs its own, non-order "
                                         "action")
        difficulty = BT.ORDER_DIFFICULTY_PER * len(targets) + haywire
    cdt = BT.ORDER_CDT
    if action.move_to is not None:
        cdt += move_cdt(unit, check_move(unit, action.move_to))
        relocate(state, unit, action.move_to)
    if state.keep_log:
        state.log.append({"turn": state.turn, "round": state.round, "event": "order",
                          "unit": unit.id, "kind": action.kind,
                          "targets": list(action.targets), "tokens": action.tokens,
                          "cdt": cdt})
    _, _, success, entry = skill_test(
        state, unit, "will", unit.card.skills["will"], difficulty, f"order:{action.kind}",
        {"targets": list(action.targets)} if state.keep_log else None)
    if not success:
        entry["effects"].append("no_effect")
        return cdt
    if action.kind == "technical":
        targets[0].cdt -= action.tokens
        entry["effects"].append({"cdt_removed": action.tokens})
    else:
        entry["effects"].append("obeyed")
        for t, sub in zip(targets, action.orders, strict=True):
            if not t.active:
                continue
            try:
                t.cdt += perform(state, t, sub)
            except IllegalActionError as exc:  # e.g. the common target fell to an earlier shot
                state.record("order_void", unit=t.id, reason=str(exc))
    return cdt
