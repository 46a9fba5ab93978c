"""The default policy's shortcuts decide as the long way round would (issue 32): attacks
are ranked rounding only near-ties, `round(value, 6)` is worked out without a string, and
an assault or a ram whose best case cannot count is not worked out."""

from __future__ import annotations

import math
import random
from typing import Any

from battles.rulesets.unlimit3d8.engine.actions.attack import misfire_threshold, projectile_blocked
from battles.rulesets.unlimit3d8.engine.actions.base import Action, Assault
from battles.rulesets.unlimit3d8.engine.actions.move import move_cdt
from battles.rulesets.unlimit3d8.engine.card import weapon_card
from battles.rulesets.unlimit3d8.engine.geometry import (
    distance,
    hypot,
    increments,
    round_places,
    stop_short,
    toward,
)
from battles.rulesets.unlimit3d8.engine.model import BuildingInput
from battles.rulesets.unlimit3d8.engine.policy import (
    MEAN_DIE,
    DefaultPolicy,
    _arm_value,
    _Ranking,
    _round6,
    _spread_steps,
    _TargetInfo,
)
from battles.rulesets.unlimit3d8.engine.probability import p_success
from battles.rulesets.unlimit3d8.engine.resolve import Fight
from battles.rulesets.unlimit3d8.engine.state import BattleState, UnitState
from tests.engine.test_determinism import random_battle


def test_round6_is_round_to_6_places_bit_for_bit():
    rng = random.Random(6)
    values = [rng.uniform(-100, 100) for _ in range(50_000)]
    values += [rng.uniform(-1e-5, 1e-5) for _ in range(10_000)]  # zeros of either sign
    values += [k / 1e6 + 5e-7 + rng.uniform(-1e-9, 1e-9) for k in range(-2000, 2000)]
    values += [p / 512 * m for p in range(0, 513, 3) for m in (1.5, 4.5, 8.0, 12.5, 0.5)]
    values += [k / 2**n for k in range(-3000, 3000, 7) for n in range(7, 16)]  # exact ties
    values += [rng.random() * 10.0 ** e for e in range(-9, 16) for _ in range(40)]
    for value in values:
        got, expected = _round6(value), round(value, 6)
        assert got == expected and math.copysign(1, got) == math.copysign(1, expected), value


def _ranked_the_long_way(offers: list[tuple[float, str]]) -> tuple[float, str | None]:
    """Every value rounded to 6 places, ties to the greatest label, nothing worth 0."""
    best_value, best_label = 0.0, None
    for value, label in offers:
        value = round(value, 6)
        if value > best_value or (value == best_value and value != 0.0
                                  and label > (best_label or "")):
            best_value, best_label = value, label
    return best_value, best_label


def test_round4_is_round_to_4_places_bit_for_bit():
    rng = random.Random(4)
    values = [rng.uniform(-100, 100) for _ in range(50_000)]
    values += [rng.uniform(-1e-3, 1e-3) for _ in range(10_000)]  # zeros of either sign
    values += [k / 1e4 + 5e-5 + rng.uniform(-1e-11, 1e-11) for k in range(-2000, 2000)]
    values += [k / 1e4 + 5e-5 for k in range(-400_000, 400_000, 37)]  # ties, as written
    values += [k / 2**n for k in range(-3000, 3000, 7) for n in range(5, 14)]  # exact ties
    values += [rng.random() * 10.0 ** e for e in range(-9, 16) for _ in range(40)]
    for value in values:
        got, expected = round_places(value, 1e4, 4), round(value, 4)
        assert got == expected and math.copysign(1, got) == math.copysign(1, expected), value


def test_spread_steps_are_the_increments_of_the_distance_rounded_to_3_places():
    rng = random.Random(3)
    values = [rng.uniform(0, 50) for _ in range(50_000)] + [k / 1e4 for k in range(0, 400_000, 7)]
    values += [4 * k + d for k in range(12) for d in (0, 5e-4, -5e-4, 4.9e-4, 5.1e-4, 1e-3,
                                                     -1e-3, 1.0001e-3, -9.99e-4)]
    for value in (v for v in values if v >= 0):
        assert _spread_steps(value) == increments(round(value, 3), 4), value


def test_hypot_is_math_hypot_bit_for_bit():
    rng = random.Random(2)
    for _ in range(200_000):
        a = (round(rng.uniform(-4, 36), 4), round(rng.uniform(-4, 36), 4))
        b = (round(rng.uniform(-4, 36), 4), round(rng.uniform(-4, 36), 4))
        if rng.random() < 0.3:  # on a line or a 3-4-5 triangle, give or take
            b = (a[0] + rng.choice((0.0, 3.0, 0.6, 1.2, -0.9)),
                 a[1] + rng.choice((0.0, 4.0, 0.8, 1.6, 1e-4)))
        dx, dy = a[0] - b[0], a[1] - b[1]
        assert hypot(dx, dy) == math.hypot(dx, dy), (dx, dy)
    for _ in range(50_000):
        dx, dy = rng.uniform(-1e6, 1e6) * 10.0 ** rng.randint(-12, 0), rng.uniform(-1e3, 1e3)
        assert hypot(dx, dy) == math.hypot(dx, dy), (dx, dy)
    for dx, dy in ((0.0, 0.0), (-0.0, 0.0), (1e-310, 0.0), (1e308, 1e308), (math.inf, 1.0),
                   (3.0, 4.0), (0.0, -2.5), (-1e-300, 1e-300)):
        assert hypot(dx, dy) == math.hypot(dx, dy)


def _toward_by_the_book(a, b, dist):
    """`geometry.toward` as it was written with `math.hypot` and `round`."""
    d = math.hypot(a[0] - b[0], a[1] - b[1])
    if d <= dist or d == 0:
        return b
    f = dist / d
    return (round(a[0] + (b[0] - a[0]) * f, 4), round(a[1] + (b[1] - a[1]) * f, 4))


def test_moves_are_worked_out_as_with_math_hypot_and_round():
    rng = random.Random(44)
    for _ in range(40_000):
        a = (round(rng.uniform(-4, 36), 4), round(rng.uniform(-4, 36), 4))
        b = (round(rng.uniform(-4, 36), 4), round(rng.uniform(-4, 36), 4))
        if rng.random() < 0.1:
            b = (a[0] + rng.choice((0.0, 3.0, -4.0)), a[1] + rng.choice((0.0, 4.0, 0.5)))
        dist = rng.choice((0.0, 0.9, 3.0, 6.0, rng.uniform(0, 20)))
        keep = rng.choice((0.0, 0.9, 3.0, 2.5))
        assert toward(a, b, dist) == _toward_by_the_book(a, b, dist), (a, b, dist)
        travel = max(0.0, min(dist, math.hypot(a[0] - b[0], a[1] - b[1]) - keep))
        assert stop_short(a, b, dist, keep) == _toward_by_the_book(a, b, travel), (a, b, dist)


def test_the_ranking_picks_as_rounding_every_value_would():
    rng = random.Random(32)
    steps = [-3e-6, -2e-6, -1e-6, -5e-7, -4.9e-7, 0.0, 4.9e-7, 5e-7, 1e-6, 2e-6, 2.1e-6, 1e-3]
    battle = Fight(random_battle(1)).state
    units = list(battle.units.values())
    for _ in range(4000):
        base = rng.choice([0.0, 1.5, 7.25, 12.0])
        offers = [(base + rng.choice(steps) * rng.randint(0, 3), rng.choice(units),
                   rng.choice(["cannon", "beamer", "ram"])) for _ in range(rng.randint(1, 6))]
        ranking = _Ranking()
        for value, target, key in offers:
            weapon = None if key == "ram" else weapon_card(key, (), 1)
            ranking.offer(value, "ram" if weapon is None else "ranged", target, weapon)
        pick = ranking.pick
        picked = None if pick is None else (
            f"{pick[1].id}/{'ram' if pick[2] is None else pick[2].key}")
        long_way = _ranked_the_long_way([(v, f"{t.id}/{k}") for v, t, k in offers])
        assert (ranking.value(), picked) == long_way, offers


def _assault_the_long_way(policy: DefaultPolicy, state: BattleState, unit: UnitState,
                          foe: UnitState, info: _TargetInfo) -> tuple[float, Action | None]:
    """`_assault` once the nearest foe is found, with the move worked out for every
    weapon (as before the bound)."""
    reach = state.options["contact_distance"]
    end = stop_short(unit.pos, foe.pos, unit.max_move_inches, reach + 0.5)
    moved = distance(unit.pos, end)
    if moved < 2.0:
        return 0.0, None
    fight = unit.card.skills["fight"]
    steps = increments(distance(end, foe.pos), 2)
    best: tuple[float, Action | None] = (0.0, None)
    for weapon in unit.card.ranged_weapons:
        if weapon.blast_radius or projectile_blocked(state, end, weapon, foe):
            continue
        here = policy._shot_value(state, unit, weapon, foe, fight, info)
        cover = 0 if weapon.no_line_of_sight else info.cover
        difficulty = info.defense + ((weapon.range_increment or 0) + unit.corroded) * (
            steps + cover)
        p = p_success(fight, difficulty) * (1 - misfire_threshold(unit, weapon) / 8)
        there = info.value((weapon.base_damage or 0) + MEAN_DIE, weapon.ignore_armor, p)
        there -= move_cdt(unit, moved) / 4
        if there > here * 1.25 + 0.5 and there > best[0]:
            best = (there, Assault(unit.id, end, weapon.key, foe.id))
    return best


def _decisions(seeds: range) -> Any:
    """(policy, state, side) at every choice of seeded battles, with buildings for cover."""
    for seed in seeds:
        battle = random_battle(seed)
        battle = type(battle)(**{**battle.__dict__, "buildings": (
            BuildingInput(90, "concrete_barricade", 6, 9), BuildingInput(91, "bunker", 9, 12),
            BuildingInput(92, "force_field", 8, 6))}) if seed % 2 else battle
        fight = Fight(battle)
        while (side := fight.side) is not None:
            policy = fight.policies[side]
            assert isinstance(policy, DefaultPolicy)
            yield policy, fight.state, side
            fight.act(policy.choose(fight.view, side))


def test_an_assault_turned_down_by_its_best_case_would_not_have_been_made():
    checked = 0
    for policy, state, side in _decisions(range(40)):
        foes = list(state.targetable_enemies(side))
        infos = {id(t): _TargetInfo(state, t) for t in foes}
        for unit in (u for u in state.active_units(side) if u.cdt == 0):
            policy._shots = {}
            value, action = policy._assault(state, unit, list(foes), infos)
            near = min(foes, key=lambda f: (distance(unit.pos, f.pos), str(f.id)), default=None)
            if (near is None or unit.immobilized_by is not None or unit.in_bunker is not None
                    or not unit.card.ranged_weapons or unit.max_move_inches < 2
                    or distance(unit.pos, near.pos) < 4):
                continue
            assert (value, action) == _assault_the_long_way(policy, state, unit, near,
                                                            infos[id(near)])
            checked += 1
    assert checked > 500


def test_an_assault_turned_down_below_the_floor_would_not_have_been_taken():
    """`choose` passes `_assault` the value an action must beat: an assault it no longer
    works out would have been worth no more than that."""
    checked = made = 0
    for policy, state, side in _decisions(range(0, 40, 2)):
        foes = list(state.targetable_enemies(side))
        infos = {id(t): _TargetInfo(state, t) for t in foes}
        for unit in (u for u in state.active_units(side) if u.cdt == 0):
            policy._shots = {}
            full = policy._assault(state, unit, list(foes), infos)
            made += full[1] is not None
            for floor in (0.0, 1.0, 3.0, full[0] - 1e-3, full[0], full[0] + 1e-3, 8.0):
                bounded = policy._assault(state, unit, list(foes), infos, floor)
                assert bounded == full or (bounded == (0.0, None) and full[0] <= floor)
                checked += 1
    assert checked > 500
    assert made >= 3  # some assaults worth making, each tried against floors around it


def test_a_ram_turned_down_by_its_best_case_is_worth_less_than_the_floor():
    checked = 0
    for policy, state, side in _decisions(range(0, 40, 3)):
        for unit in (u for u in state.active_units(side) if u.cdt == 0):
            if unit.card.is_infantry:
                continue
            for foe in state.targetable_enemies(side):
                full = policy._ram_value(state, unit, foe)
                for floor in (-1.0, 0.0, full - 1e-3, full + 1e-3, 5.0, 20.0):
                    bounded = policy._ram_value(state, unit, foe, None, floor)
                    assert bounded == full or (bounded == 0.0 and full < floor)
                    checked += 1
    assert checked > 500


def test_a_kept_shot_is_the_value_best_pick_gave_that_weapon_and_target():
    checked = 0
    for policy, state, side in _decisions(range(12)):
        targets: list[Any] = list(state.targetable_enemies(side))
        infos = {id(t): _TargetInfo(state, t) for t in targets}
        for unit in (u for u in state.active_units(side) if u.cdt == 0):
            policy._best_pick(state, unit, targets, infos)
            fight = unit.card.skills["fight"]
            for k, weapon in enumerate(unit.card.ranged_weapons):
                assert policy._kept_shot(unit, k, list(targets), 0) is None  # another list
                for at, target in enumerate(targets):
                    expected = policy._shot_value(state, unit, weapon, target, fight,
                                                  infos[id(target)])
                    assert policy._kept_shot(unit, k, targets, at) == expected
                    checked += 1
    assert checked > 500


def test_a_shot_valued_from_the_kit_is_the_shot_value():
    checked = 0
    for policy, state, side in _decisions(range(12)):
        targets: list[Any] = list(state.targetable_enemies(side))
        for unit in (u for u in state.active_units(side) if u.cdt == 0):
            kit = policy._kit_of(unit)
            assert [a.weapon for a in kit.arms] == list(unit.card.weapons)
            assert [a.weapon for a in kit.ranged] == list(unit.card.ranged_weapons)
            for arm in kit.arms:
                if not arm.ranged:
                    continue
                for target in targets:
                    expected = policy._shot_value(state, unit, arm.weapon, target,
                                                  unit.card.skills["fight"])
                    got = _arm_value(state, unit, kit, arm, target, _TargetInfo(state, target))
                    assert got == expected
                    checked += 1
    assert checked > 500

