"""Warp: "The unit aims at a point it can see, where there is no building or other unit.
Then it takes a Tech skill test with a difficulty of 8 x each 4" of distance (2" if the Warp
drive is Light, 6" if the Warp drive is Heavy). If the pilot is successful, the unit crosses
that distance instantly, and produces a blastwave that deals (5 x Unit Mass) damages to
anything in a radius equal to the number of range increments taken."

R-BAT-22: increments are counted started (a 3" warp is one increment), the radius is that
many inches, the unit's mass is its total weight, the blastwave spares the warping unit;
a warp costs the drive's cool-down, success or not.
"""

from __future__ import annotations

import math

from battles.rulesets.unlimit3d8 import rules as BF
from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.actions.attack import in_contact, skill_test
from battles.rulesets.unlimit3d8.engine.actions.base import Warp
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.move import relocate
from battles.rulesets.unlimit3d8.engine.damage import Target, deal_damage
from battles.rulesets.unlimit3d8.engine.geometry import clamp, distance
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState


def perform_warp(state: BattleState, unit: UnitState, action: Warp) -> int:
    drive = unit.card.equipment("warping")
    if drive is None:
        raise IllegalActionError(f"unit {unit.id} has no warp drive")
    if unit.immobilized_by is not None:
        raise IllegalActionError(f"unit {unit.id} is immobilized")
    if clamp(action.to) != action.to:
        raise IllegalActionError("warp target is off the battlefield")
    occupied = [u for u in state.unit_list if u.active and u is not unit]
    occupied_b = [b for b in state.building_list if not b.destroyed]
    spots = [u.pos for u in occupied] + [b.pos for b in occupied_b]
    if any(in_contact(state, pos, action.to) for pos in spots):
        raise IllegalActionError("a warp must aim where there is no building or unit")
    dist = distance(unit.pos, action.to)
    step = BF.warp_increment_inches(drive.size)
    steps = max(1, math.ceil(dist / step - 1e-9))
    difficulty = BT.WARP_DIFFICULTY_PER_INCREMENT * steps
    state.record("warp", unit=unit.id, to=list(action.to), distance=round(dist, 3),
                 cdt=drive.cooldown)
    _, _, success, entry = skill_test(state, unit, "tech", unit.card.skills["tech"],
                                      difficulty, "warp", {"increments": steps})
    if not success:
        entry["effects"].append("no_warp")
        return drive.cooldown
    relocate(state, unit, action.to)
    damage = BT.WARP_BLAST_PER_MASS * unit.card.weight
    entry["effects"].append({"blastwave": damage, "radius": steps})
    caught: list[Target] = [u for u in occupied if u.active and u.in_bunker is None
                            and distance(u.pos, action.to) <= steps]
    caught += [b for b in occupied_b if b.targetable and distance(b.pos, action.to) <= steps]
    for t in caught:
        deal_damage(state, t, damage, ignore=None, attacker=unit, source="warp_blastwave")
    return drive.cooldown
