"""Designation and silo missiles.

Seed: "The designation of a target needs that the unit performing this action uses a
designator. It must be within 12" of its target. When designating a target, the unit takes
2CDT by territory that separates the silo from the target. No command order can reduce this
amount. When the CDTs are depleted, the missile strikes." Designator: "used by a unit to
designate a target to a missile sent from a missile silo. A missile deals 40 damages in a 4"
radius." Force field: "No projectile (missile or grenade) can enter the force field".

R-BAT-27: a side fires the missiles the campaign lists for it (`BattleInput.missiles`,
nearest silo first); the missile is spent when the target is designated; its countdown
runs with the designator's tokens (one off at the start of each of its player's turns) and
goes on if the designator falls; it strikes where the designated target then stands (its
last position if it is gone). A silo on the battle territory (0 territories between)
strikes at once. There is no to-hit roll; every unit and building within 4" (units
sheltered in a bunker excepted) takes 40 damage less its armour. A missile aimed into an
active force field is stopped and does nothing.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.base import Designate
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.ranged import live_target
from battles.rulesets.unlimit3d8.engine.damage import Target, deal_damage, force_field_at
from battles.rulesets.unlimit3d8.engine.geometry import distance
from battles.rulesets.unlimit3d8.engine.state import BattleState, PendingMissile, UnitState


def perform_designate(state: BattleState, unit: UnitState, action: Designate) -> int:
    if not unit.card.has_designator:
        raise IllegalActionError(f"unit {unit.id} has no designator")
    target = live_target(state, action.target, action.target_kind)
    dist = distance(unit.pos, target.pos)
    if dist > BT.DESIGNATOR_RANGE + 1e-9:
        raise IllegalActionError(f"the target is {dist:.2f}\" away; a designator reaches "
                                 f"{BT.DESIGNATOR_RANGE}\"")
    stock = state.missiles.get(unit.side) or []
    if not stock:
        raise IllegalActionError(f"{unit.side} has no missile left in its silos")
    missile = stock.pop(0)
    cdt = BT.DESIGNATION_CDT_PER_TERRITORY * missile.silo_distance
    state.missiles_used[unit.side] = state.missiles_used.get(unit.side, 0) + 1
    pending = PendingMissile(side=unit.side, designator=unit.id, target=target.id,
                             target_kind=action.target_kind, silo=missile.silo,
                             silo_distance=missile.silo_distance, cdt_left=cdt,
                             designated_turn=state.turn)
    state.record("designate", unit=unit.id, target=target.id, distance=round(dist, 3),
                 silo=missile.silo, silo_distance=missile.silo_distance, cdt=cdt)
    if cdt == 0:
        strike_missile(state, pending)
    else:
        state.pending_missiles.append(pending)
    return int(cdt)


def missiles_due(state: BattleState, side: str) -> None:
    """At the start of `side`'s turn: one token off each of its pending missiles; those at
    zero strike."""
    if not state.pending_missiles:
        return
    for m in list(state.pending_missiles):
        if m.side != side:
            continue
        m.cdt_left -= 1
        if m.cdt_left <= 0:
            state.pending_missiles.remove(m)
            strike_missile(state, m)


def strike_missile(state: BattleState, m: PendingMissile) -> None:
    target: Target = (state.buildings[m.target] if m.target_kind == "building"
                      else state.units[m.target])
    impact = target.pos
    blocked = force_field_at(state, impact) is not None
    state.record("missile_strike", side=m.side, designator=m.designator, target=m.target,
                 impact=list(impact), blocked=blocked)
    state.missile_strikes.append({
        "side": m.side, "silo": m.silo, "silo_distance": m.silo_distance,
        "designator": m.designator, "target": m.target, "target_kind": m.target_kind,
        "designated_turn": m.designated_turn, "strike_turn": state.turn,
        "impact": list(impact), "blocked": blocked,
    })
    if blocked:
        return
    designator = state.units.get(m.designator)
    caught: list[Target] = [u for u in state.unit_list
                            if u.active and u.in_bunker is None
                            and distance(u.pos, impact) <= BT.MISSILE_RADIUS + 1e-9]
    caught += [b for b in state.building_list
               if b.targetable and distance(b.pos, impact) <= BT.MISSILE_RADIUS + 1e-9]
    for t in caught:
        deal_damage(state, t, BT.MISSILE_DAMAGE, ignore=None, attacker=designator,
                    source="missile")
