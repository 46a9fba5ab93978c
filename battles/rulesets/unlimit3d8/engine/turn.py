"""The tactical turn (seed, "Tactical Turn"):

- "The player removes one Cool Down Token (CDT) off all their unit cards.
- They then choose an unit on which card there is no CDT, and an action to perform.
- The action is resolved
- Then they put as much CDT on the unit card as required
- Turns end, next player's turn starts"

Turrets "attack when the player controlling them sees fit, and these attacks don't take the
player a turn. The turrets get CDT as any other unit, and can fire as soon as the CDT are
depleted" (R-BAT-16: they fire in their controller's turn, before its unit acts).
Combustion: "target loses one point of damage each turn until it takes a 2CDT action"
(R-BAT-19: one hit point, armour does not help, at the start of its player's turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from battles.rulesets.unlimit3d8.engine.actions import Action, Pass, perform
from battles.rulesets.unlimit3d8.engine.actions.attack import fire
from battles.rulesets.unlimit3d8.engine.actions.base import Move, RangedAttack
from battles.rulesets.unlimit3d8.engine.actions.designation import missiles_due
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.damage import Target, deal_damage
from battles.rulesets.unlimit3d8.engine.policy import DefaultPolicy
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState

if TYPE_CHECKING:
    from battles.rulesets.unlimit3d8.engine.policy import BattleView, Policy


def play_turn(state: BattleState, side: str, policy: Policy, view: BattleView) -> None:
    """One player's turn."""
    if begin_turn(state, side, policy, view):
        take_action(state, side, policy.choose(view, side))


def begin_turn(state: BattleState, side: str, policy: Policy, view: BattleView) -> bool:
    """The turn up to the player's choice: CDT off, combustion, missiles due, turrets.
    False when the side has no active unit left to choose for."""
    state.turn += 1
    state.current_side = side
    for unit in state.unit_list:
        if unit.side == side and unit.active:
            if unit.cdt > 0:
                unit.cdt -= 1
            if unit.combustion:
                state.record("combustion", unit=unit.id)
                deal_damage(state, unit, 1, ignore="all", attacker=None, source="combustion")
    for building in state.building_list:
        if building.controller == side and building.weapon is not None and building.cdt > 0:
            building.cdt -= 1
    missiles_due(state, side)  # "When the CDTs are depleted, the missile strikes."
    _turrets(state, side, policy, view)
    if not state.has_active(side):
        return False
    # what it settles once a turn; `choose` stays pure (the default policy's, called
    # natively: through the `Policy` protocol a compiled call is a Python method call)
    if isinstance(policy, DefaultPolicy):
        policy.begin_choice(view, side)
    else:
        policy.begin_choice(view, side)
    return True


def take_action(state: BattleState, side: str, action: Action) -> None:
    """The player's choice for the turn, refereed (IllegalActionError: refused)."""
    if isinstance(action, Pass):
        if state.keep_log:  # `state.record("pass", side=side)`, one dict built
            state.log.append({"turn": state.turn, "round": state.round, "event": "pass",
                              "side": side})
        return
    actor = state.units.get(action.unit)
    if actor is None or actor.side != side or not actor.active or actor.cdt > 0:
        raise IllegalActionError(f"{side} cannot act with unit {action.unit!r} now")
    if state.keep_log:  # `state.record("action", side=side, **action.describe())`
        state.log.append(_action_entry(state, side, action))
    cdt = perform(state, actor, action)
    if actor.active:
        actor.cdt += cdt
        if cdt >= 2 and actor.combustion:
            actor.combustion = False
            state.record("combustion_out", unit=actor.id)


def _action_entry(state: BattleState, side: str, action: Action) -> dict[str, Any]:
    """The log's "action" entry: turn, round, event, side, then `action.describe()` (the
    commonest two written out in one dict, the same keys in the same order)."""
    kind = type(action)
    if kind is RangedAttack:
        assert isinstance(action, RangedAttack)
        return {"turn": state.turn, "round": state.round, "event": "action", "side": side,
                "unit": action.unit, "weapon": action.weapon, "target": action.target,
                "target_kind": action.target_kind, "action": "RangedAttack"}
    if kind is Move:
        assert isinstance(action, Move)
        return {"turn": state.turn, "round": state.round, "event": "action", "side": side,
                "unit": action.unit, "to": list(action.to), "action": "Move"}
    entry: dict[str, Any] = {"turn": state.turn, "round": state.round, "event": "action",
                             "side": side}
    entry.update(action.describe())
    return entry


def _turrets(state: BattleState, side: str, policy: Policy, view: BattleView) -> None:
    for turret in state.building_list:
        if (turret.controller != side or turret.weapon is None or turret.destroyed
                or not turret.active or turret.cdt > 0):
            continue
        target: Target | None
        if isinstance(policy, DefaultPolicy):  # called natively, as `begin_choice`
            target = policy.turret_target(view, turret)
        else:
            target = policy.turret_target(view, turret)
        if target is None or (isinstance(target, UnitState) and target.in_bunker is not None):
            continue
        if state.keep_log:
            state.log.append({"turn": state.turn, "round": state.round,
                              "event": "turret_fire", "turret": turret.id,
                              "weapon": turret.weapon.key, "target": target.id,
                              "cdt": turret.weapon.cooldown})
        fire(state, turret, turret.weapon, target,
             skill_value=int(state.options["turret_fight_skill"]))
        turret.cdt += turret.weapon.cooldown
