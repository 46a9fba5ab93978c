"""Ramming (pilot): "Difficulty is Base defense; damages are weight class of the attacker +
every 2 inches crossed + active die result; Passive : on 7+, the target takes 2 CDT;
Nemesis : on 1- the attacker takes as much damage as the target, on 3- they take half ...
If the attacker takes damages from the ram, he also reduces his armor".

R-BAT-20: the rammer moves straight into contact (a move within its max move, CDT as a
move) and takes RAM_CDT more; only vehicles ram (not exo armour); the weight class is the
card's total weight (as in base defense, R-TAB); the nemesis self-damage applies whether
or not the ram hit, from the rolled damage, halves rounded down.
"""

from __future__ import annotations

from battles.rulesets.unlimit3d8.engine.actions.attack import defense_of, skill_test
from battles.rulesets.unlimit3d8.engine.actions.base import Ram
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.actions.move import check_move, move_cdt, relocate
from battles.rulesets.unlimit3d8.engine.actions.ranged import live_target
from battles.rulesets.unlimit3d8.engine.damage import deal_damage
from battles.rulesets.unlimit3d8.engine.geometry import distance, increments, stop_short
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState

RAM_CDT = 2
RAM_PASSIVE_MIN = 7
RAM_PASSIVE_CDT = 2


def ram_path(state: BattleState, unit: UnitState, target: UnitState) -> tuple[tuple[float, float],
                                                                            float]:
    reach = state.options["contact_distance"]
    dist = distance(unit.pos, target.pos)
    end = stop_short(unit.pos, target.pos, dist, reach)
    return end, distance(unit.pos, end)


def perform_ram(state: BattleState, unit: UnitState, action: Ram) -> int:
    if unit.card.is_infantry:
        raise IllegalActionError("exo armour cannot ram (R-BAT-20)")
    target = live_target(state, action.target, "unit")
    assert isinstance(target, UnitState)
    end, crossed = ram_path(state, unit, target)
    check_move(unit, end)
    cdt = move_cdt(unit, crossed) + RAM_CDT
    state.record("ram", unit=unit.id, target=target.id, distance=round(crossed, 3), cdt=cdt)
    relocate(state, unit, end)
    roll, _, success, entry = skill_test(state, unit, "pilot", unit.card.skills["pilot"],
                                         defense_of(target, close=False), "ram",
                                         {"target": target.id})
    raw = unit.card.weight + increments(crossed, 2) + roll.active
    if success:
        entry["effects"].append("hit")
        deal_damage(state, target, raw, ignore=None, attacker=unit, source="ram")
        if roll.passive >= RAM_PASSIVE_MIN and target.active:
            target.cdt += RAM_PASSIVE_CDT
            entry["effects"].append({"target_cdt": RAM_PASSIVE_CDT})
    else:
        entry["effects"].append("miss")
    if roll.nemesis <= 1:
        self_damage = raw
    elif roll.nemesis <= 3:
        self_damage = raw // 2
    else:
        self_damage = 0
    if self_damage:
        entry["effects"].append({"rammer_damage": self_damage})
        deal_damage(state, unit, self_damage, ignore=None, attacker=None, source="ram_backlash")
    return cdt
