"""The unit card (seed, "The Unit Card", move table, weapons and templates)."""

from battles.rulesets.unlimit3d8.engine.card import build_card
from battles.rulesets.unlimit3d8.engine.model import UnitInput, WeaponInput


def card(vehicle, weapons=(), level=1, cls="soldier", shield=None):
    return build_card(UnitInput(1, "red", "x", vehicle, cls, level,
                                tuple(WeaponInput(*w) if isinstance(w, tuple) else WeaponInput(w)
                                      for w in weapons), shield=shield))


def test_base_defense_uses_size_total_weight_and_pilot_skill():
    """ "Base defense = 15 + Pilot skill - (Size + Weight)": a level-1 soldier (Pilot 10) in
    a Lycaon (size 4, weight 3) with a machine gun (medium, +2 weight): 15 + 10 - (4 + 5)."""
    c = card("lycaon", ["machine_gun"])
    assert c.weight == 5
    assert c.base_defense == 16


def test_exo_armor_defense_uses_fight_and_keeps_its_arms_without_a_weapon():
    """ "To calculate ... Base defense of a character in exo armor, replace Pilot skill with
    Fight skill." and "All exo armor count as having a pair of light grappling arms. This does
    not count in the calculation of their weight." Shark: size 0, weight 1, Fight 8."""
    c = card("shark")
    assert c.base_defense == 15 + 8 - (0 + 1)
    assert [w.key for w in c.weapons] == ["grappling_arms"]
    assert c.weapons[0].size == "L"
    assert c.is_infantry
    assert c.max_move_inches == 3.0  # "an exo armor can move up to its max move inches"


def test_vehicle_moves_twice_its_max_move_in_inches():
    """ "A vehicle can move up to its max move x 2 inches in a turn": Paladin + cannon,
    weight 7, level 1: the move table reads 3 / 2."""
    c = card("paladin", ["cannon"])
    assert (c.move_increment, c.max_move) == (3, 2)
    assert c.max_move_inches == 4.0


def test_cooldown_is_base_minus_pilot_level():
    """ "Cool-down is the weapon base minus the Pilot Skill level." Cannon base 8."""
    assert card("paladin", ["cannon"], level=3).weapons[0].cooldown == 5


def test_seven_skill_columns_round_halves_down():
    """ "The seven columns are the skill scores multiplied by 0.5, 1, 1.5, 2, 2.5, 3 and 3.5
    respectively. Halves are rounded down." Fight 9 (soldier level 2)."""
    assert card("paladin", ["cannon"], level=2).column("fight") == (4, 9, 13, 18, 22, 27, 31)


def test_templates_change_the_weapon_line():
    """Heavy: "Dmg +25% (rounded down), CD+1"; Accurate: "Range increment -1"."""
    w = card("paladin", [("cannon", ("heavy", "accurate"))]).weapons[0]
    assert w.base_damage == 12
    assert w.cooldown == 8 + 1 - 1
    assert w.range_increment == 2


def test_shield_adds_its_weight_and_its_close_combat_defense():
    """Shield "Medium: Extra HP 10, Armor +2, bonus to defense +6"."""
    c = card("minotaur", ["grappling_arms"], shield="medium")
    assert c.shield is not None and c.shield.extra_hp == 10
    assert c.weight == 4 + 2 + 2
