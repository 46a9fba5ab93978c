"""Containers, the lorry and bunkers.

Lifting: "Any Unit equiped with Medium or Heavy Grappling Arms can lift a container and take
it away. While the unit uses its arms to lift the container, it cannot use them to fight."
Lorry: "The Lorry can receive the content of a container, but must be loaded by a unit
equipped with grappling arms. If the Lorry is within 1 inch of the unit, the latter only
needs its lifting action to take the container and empty its contents into the lorry. If a
lorry is destroyed, its cargo is lost."

R-BAT-28: the lifter must be in contact with the container; lifting costs the arms'
cool-down, no roll. With an empty lorry of its side within 1" the container's content goes
into the lorry (one container per lorry) and the lifter's arms stay free; otherwise the
lifter carries it and cannot fight, tackle for damage or repair with those arms until it is
gone. A carrier keeps the container; destroyed, it drops it where it stood (a lorry's is
lost). Which side took what is read at the end (see `CargoOutcome`).

Bunker: "A bunker can shelter up to five of your operatives if they use an exo armor. They
can get out of the building with a move action, and get in if a move action leads them in
contact with the structure. You cannot make an assault action when entering a bunker."
R-BAT-29: entering is its own move action (`EnterBunker`: move tokens to the contact point;
an Assault never enters); inside, the unit stands at the bunker's centre, cannot be
targeted nor caught by blasts, chain reactions, blastwaves or missiles, and may only fire
(ranged), designate, issue orders or move out (a Move, Assault or Retreat leaves). When the
bunker is destroyed its occupants step out unharmed.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.attack import in_contact
from battles.rulesets.unlimit3d8.engine.actions.base import EnterBunker, Lift
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.move import check_move, move_cdt, relocate
from battles.rulesets.unlimit3d8.engine.geometry import distance, stop_short
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState

LORRY_REACH_INCHES = 1.0  # "If the Lorry is within 1 inch of the unit"


def perform_lift(state: BattleState, unit: UnitState, action: Lift) -> int:
    arms = unit.card.lifting_arms
    if arms is None:
        raise IllegalActionError(f"unit {unit.id} has no medium or heavy grappling arms")
    if unit.carrying is not None:
        raise IllegalActionError(f"unit {unit.id} already carries a container")
    cargo = state.cargo.get(action.cargo)
    if cargo is None or cargo.lost or cargo.carrier is not None:
        raise IllegalActionError(f"container {action.cargo!r} cannot be lifted")
    if not in_contact(state, unit.pos, cargo.pos):
        raise IllegalActionError(f"unit {unit.id} is not in contact with the container")
    lorry = next((u for u in sorted(state.active_units(unit.side), key=lambda u: str(u.id))
                  if u.card.is_lorry and u is not unit and u.carrying is None
                  and distance(u.pos, unit.pos) <= LORRY_REACH_INCHES + 1e-9), None)
    holder = lorry or unit
    holder.carrying = cargo.id
    cargo.carrier = holder.id
    cargo.lifter = unit.id
    cargo.pos = holder.pos
    state.record("lift", unit=unit.id, cargo=cargo.id, into=holder.id, cdt=arms.cooldown)
    return arms.cooldown


def perform_enter_bunker(state: BattleState, unit: UnitState, action: EnterBunker) -> int:
    if not unit.card.is_infantry:
        raise IllegalActionError("only exo armour can shelter in a bunker")
    if unit.in_bunker is not None:
        raise IllegalActionError(f"unit {unit.id} is already in a bunker")
    bunker = state.buildings.get(action.bunker)
    if bunker is None or bunker.kind != "bunker" or bunker.destroyed:
        raise IllegalActionError(f"no standing bunker {action.bunker!r}")
    if bunker.controller != unit.side:
        raise IllegalActionError("a bunker shelters its own side's operatives only")
    if len(bunker.sheltered) >= BT.BUNKER_CAPACITY:
        raise IllegalActionError(f"the bunker already shelters {BT.BUNKER_CAPACITY} units")
    reach = state.options["contact_distance"]
    end = stop_short(unit.pos, bunker.pos, distance(unit.pos, bunker.pos), reach)
    dist = check_move(unit, end)
    cdt = move_cdt(unit, dist)
    state.record("enter_bunker", unit=unit.id, bunker=bunker.id, distance=round(dist, 3),
                 cdt=cdt)
    relocate(state, unit, end)
    unit.pos = bunker.pos
    unit.in_bunker = bunker.id
    bunker.sheltered.append(unit.id)
    return cdt
