"""Derived formulas of the seed, checked on worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rules import unlimit3d8 as rules


def test_golem_with_a_level_1_soldier() -> None:
    """Seed: 'Base defense = 15 + Pilot skill - (Size + Weight)'; 'Each weapon adds ...
    2 for normal weapons and 3 for heavy weapons'. Golem size 7, weight 7; a level-1
    Soldier has Pilot 10."""
    soldier = rules.skill_line("soldier", 1)
    cannon = rules.total_weight("golem", [rules.weapon_size("cannon")])
    assert cannon == 7 + 2
    assert rules.unit_base_defense("golem", soldier, cannon) == 15 + 10 - (7 + 9) == 9
    heavy = rules.total_weight("golem", [rules.weapon_size("cannon", ["heavy"])])
    assert heavy == 10
    assert rules.base_defense(soldier.pilot, 7, heavy) == 8
    # move table: weight 9-10 row, Pilot Skill (level) 1 column: '3 / 2'
    assert rules.move_stats(heavy, 1) == (3, 2)


def test_base_defense_never_below_one() -> None:
    """Seed: 'Minimum Base defense is 1'."""
    assert rules.base_defense(8, 7, 20) == 1
    assert rules.base_defense(1, 10, 10) == 1


def test_exo_armor_uses_fight_for_base_defense() -> None:
    """Seed: 'To calculate the ... Base defense of a character in exo armor, replace Pilot
    skill with Fight skill.' Shark: size 0, weight 1; a light weapon adds 1."""
    soldier = rules.skill_line("soldier", 1)  # Pilot 10, Fight 8
    weight = rules.total_weight("shark", ["L"])
    assert weight == 2
    assert rules.defense_skill("exo_armor", soldier) == 8
    assert rules.defense_skill("assault", soldier) == 10
    assert rules.unit_base_defense("shark", soldier, weight) == 15 + 8 - (0 + 2)


def test_skill_columns_round_halves_down() -> None:
    """Seed, unit card H: 'multiplied by 0.5, 1, 1.5, 2, 2.5, 3 and 3.5 respectively.
    Halves are rounded down.'"""
    assert rules.skill_columns(9) == (4, 9, 13, 18, 22, 27, 31)
    assert rules.skill_columns(10) == (5, 10, 15, 20, 25, 30, 35)


@given(st.integers(min_value=0, max_value=40))
def test_skill_columns_equal_floor_of_the_multiplier(score: int) -> None:
    """Unit card H: every column is floor(score x multiplier)."""
    import math

    assert rules.skill_columns(score) == tuple(math.floor(score * m)
                                               for m in rules.SKILL_MULTIPLIERS)


def test_j_row_bands_r_tab_4() -> None:
    """Seed: 'Add up the three dice and find the sum on the J row ... Read the result on
    the according column'. R-TAB-4: 3-5 x0.5, 6-8 x1, ..., 21-24 x3.5."""
    expected = {3: 0, 5: 0, 6: 1, 8: 1, 9: 2, 11: 2, 12: 3, 14: 3, 15: 4, 17: 4, 18: 5,
                20: 5, 21: 6, 24: 6}
    for total, column in expected.items():
        assert rules.column_for_sum(total) == column
    covered = [s for lo, hi, _ in rules.J_ROW for s in range(lo, hi + 1)]
    assert covered == list(range(3, 25))
    for bad in (2, 25):
        with pytest.raises(rules.RuleViolation):
            rules.column_for_sum(bad)
    assert rules.skill_score(10, 3) == 5
    assert rules.skill_score(10, 12) == 20
    assert rules.skill_score(9, 16) == 22
    assert rules.skill_score(10, 24) == 35


def test_weapon_cooldown_is_base_minus_level_minimum_one_r_tab_7() -> None:
    """Seed: 'Cool-down is the weapon base minus the Pilot Skill level.' R-TAB-7: never
    below 1."""
    assert rules.weapon_cooldown(8, 1) == 7
    assert rules.weapon_cooldown(6, 3) == 3
    assert rules.weapon_cooldown(5, 8) == 1
    assert rules.weapon_cooldown(5, 4) == 1


def test_damage_split_crosses_half_rounded_up() -> None:
    """Seed: 'tick half of them (rounded up) with a cross, the other half with a slash.
    The damages ticked with a cross can't be repaired'."""
    assert rules.damage_split(7) == (4, 3)
    assert rules.damage_split(8) == (4, 4)
    assert rules.damage_split(1) == (1, 0)
    assert rules.damage_split(0) == (0, 0)
    assert rules.repair_failure_split(3) == 2
    with pytest.raises(rules.RuleViolation):
        rules.damage_split(-1)


def test_shipping_value_raw_refined_and_pure_r_tab_8() -> None:
    """Seed: raw/refined values per unit; 'exceptionally pure ... sell said resources at
    150% (rounded down) of their raw price without refining them. However, the refined
    price of the resource doesn't change.'"""
    assert rules.shipping_value("water", 10, refined=False, pure=False) == 200
    assert rules.shipping_value("water", 10, refined=True, pure=False) == 100
    assert rules.shipping_value("precious_gas", 10, refined=False, pure=True) == 220
    assert rules.unit_value("precious_gas", refined=False, pure=True) == 22
    assert rules.shipping_value("precious_gas", 10, refined=True, pure=True) == 300
    assert rules.shipping_value("unique_material", 3, refined=True, pure=False) == 150
    with pytest.raises(rules.RuleViolation):
        rules.shipping_value("gold", 1, refined=False, pure=False)


def test_energy_power_and_factory_limit() -> None:
    """Seed: 'Each power plant produces 50 points', 'twice as much power', 'up to 500
    Credits', Extension of production 'up to 800 Credits'."""
    assert rules.power_output(2) == 100
    assert rules.power_output(2, enhanced=True) == 200
    assert rules.building_energy("factory") == 30
    assert rules.building_energy("factory", ["power_efficiency"]) == 15
    assert rules.building_energy("refinery", ["power_efficiency"]) == 10
    assert rules.building_energy("station") == 0
    assert rules.factory_limit() == 500
    assert rules.factory_limit(["extension_of_production"]) == 800


def test_total_weight_counts_weapons_and_the_extension() -> None:
    """Seed: 'Each weapon adds 1 ... light ..., 2 ... normal ... and 3 for heavy';
    extension: 'It will gain 1 weight.'"""
    assert rules.total_weight("hellound", ["M", "M"]) == 4 + 4
    assert rules.total_weight("hellound", ["H", "M"], extension=True) == 4 + 1 + 3 + 2
    assert rules.total_weight("lorry", []) == 3
    assert rules.total_weight("epaulard", ["L", "L"]) == 3
    with pytest.raises(rules.RuleViolation):
        rules.total_weight("golem", ["X"])


def test_slots_accept_their_size_and_smaller() -> None:
    """Seed: 'A "H" Weapon slot means you can fit either a Heavy weapon, a Medium weapon
    or a Light Weapon on it, a "M" slot a Medium or a Light weapon, an a "L" slot a Light
    weapon.' 'You can fit as many weapon system on a vehicle as it has weapon slots.'"""
    rules.validate_loadout("golem", ["H"])
    rules.validate_loadout("golem", ["L"])
    rules.validate_loadout("arakne", ["H", "M"])
    rules.validate_loadout("arakne", ["L", "M"])
    rules.validate_loadout("epaulard", ["L", "L"])
    rules.validate_loadout("lorry", [])
    for vehicle, sizes in [("kanker", ["H"]), ("golem", ["M", "L"]), ("arakne", ["H", "H"]),
                           ("shark", ["M"]), ("lorry", ["L"]), ("hellound", ["H", "M"])]:
        with pytest.raises(rules.RuleViolation):
            rules.validate_loadout(vehicle, sizes)
    assert rules.slots_fit(("M", "H"), ("M", "H"))
    assert not rules.slots_fit(("M", "M"), ("H",))


def test_extension_turns_one_hellound_m_slot_into_h_r_tab_14() -> None:
    """Seed: 'the Blood Hound can see one of its M slots turned into a H slot'. R-TAB-14:
    the Blood Hound is the Hellound."""
    assert rules.vehicle_slots("hellound", extension=True) == ("H", "M")
    rules.validate_loadout("hellound", ["H", "M"], extension=True)
    with pytest.raises(rules.RuleViolation):
        rules.vehicle_slots("lycaon", extension=True)


def test_exo_armor_may_add_a_light_shield() -> None:
    """Seed: 'even when given a weapon, they can always take an additional light shield.'"""
    rules.validate_loadout("shark", ["L"], light_shield=True)
    with pytest.raises(rules.RuleViolation):
        rules.validate_loadout("golem", ["H"], light_shield=True)
    assert rules.shield_for("L") == rules.SHIELDS["light"]


def test_level_for_xp_to_next_level_r_tab_2() -> None:
    """Seed: 'Level 1 .. 8 / XP 5 .. 40'. R-TAB-2 (default): the XP under a level is what
    it takes to leave it: 0-4 level 1, 5 level 2, ..., 35 level 8 (maximum)."""
    expected = {0: 1, 4: 1, 5: 2, 9: 2, 10: 3, 15: 4, 20: 5, 25: 6, 30: 7, 34: 7, 35: 8,
                40: 8, 500: 8}
    for xp, level in expected.items():
        assert rules.level_for_xp(xp) == level, xp
    assert [rules.xp_for_level(lv) for lv in range(1, 9)] == [0, 5, 10, 15, 20, 25, 30, 35]


def test_level_for_xp_to_reach_level_option() -> None:
    """R-TAB-2 alternative 'to_reach_level': the XP is the total needed to be that level
    (floor level 1): 0-9 level 1, 10 level 2, ..., 40 level 8."""
    expected = {0: 1, 5: 1, 9: 1, 10: 2, 35: 7, 39: 7, 40: 8, 100: 8}
    for xp, level in expected.items():
        assert rules.level_for_xp(xp, reading="to_reach_level") == level, xp
    assert rules.xp_for_level(8, reading="to_reach_level") == 40
    with pytest.raises(rules.RuleViolation):
        rules.level_for_xp(-1)
    with pytest.raises(rules.RuleViolation):
        rules.level_for_xp(3, reading="sideways")


@given(st.integers(min_value=0, max_value=200), st.sampled_from(rules.XP_TABLE_READINGS))
def test_level_for_xp_is_monotonic_and_inverts_xp_for_level(xp: int, reading: str) -> None:
    """Levels never drop as XP grows, stay within 1..8, and xp_for_level is the least XP."""
    level = rules.level_for_xp(xp, reading=reading)
    assert 1 <= level <= 8
    assert rules.level_for_xp(xp + 1, reading=reading) >= level
    assert rules.xp_for_level(level, reading=reading) <= xp
    if level < 8:
        assert rules.xp_for_level(level + 1, reading=reading) > xp


def test_vehicle_lookup_accepts_the_seed_name() -> None:
    """API.md: 'golem'/'Golem' both accepted."""
    assert rules.vehicle("Golem") is rules.VEHICLES["golem"]
    assert rules.vehicle("Heavy Charger") is rules.VEHICLES["heavy_charger"]
    with pytest.raises(rules.RuleViolation):
        rules.vehicle("tank")
