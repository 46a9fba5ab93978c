"""Every row of every table of the seed, compared with `campaign.rules`.

The seed text (docs/seed-unlimit3d-8.txt) is parsed by tests/rules/seed.py, which
shares no code with the tables; a typo in either side fails here. Deviations from
the printed text are the rulings of docs/RULINGS.md ("Tables") and are asserted as
such, so they cannot drift silently.
"""

from __future__ import annotations

import re

import pytest

from tests.rules import seed
from tests.rules import unlimit3d8 as rules


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\xa0", " ")).strip()


# ---------------------------------------------------------------- buildings


def test_there_is_one_building_table_per_building_of_the_readme_mapping() -> None:
    """Seed: 16 tables 'Cost Energy / tun Armor Hit points Requirement', matched in
    order to Bunker ... Warehouse (seeds README)."""
    assert len(seed.building_rows()) == 16
    assert set(rules.BUILDINGS) == set(seed.BUILDING_ORDER)
    assert tuple(rules.BUILDINGS) == seed.BUILDING_ORDER


@pytest.mark.parametrize(("index", "key"), list(enumerate(seed.BUILDING_ORDER)))
def test_building_row_matches_the_seed(index: int, key: str) -> None:
    """Seed: each building's 'Cost Energy / tun Armor Hit points Requirement' row;
    energy 'none'/'None' is 0."""
    row = seed.building_rows()[index]
    spec = rules.BUILDINGS[key]
    assert spec.key == key
    assert (spec.cost, spec.energy, spec.armor, spec.hit_points, spec.requires) == (
        row["cost"], row["energy"], row["armor"], row["hit_points"], row["requires"]
    )
    if spec.requires is not None:
        assert spec.requires in rules.BUILDINGS


def test_building_costs_named_in_the_readme_mapping() -> None:
    """Seeds README: 'Bunker (50 SC), ... Factory (500), ... Foundry (200), Laboratory
    (300), ... Radar (50), Refinery (300), Station (20), Turret (200), Warehouse (10)'."""
    costs = {"bunker": 50, "factory": 500, "foundry": 200, "laboratory": 300, "radar": 50,
             "refinery": 300, "station": 20, "turret": 200, "warehouse": 10}
    for key, cost in costs.items():
        assert rules.BUILDINGS[key].cost == cost


def test_turret_text_line_agrees_with_its_table() -> None:
    """Seed, Turret: 'Cost : 200 Energy needed : 20 Armor : 5 Hit Points : 20'."""
    n = seed.number
    t = rules.BUILDINGS["turret"]
    assert n(r"Cost : (\d+) Energy needed") == t.cost
    assert n(r"Energy needed : (\d+)") == t.energy
    assert n(r"Energy needed : \d+ Armor : (\d+)") == t.armor
    assert n(r"Armor : \d+ Hit Points : (\d+)") == t.hit_points


@pytest.mark.parametrize(("index", "key"), list(enumerate(seed.BUILDING_ORDER)))
def test_building_upgrades_and_their_costs_match_the_seed(index: int, key: str) -> None:
    """Seed: the bulleted upgrades under each building ('Power efficiency (Cost : 100)',
    'Upgrade Ablative armor (20)', 'Turret (cost 100)', ...)."""
    printed = seed.upgrades_in(seed.building_rows()[index]["section"])
    spec = rules.BUILDINGS[key]
    assert {k: u.cost for k, u in spec.upgrades.items()} == printed
    for k, u in spec.upgrades.items():
        assert u.key == k


def test_power_efficiency_new_energy_follows_the_text_or_ruling_r_tab_6() -> None:
    """Seed: factory 'drops from 30 to 15'; refinery 'drops from 20 to 10'; the foundry
    text also says 'from 30 to 15' while its table says 15 -> R-TAB-6: halved to 7."""
    sections = dict(zip(seed.BUILDING_ORDER, seed.building_rows(), strict=True))
    for key in ("factory", "refinery", "foundry"):
        m = re.search(r"drops from (\d+) to (\d+)", sections[key]["section"])
        assert m
        before, after = int(m.group(1)), int(m.group(2))
        upgrade = rules.BUILDINGS[key].upgrades["power_efficiency"]
        if key == "foundry":
            assert (before, after) == (30, 15)  # the printed contradiction
            assert rules.BUILDINGS[key].energy == 15
            assert upgrade.energy_after == 15 // 2 == 7
        else:
            assert rules.BUILDINGS[key].energy == before
            assert upgrade.energy_after == after
        assert rules.building_energy(key, ["power_efficiency"]) == upgrade.energy_after


def test_other_upgrade_effects_are_structured_from_their_text() -> None:
    """Seed: 'up to 800 Credits', 'additional 10 Hit Points, with armor 5', '+1 to their
    Will skill', 'twice as much power'."""
    b = rules.BUILDINGS
    assert b["factory"].upgrades["extension_of_production"].production_limit_after == \
        seed.number(r"produce up to (\d+) Credits worth")
    ablative = b["concrete_barricade"].upgrades["ablative_armor"]
    assert ablative.extra_hit_points == seed.number(r"an additional (\d+) Hit Points")
    assert ablative.extra_armor_value == seed.number(r"Hit Points, with armor (\d+)")
    assert b["command_center"].upgrades["tactic_control"].will_bonus == \
        seed.number(r"a \+(\d+) to their Will skill")
    assert b["power_plant"].upgrades["enhanced_generators"].power_multiplier == 2
    assert "twice as much power" in seed.text()
    assert b["bunker"].upgrades["turret"].cost == b["command_center"].upgrades["turret"].cost


def test_starting_buildings_are_the_five_the_seed_names() -> None:
    """Seed: 'It comes with a Station, Command center, Power plant, Radar, and Landing pad.'"""
    m = re.search(r"It comes with a (.+?)\. ", seed.text())
    assert m
    names = [seed.snake(re.sub(r"^\s*and ", "", n)) for n in m.group(1).split(",")]
    assert tuple(names) == rules.STARTING_BUILDINGS


# ---------------------------------------------------------------- exploration


def test_resource_rows_match_the_seed() -> None:
    """Seed: 'Score Resource type Raw value Refined value Can be refined with :' table."""
    printed = seed.resource_rows()
    assert len(printed) == len(rules.RESOURCES) == 7
    for row, spec in zip(printed, rules.RESOURCES, strict=True):
        assert (spec.key, spec.low, spec.high, spec.raw_value, spec.refined_value) == (
            row["key"], row["low"], row["high"], row["raw_value"], row["refined_value"])
        assert tuple(sorted(spec.refined_with)) == row["refined_with"]


def test_resource_scores_cover_every_3d8_sum_once() -> None:
    """Seed: scores 3-8 ... 19-24 cover the exploration roll (3d8: 3..24)."""
    for total in range(3, 25):
        spec = rules.resource_for_score(total)
        assert spec.low <= total <= spec.high
    for bad in (2, 25):
        with pytest.raises(rules.RuleViolation):
            rules.resource_for_score(bad)


def test_mine_yield_matches_the_seed() -> None:
    """Seed: 'Result Units / Turn' 1 1, 2-3 2, 4-5 3, 6-7 4, 8 5."""
    assert seed.mine_yield_rows() == rules.MINE_YIELD


def test_purity_instability_and_discovery_thresholds() -> None:
    """Seed: 'Passive die : on 7+, ... exceptionally pure', '150% (rounded down)',
    '2- : the ground is unstable', 'on a 1, the shaft doesn't produce', '8+ : you find'."""
    assert seed.number(r"Passive die : on (\d)\+") == rules.PURE_PASSIVE_MIN
    assert seed.number(r"at (\d+)% \(rounded down\) of their raw price") == \
        rules.PURE_PRICE_PERCENT
    assert seed.number(r"(\d)- : the ground is unstable") == rules.UNSTABLE_NEMESIS_MAX
    assert seed.number(r"on a (\d), the shaft doesn't produce") == rules.UNSTABLE_FAIL_FACE
    assert seed.number(r"(\d)\+ : you find something unexpected") == \
        rules.DISCOVERY_NEMESIS_MIN


def test_discovery_table_matches_the_seed() -> None:
    """Seed: '1-4 : A shipwreck ... 1d8x10 SC', '5-6 : Xenotechnologic elements, worth
    d8x20 SC', '7 : ... sell it for 200 credits', '8 : Xeno craft'."""
    t = seed.text()
    assert re.search(r"1-4 : A shipwreck.*1d8x10 SC", t)
    assert re.search(r"5-6 : Xenotechnologic elements, worth d8x20 SC", t)
    assert re.search(r"7 : Xenotechnologic artifact\. You can either sell it for 200", t)
    assert re.search(r"8 : Xeno craft : all your laboratories produce twice", t)
    expected = {1: "shipwreck", 2: "shipwreck", 3: "shipwreck", 4: "shipwreck",
                5: "xenotech", 6: "xenotech", 7: "artifact", 8: "xeno_craft"}
    assert {f: rules.discovery_for_face(f).key for f in range(1, 9)} == expected
    d = rules.DISCOVERIES_BY_KEY
    assert d["shipwreck"].credits_die_multiplier == 10
    assert d["xenotech"].credits_die_multiplier == 20
    assert (d["artifact"].sell_value, d["artifact"].lab_multiplier) == (200, 2)
    assert d["xeno_craft"].all_laboratories and d["xeno_craft"].unique_per_campaign
    assert d["xeno_craft"].duplicate_becomes == "artifact"
    with pytest.raises(rules.RuleViolation):
        rules.discovery_for_face(9)


# ---------------------------------------------------------------- operatives


@pytest.mark.parametrize("key", seed.PILOT_ORDER)
def test_pilot_class_table_matches_the_seed(key: str) -> None:
    """Seed: four 'Hiring Cost : N' tables of 'Level Pilot Fight Tech Will Init', in the
    order Bandit (10), Scientist (10), Soldier (5), Worker (5) (seeds README)."""
    printed = seed.pilot_tables()[key]
    spec = rules.PILOT_CLASSES[key]
    assert spec.hiring_cost == printed["hiring_cost"]
    assert len(spec.levels) == 8
    for row, line in zip(printed["rows"], spec.levels, strict=True):
        as_printed = rules.skill_line(key, row[0], bandit_level8_row="as_printed")
        assert (as_printed.level, as_printed.pilot, as_printed.fight, as_printed.tech,
                as_printed.will, as_printed.init) == row
        if not (key == "bandit" and row[0] == 8):
            assert line == as_printed
    assert len(spec.bonus_xp) == len(printed["bonus"]) == 2


def test_pilot_class_order_and_costs() -> None:
    """Seeds README: 'Bandit (hiring cost 10), Scientist (10), Soldier (5), Worker (5)'."""
    assert tuple(rules.PILOT_CLASSES) == seed.PILOT_ORDER
    assert [p.hiring_cost for p in rules.PILOT_CLASSES.values()] == [10, 10, 5, 5]


def test_bandit_level_8_as_printed_and_corrected_r_tab_1() -> None:
    """Seed: the level-8 Bandit row reads '8 17 13 1 1 5'. R-TAB-1: the game uses
    17 13 11 11 5 (Tech/Will rise every second level like the Soldier's, whose level 8
    is 11 11) unless the campaign picks 'as_printed'."""
    assert seed.pilot_tables()["bandit"]["rows"][7] == (8, 17, 13, 1, 1, 5)
    assert rules.SkillLine(8, 17, 13, 1, 1, 5) == rules.BANDIT_L8_AS_PRINTED
    corrected = rules.skill_line("bandit", 8)
    assert corrected == rules.SkillLine(8, 17, 13, 11, 11, 5)
    assert rules.skill_line("bandit", 8, bandit_level8_row="as_printed") == \
        rules.BANDIT_L8_AS_PRINTED
    soldier = seed.pilot_tables()["soldier"]["rows"]
    bandit = seed.pilot_tables()["bandit"]["rows"]
    assert [r[3:5] for r in bandit[:7]] == [r[3:5] for r in soldier[:7]]
    assert corrected.tech == soldier[7][3] and corrected.will == soldier[7][4]
    with pytest.raises(rules.RuleViolation):
        rules.skill_line("bandit", 8, bandit_level8_row="whatever")
    with pytest.raises(rules.RuleViolation):
        rules.skill_line("bandit", 9)


def test_bonus_xp_keys_follow_each_class_list() -> None:
    """Seed: 'A Bandit gains one extra XP if : steal a cargo ... destroy one enemy unit',
    scientist 'piracy attempt' / 'xenotech', soldier 'once per battle' x2, worker
    'repair another unit' / 'exceptionally pure'."""
    printed = seed.pilot_tables()
    words = {"steal_cargo": "steal a cargo", "destroy_unit": "destroy one enemy unit",
             "piracy_success": "piracy attempt", "xenotech_discovery": "xenotech",
             "destroy_unit_once_per_battle": "destroyed an enemy unit",
             "destroy_building_once_per_battle": "destroyed an enemy building",
             "repair_other_unit": "repair another unit",
             "pure_deposit_discovery": "exceptionally pure"}
    for key, spec in rules.PILOT_CLASSES.items():
        for bonus, sentence in zip(spec.bonus_xp, printed[key]["bonus"], strict=True):
            assert words[bonus] in sentence
            if bonus.endswith("once_per_battle"):
                assert "once per battle" in sentence


def test_xp_levels_match_the_seed() -> None:
    """Seed: 'Level 1 2 3 4 5 6 7 8' / 'XP 5 10 15 20 25 30 35 40'."""
    assert list(rules.XP_LEVELS) == seed.xp_row()
    assert seed.number(r"a character is awarded (one) Experience Point") == rules.SURVIVAL_XP


# ---------------------------------------------------------------- weapons


def test_every_weapon_row_matches_the_seed() -> None:
    """Seed: 'Weapon Type Base Dmg. Misfire Range Inc. Base CDwn Special Cost' table;
    'A+10' -> 10, '1-' -> 1, '-' -> None."""
    printed = seed.weapon_rows()
    assert len(printed) == 14
    for key, row in printed.items():
        spec = rules.WEAPONS[key]
        assert spec.type == row["type"], key
        assert spec.base_damage == row["base_damage"], key
        assert spec.damage_special == (row["damage_printed"] == "Special"), key
        assert spec.misfire == row["misfire"], key
        assert spec.range_increment == row["range_increment"], key
        assert spec.base_cooldown == row["base_cooldown"], key
        assert spec.cost == row["cost"], key
        assert spec.blast_radius == row["blast_radius"], key
        assert spec.special == row["special"], key
    assert set(rules.WEAPONS) == {*printed, "designator"}


def test_designator_line() -> None:
    """Seed: 'Designator (cost : 20) (L)'; 'A missile deals 40 damages in a 4" radius.'"""
    assert seed.number(r"Designator \(cost : (\d+)\) \(L\)") == rules.WEAPONS["designator"].cost
    assert rules.weapon_size("designator") == "L"
    assert seed.number(r"A missile deals (\d+) damages") == rules.MISSILE_DAMAGE
    assert seed.number(r'damages in a (\d+)" radius') == rules.MISSILE_RADIUS
    assert seed.number(r'must be within (\d+)" of its target') == rules.DESIGNATOR_RANGE


def test_special_keys_are_known() -> None:
    """Seed, 'Special Rules': Spread, No line of sight, Blast, Warp, Piracy, Shield."""
    for spec in rules.WEAPONS.values():
        assert set(spec.special) <= set(rules.SPECIAL_KEYS)
        assert spec.type in rules.WEAPON_TYPES
    for name in ("Spread :", "No line of sight :", "Blast :", "Warp :", "Piracy :", "Shield :"):
        assert name in seed.text()


def test_shield_rows_match_the_seed() -> None:
    """Seed: 'Size Extra HP Armor bonus to defense' Light 5 +1 +4, Medium 10 +2 +6,
    Heavy 15 +3 +8."""
    printed = seed.shield_rows()
    assert list(rules.SHIELDS) == list(printed)
    for size, (hp, armor, defense) in printed.items():
        s = rules.SHIELDS[size]
        assert (s.size, s.extra_hp, s.armor_bonus, s.defense_bonus) == (size, hp, armor, defense)


# ---------------------------------------------------------------- templates


def test_every_template_row_matches_the_seed() -> None:
    """Seed: the four 'Template Effects Cost' tables (General, Solid / Explosive, Energy
    Only, Explosive Only): effect text and cost as printed."""
    printed = seed.template_rows()
    assert list(rules.TEMPLATES) == list(printed)
    for key, row in printed.items():
        spec = rules.TEMPLATES[key]
        assert norm(spec.effect) == norm(row["effect"]), key
        assert spec.cost_text == row["cost"], key
        assert spec.group == row["group"], key
        passive = re.match(r"Passive (\d)\+", norm(row["effect"]))
        assert spec.passive == bool(passive), key
        if passive:
            assert spec.passive_min == int(passive.group(1)), key


def test_template_groups_apply_to_their_weapon_types_r_tab_9() -> None:
    """Seed headings: General Templates (all), 'Solid / Explosive', 'Energy Only',
    'Explosive Only'; R-TAB-9: 'Explosive' is the Projectile type."""
    groups = {"general": set(rules.WEAPON_TYPES), "solid_explosive": {"solid", "projectile"},
              "energy": {"energy"}, "explosive": {"projectile"}}
    for spec in rules.TEMPLATES.values():
        assert set(spec.applies_to) == groups[spec.group], spec.key


def test_template_structured_effects_agree_with_their_text() -> None:
    """Seed: 'Dmg +25% (rounded down), CD+1, passive effect threshold -1' etc."""
    t = rules.TEMPLATES
    assert (t["heavy"].damage_percent, t["heavy"].cooldown_delta,
            t["heavy"].passive_threshold_delta, t["heavy"].size) == (25, 1, -1, "H")
    assert (t["light"].damage_percent, t["light"].cooldown_delta,
            t["light"].passive_threshold_delta, t["light"].size) == (-25, -1, 1, "L")
    assert t["accurate"].range_increment_delta == -1
    assert (t["low_quality"].range_increment_delta, t["low_quality"].mishap_delta) == (1, 2)
    assert t["explosive_warheads"].damage_flat == 2 and t["explosive_warheads"].mishap_delta == 2
    assert t["explosive_warheads"].counts_as == "energy"
    assert t["hardpoint"].ignore_armor == "half"
    assert t["haywire"].damage_set == 0
    assert t["roaring"].only_weapons == ("machine_gun",)
    assert t["roaring"].grants_special == ("spread",)
    assert (t["roaring"].damage_flat, t["roaring"].mishap_delta) == (2, 1)
    assert (t["rof_up"].cooldown_percent, t["rof_up"].range_increment_delta,
            t["rof_up"].mishap_delta) == (-50, 1, 2)
    assert (t["emp"].damage_flat, t["emp"].cdt_to_target) == (-1, 3)
    assert (t["high_frequency"].ignore_armor, t["high_frequency"].mishap_delta) == ("all", 2)
    assert (t["overload"].damage_percent, t["overload"].cooldown_percent) == (25, 25)
    assert (t["plasma"].passive_damage_flat, t["plasma"].passive_cdt_to_target,
            t["plasma"].mishap_delta) == (4, 2, 2)
    assert t["tactical_warheads"].blast_radius_delta == 4
    assert t["concussion"].passive_damage_multiplier == 2
    assert "Low Quality cannot be combined with Accurate" in seed.text()
    assert "low_quality" in t["accurate"].excludes and "accurate" in t["low_quality"].excludes


# ---------------------------------------------------------------- vehicles


def test_every_vehicle_row_matches_the_seed() -> None:
    """Seed: 'Vehicle Weapon Slots Size Weight Armor Hit Points Cost' under Assault
    Vehicles, Utility Vehicles and Exo Armor; '1M, 1H' -> (M, H), '2M' -> (M, M),
    'H' -> (H,), 'None' -> ()."""
    printed = seed.vehicle_rows()
    assert list(rules.VEHICLES) == list(printed)
    for key, row in printed.items():
        v = rules.VEHICLES[key]
        assert (v.category, v.slots, v.size, v.weight, v.armor, v.hit_points, v.cost) == (
            row["category"], row["slots"], row["size"], row["weight"], row["armor"],
            row["hit_points"], row["cost"]), key


def test_extension_weight_and_slot_rules() -> None:
    """Seed: 'for 25 credits, the Blood Hound can see one of its M slots turned into a H
    slot. It will gain 1 weight.'; 'Each weapon adds 1 ... light ..., 2 for normal ...
    and 3 for heavy'; 'A "H" Weapon slot means ... Heavy ..., Medium ... or Light'."""
    assert seed.number(r"Extension : for (\d+) credits") == rules.EXTENSION_COST
    assert seed.number(r"It will gain (\d+) weight") == rules.EXTENSION_WEIGHT
    assert rules.EXTENSION_VEHICLES == ("hellound",)
    assert seed.number(r"Each weapon adds (\d+) to the weight for light") == \
        rules.WEAPON_WEIGHT["L"]
    assert seed.number(r"(\d+) for normal weapons") == rules.WEAPON_WEIGHT["M"]
    assert seed.number(r"(\d+) for heavy weapons") == rules.WEAPON_WEIGHT["H"]
    assert rules.SLOT_ACCEPTS == {"H": ("H", "M", "L"), "M": ("M", "L"), "L": ("L",)}


# ---------------------------------------------------------------- move table


def test_move_table_weight_bands_match_the_seed() -> None:
    """Seed: move table rows '1-2' ... '15-16'."""
    printed = seed.move_rows()
    assert [band for band, _ in printed] == list(rules.MOVE_WEIGHT_BANDS)


@pytest.mark.parametrize("row", range(8))
@pytest.mark.parametrize("skill", range(1, 9))
def test_every_move_table_cell_matches_the_seed(row: int, skill: int) -> None:
    """Seed: 'Pilot Skill 1 .. 8' / 'Total Weight Move Increment / Max Move' (64 cells)."""
    (low, high), cells = seed.move_rows()[row]
    for weight in (low, high):
        assert rules.move_stats(weight, skill) == cells[skill - 1]
    assert rules.MOVE_TABLE[row][skill - 1] == cells[skill - 1]


def test_move_table_clamps_r_tab_5() -> None:
    """R-TAB-5: weight 0 reads the 1-2 row, above 16 the 15-16 row; levels clamp to 1..8."""
    assert rules.move_stats(0, 1) == rules.move_stats(1, 1)
    assert rules.move_stats(30, 3) == rules.move_stats(16, 3)
    assert rules.move_stats(5, 12) == rules.move_stats(5, 8)
    assert rules.move_stats(5, 0) == rules.move_stats(5, 1)


# ---------------------------------------------------------------- constants


CONSTANTS = [
    (r"At the beginning of a campaign, (\d+) Stellar Credits", "STARTING_CREDITS"),
    (r"divided into (\d+)x\d+ squares", "GRID_SIZE"),
    (r"Each power plant produces (\d+) points of energy", "POWER_PLANT_OUTPUT"),
    (r"may contain up to (\w+) units of one single resource", "CONTAINER_UNITS"),
    (r"A warehouse can store up to (\w+) containers", "WAREHOUSE_CONTAINERS"),
    (r"You can ship (\w+) containers each commercial turn", "CONTAINERS_PER_PAD"),
    (r"A foundry .* It can convert (\d+) units", "CONVERSION_PER_TURN"),
    (r"A refinery .* It can convert (\d+) units", "CONVERSION_PER_TURN"),
    (r"a factory can only build up to (\d+) Credits", "FACTORY_LIMIT"),
    (r"The Factory become able to produce up to (\d+) Credits", "FACTORY_LIMIT_EXTENDED"),
    (r"They cost (\d+) SC each", "MISSILE_COST"),
    (r"A missile silo houses up to (\w+) tactical missiles", "SILO_CAPACITY"),
    (r"A bunker can shelter up to (\w+) of your operatives", "BUNKER_CAPACITY"),
    (r"an additional armor of (\d+)", "FORCE_FIELD_ARMOR"),
    (r"must destroy all (\d+) force field generators", "FORCE_FIELD_GENERATORS"),
    (r"each force field generator has (\d+) Hit points", "FORCE_FIELD_GENERATOR_HP"),
    (r"all buildings are considered to have a defense value of (\d+)", "BUILDING_DEFENSE"),
    (r"Base defense = (\d+) \+ Pilot skill", "BASE_DEFENSE_CONSTANT"),
    (r"Minimum Base defense is (\d+)", "BASE_DEFENSE_MINIMUM"),
    (r"A weapon can have up to (\w+) different templates", "MAX_TEMPLATES"),
    (r"only (\w+) of which can induce passive effects", "MAX_PASSIVE_TEMPLATES"),
    (r"Any range attack .* receive (\w+) additional rang increments",
     "BARRICADE_EXTRA_RANGE_INCREMENTS"),
    (r"on a Tech skill roll of (\d+)", "TURRET_PIRACY_DIFFICULTY"),
    (r"takes (\d)CDT by territory", "DESIGNATION_CDT_PER_TERRITORY"),
    (r"issues an order takes (\w+) CDT", "ORDER_CDT"),
    (r"The difficulty is the same, plus (\d+)", "IMMOBILIZE_EXTRA_DIFFICULTY"),
    (r"The roll difficulty is (\d+) x the target number of hitpoint", "REPAIR_DIFFICULTY_PER_HP"),
]


@pytest.mark.parametrize(("pattern", "name"), CONSTANTS)
def test_constant_matches_its_sentence(pattern: str, name: str) -> None:
    """Each constant is read from the sentence of the seed quoted in its pattern."""
    assert seed.number(pattern) == getattr(rules, name)


def test_container_capacity_and_factory_recipe() -> None:
    """Seed: 'A container can contain one armor, or five light weapons, or three medium
    weapons, or one heavy weapon.'; 'For each 100 Credits ... 1 unit of common gas, 2
    units of minerals, 2 units of common metal and 1 unit of precious metal.'"""
    n = seed.number
    assert n(r"A container can contain (\w+) armor") == rules.CONTAINER_ITEM_CAPACITY["armor"]
    assert n(r"or (\w+) light weapons") == rules.CONTAINER_ITEM_CAPACITY["L"]
    assert n(r"or (\w+) medium weapons") == rules.CONTAINER_ITEM_CAPACITY["M"]
    assert n(r"or (\w+) heavy weapon\.") == rules.CONTAINER_ITEM_CAPACITY["H"]
    assert n(r"For each (\d+) Credits needed") == rules.FACTORY_CREDITS_STEP
    for key, pattern in [("common_gas", r"bring the factory (\d+) unit of common gas"),
                         ("minerals", r"(\d+) units of minerals"),
                         ("common_metal", r"(\d+) units of common metal"),
                         ("precious_metal", r"(\d+) unit of precious metal")]:
        assert n(pattern) == rules.FACTORY_RECIPE_PER_100[key]
    assert set(rules.FACTORY_RECIPE_PER_100) <= set(rules.RESOURCES_BY_KEY)


def test_skill_multipliers_match_the_unit_card() -> None:
    """Seed, unit card H: 'skill scores multiplied by 0.5, 1, 1.5, 2, 2.5, 3 and 3.5'."""
    m = re.search(r"multiplied by ([\d., ]+) and ([\d.]+) respectively", seed.text())
    assert m
    printed = [float(x) for x in m.group(1).replace(" ", "").split(",")] + [float(m.group(2))]
    assert [float(x) for x in rules.SKILL_MULTIPLIERS] == printed
