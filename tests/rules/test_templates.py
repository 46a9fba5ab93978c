"""Weapon templates: which combinations are legal, prices, sizes and stat lines."""

from __future__ import annotations

import itertools

import pytest

from campaign import rules


def refused(weapon: str, templates: list[str], words: str) -> None:
    with pytest.raises(rules.RuleViolation) as info:
        rules.validate_templates(weapon, templates)
    assert words.lower() in str(info.value).lower()


def test_up_to_three_templates_only_one_passive() -> None:
    """Seed: 'A weapon can have up to three different templates added to its stat line,
    only one of which can induce passive effects.'"""
    rules.validate_templates("cannon", ["heavy", "accurate", "concussion"])
    refused("cannon", ["heavy", "accurate", "hardpoint", "concussion"], "up to 3")
    refused("cannon", ["hardpoint", "hardpoint"], "only once")
    refused("cannon", ["concussion", "corrosive"], "passive")
    refused("beamer", ["plasma", "combustion"], "passive")


def test_low_quality_excludes_accurate_and_heavy_excludes_light_r_tab_11() -> None:
    """Seed: 'Low Quality cannot be combined with Accurate'. R-TAB-11: Heavy and Light
    contradict each other and cannot be combined either."""
    refused("cannon", ["low_quality", "accurate"], "cannot be combined")
    refused("cannon", ["accurate", "low_quality"], "cannot be combined")
    refused("cannon", ["heavy", "light"], "cannot be combined")
    rules.validate_templates("cannon", ["light", "low_quality"])


def test_template_groups_by_weapon_type_r_tab_9() -> None:
    """Seed headings 'Solid / Explosive', 'Energy Only', 'Explosive Only'. R-TAB-9:
    Explosive = the Projectile type."""
    rules.validate_templates("missile_launcher", ["hardpoint"])
    rules.validate_templates("cannon", ["hardpoint"])
    refused("beamer", ["hardpoint"], "applies to")
    refused("cannon", ["plasma"], "applies to")
    refused("cannon", ["tactical_warheads"], "applies to")
    rules.validate_templates("beamer", ["overload", "heavy"])
    rules.validate_templates("warp_drive", ["light"])


def test_roaring_machine_gun_only() -> None:
    """Seed: 'Roaring | Machine gun only, obtains spread quality, Damages+2, Mishap +1'."""
    rules.validate_templates("machine_gun", ["roaring"])
    refused("cannon", ["roaring"], "can only be added to")


def test_tactical_warheads_need_a_blast_r_tab_12() -> None:
    """Seed: 'Tactical Warheads | Adds 4" to blast radius'. R-TAB-12: only on a weapon
    with a blast radius."""
    rules.validate_templates("grenade_launcher", ["tactical_warheads"])
    refused("missile_launcher", ["tactical_warheads"], "blast")
    assert rules.effective_weapon("missile_pod", ["tactical_warheads"]).blast_radius == 8


def test_designator_takes_no_template_and_unknown_keys_refused_r_tab_3() -> None:
    """Seed: 'Designator ... (L) : This isn't a weapon as such'."""
    refused("designator", ["heavy"], "no templates")
    refused("cannon", ["golden"], "unknown template")
    with pytest.raises(rules.RuleViolation):
        rules.validate_templates("laser", [])


def test_weapon_price_r_tab_13() -> None:
    """Seed: template costs '+50%', '-50%', '+10'... 'When purchasing or building a weapon,
    it must have the different templates applied on it and paid for.' R-TAB-13: percents
    summed on the base cost (rounded down), flats added, never below 1 SC."""
    assert rules.weapon_price("cannon") == 16
    assert rules.weapon_price("cannon", ["heavy"]) == 24
    assert rules.weapon_price("cannon", ["light"]) == 8
    assert rules.weapon_price("cannon", ["heavy", "accurate"]) == 32
    assert rules.weapon_price("cannon", ["heavy", "accurate", "concussion"]) == 42
    assert rules.weapon_price("missile_pod", ["tactical_warheads"]) == 34
    assert rules.weapon_price("machine_gun", ["light", "low_quality"]) == 1
    assert rules.weapon_price("machine_gun", ["light", "low_quality", "roaring"]) == 5
    with pytest.raises(rules.RuleViolation):
        rules.weapon_price("cannon", ["heavy", "light"])


def test_every_legal_combination_has_a_positive_price() -> None:
    """All weapons x all template sets up to three: legal ones price at 1 SC or more."""
    legal = 0
    for weapon in rules.WEAPONS:
        for n in range(4):
            for combo in itertools.combinations(rules.TEMPLATES, n):
                try:
                    rules.validate_templates(weapon, combo)
                except rules.RuleViolation:
                    continue
                legal += 1
                assert rules.weapon_price(weapon, combo) >= 1
    assert legal > 100


def test_weapon_size_r_tab_3() -> None:
    """R-TAB-3: base weapons are Medium; Heavy makes them Heavy, Light makes them Light."""
    assert rules.weapon_size("cannon") == "M"
    assert rules.weapon_size("cannon", ["heavy"]) == "H"
    assert rules.weapon_size("beamer", ["light", "overload"]) == "L"
    assert rules.weapon_size("designator") == "L"


def test_effective_weapon_stat_lines_r_tab_10_and_15() -> None:
    """Seed: 'Heavy | Dmg +25% (rounded down), CD+1, passive effect threshold -1'; 'If a
    weapon is made "Heavy", and its original passive effect threshold was 7+, it becomes
    6+'; 'Light | Dmg -25% (rounded up), CD-1'. R-TAB-10: changes rounded toward zero
    on the printed value. R-TAB-15: a '-' misfire counts as 0 under Mishap +N."""
    heavy = rules.effective_weapon("cannon", ["heavy", "concussion"])
    assert (heavy.base_damage, heavy.base_cooldown, heavy.size) == (12, 9, "H")
    assert (heavy.passive_template, heavy.passive_min) == ("concussion", 6)
    light = rules.effective_weapon("cannon", ["light"])
    assert (light.base_damage, light.base_cooldown, light.size) == (8, 7, "L")
    rof = rules.effective_weapon("shot_gun", ["rof_up"])
    assert (rof.base_cooldown, rof.range_increment, rof.misfire) == (3, 6, 3)
    hf = rules.effective_weapon("beamer", ["high_frequency"])
    assert (hf.misfire, hf.ignore_armor) == (2, "all")
    assert rules.effective_weapon("beamer").misfire is None
    emp = rules.effective_weapon("buster", ["emp"])
    assert (emp.base_damage, emp.cdt_to_target) == (4, 3)
    haywire = rules.effective_weapon("cannon", ["haywire", "explosive_warheads"])
    assert haywire.base_damage == 0
    roar = rules.effective_weapon("machine_gun", ["roaring"])
    assert (roar.base_damage, roar.misfire, roar.special) == (9, 2, ("spread",))
    over = rules.effective_weapon("beamer", ["overload"])
    assert (over.base_damage, over.base_cooldown) == (17, 7)
    plasma_light = rules.effective_weapon("blaster", ["plasma", "light"])
    assert plasma_light.passive_min == 7
    assert plasma_light.cooldown_for(8) == 1
    assert rules.effective_weapon("cannon").cooldown_for(2) == 6
    acc = rules.effective_weapon("missile_launcher", ["accurate"])
    assert acc.range_increment == 1
    assert acc.price == 30
