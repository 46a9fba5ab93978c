"""Ranged Attack (fight), Assault, cover, barricade, spread, no line of sight, blast,
force field (seed: "Ranged Attack (fight)", "Assault (Fight)", "Special Rules", buildings)."""

import pytest

from battles.rulesets.unlimit3d8.engine.actions import Assault, RangedAttack, perform
from battles.rulesets.unlimit3d8.engine.actions.attack import range_difficulty
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.model import BuildingInput
from tests.engine.helpers import BLUE, RED, rolls, state, unit


def shooter_and_target(faces, dist=9.0, weapon="cannon", target_weapons=("machine_gun",),
                       buildings=(), target_at=None, **kw):
    st = state([unit("s", RED, "paladin", [weapon], at=(10.0, 10.0)),
                unit("t", BLUE, "lycaon", target_weapons, at=target_at or (10.0, 10.0 + dist))],
               buildings, faces, **kw)
    return st, st.units["s"], st.units["t"]


def test_difficulty_is_defense_plus_increment_per_complete_4_inches():
    """ "Difficulty is Base defense + range increment x every complete 4 inches of
    distance." Lycaon defense 16, cannon increment 3, 9" -> two complete 4"."""
    st, s, t = shooter_and_target([])
    difficulty, info = range_difficulty(st, s, s.weapon("cannon"), t)
    assert info["steps"] == 2
    assert difficulty == 16 + 3 * 2


def test_point_blank_has_no_range_penalty():
    """ "Less than 4 inches doesn't give range increment penalty and is considered
    'point blank'" """
    st, s, t = shooter_and_target([], dist=3.9)
    assert range_difficulty(st, s, s.weapon("cannon"), t)[0] == 16


def test_hit_deals_base_damage_plus_active_minus_armor_split_x_and_slash():
    """ "Damages are weapon Base Damage + active die result"; "the target's armor is deduced
    of the damages dealt"; "tick half of them (rounded up) with a cross, the other half with
    a slash". 6+6+6 = 18 -> Fight 8 x3 = 24 >= 22: hit for 10 + 6 - 2 armour = 14."""
    st, s, t = shooter_and_target([6, 6, 6])
    cdt = perform(st, s, RangedAttack("s", "cannon", "t"))
    assert rolls(st)[0]["success"] is True
    assert (t.unrepairable, t.repairable) == (7, 7)
    assert cdt == 7  # cannon base 8 - level 1


def test_score_below_difficulty_misses():
    """ "If your score is equal to or above the difficulty, it's a success." 5+5+5 = 15
    -> x2.5 = 20 < 22."""
    st, s, t = shooter_and_target([5, 5, 5])
    perform(st, s, RangedAttack("s", "cannon", "t"))
    assert t.lost == 0


def test_nemesis_at_or_below_misfire_loses_the_shot():
    """Cannon "Misfire 1-": a nemesis of 1 misfires even when the score would hit
    (R-BAT-12)."""
    st, s, t = shooter_and_target([8, 8, 1], dist=3.0)
    perform(st, s, RangedAttack("s", "cannon", "t"))
    assert "misfire" in rolls(st)[0]["effects"]
    assert t.lost == 0


def test_infantry_range_increment_is_every_2_inches():
    """ "The range increment distance is of 2" instead of 4" for infantry units." """
    st = state([unit("s", RED, "shark", [("machine_gun", ("light",))], at=(10.0, 10.0)),
                unit("t", BLUE, "lycaon", at=(10.0, 15.0))])
    s, t = st.units["s"], st.units["t"]
    _, info = range_difficulty(st, s, s.weapon("machine_gun"), t)
    assert info["steps"] == 2


def test_assault_moves_then_fires_with_2_inch_increments_and_both_cdt():
    """Assault: "The range increment penalty adds up every 2 inches instead of 4. The unit
    takes CDT for both actions". Move 4" (one Move Increment 3 after the free 2"), then 9"
    -> 4 increments of 2"."""
    st, s, _t = shooter_and_target([8, 8, 8], dist=13.0)
    cdt = perform(st, s, Assault("s", (10.0, 14.0), "cannon", "t"))
    assert rolls(st)[0]["steps"] == 4
    assert rolls(st)[0]["difficulty"] == 16 + 3 * 4
    assert cdt == 3 + 7


def test_cover_adds_an_increment_and_a_barricade_two():
    """ "Firing against an opponent that took cover adds a range increment penalty";
    barricade: "Any range attack aimed at a unit hidden behind a barricade will receive two
    additional rang increments". Building square (5, 9) is centred at (11, 19)."""
    st, s, t = shooter_and_target([], buildings=[BuildingInput("w", "warehouse", 5, 9)],
                                  target_at=(10.4, 19.0))
    base = 16 + 3 * 2
    assert range_difficulty(st, s, s.weapon("cannon"), t)[0] == base + 3
    st, s, t = shooter_and_target([], buildings=[BuildingInput("b", "concrete_barricade", 5, 9)],
                                  target_at=(10.4, 19.0))
    assert range_difficulty(st, s, s.weapon("cannon"), t)[0] == base + 6


def test_a_shot_missing_a_unit_behind_a_barricade_hits_the_barricade():
    """ "any missed shot will damage the barricade instead of the unit hidden behind it" """
    st, s, t = shooter_and_target([4, 4, 4], buildings=[BuildingInput("b", "concrete_barricade",
                                                                      5, 9)],
                                  target_at=(10.4, 19.0))
    perform(st, s, RangedAttack("s", "cannon", "t"))
    assert t.lost == 0
    assert st.buildings["b"].lost == 10 + 4 - 2


def test_spread_loses_one_damage_per_4_inches():
    """Spread: "deals 1 less point of damage for each 4 inches of distance". Blaster A+6 at
    9": 6 - 2 + active 8 - armour 2 = 10."""
    st, s, t = shooter_and_target([8, 8, 8], weapon="blaster")
    perform(st, s, RangedAttack("s", "blaster", "t"))
    assert t.lost == 10


def test_spread_doubles_base_damage_at_point_blank_on_nemesis_7():
    """ "At pointblank range, on 7+ on the Nemesis die, its base damage is doubled." """
    st, s, t = shooter_and_target([5, 5, 7], weapon="blaster", dist=3.0)
    perform(st, s, RangedAttack("s", "blaster", "t"))
    assert t.lost == 12 + 5 - 2


def test_no_line_of_sight_weapons_deviate_instead_of_misfiring():
    """No line of sight: "These don't mishap like the others. Instead, they deviate 1/4 of
    the target distance on a random direction." Missile launcher (misfire 1-) at 8",
    direction d8 = 1 (north): impact 2" further; nobody within 1" -> harmless."""
    st, s, t = shooter_and_target([8, 8, 1, 1], weapon="missile_launcher", dist=8.0)
    perform(st, s, RangedAttack("s", "missile_launcher", "t"))
    effects = rolls(st)[0]["effects"]
    assert effects[0] == {"deviation": 1, "impact": [10.0, 20.0]}
    assert "lands_harmlessly" in effects
    assert t.lost == 0


def test_blast_hits_everything_in_its_radius_with_the_same_attack():
    """Blast: "Every unit and building in that distance sustains the same attack as the
    original target." Grenade launcher, blast 4": a second enemy 3" from the target."""
    st = state([unit("s", RED, "paladin", ["grenade_launcher"], at=(10.0, 10.0)),
                unit("t", BLUE, "lycaon", at=(10.0, 15.0)),
                unit("u", BLUE, "lycaon", at=(13.0, 15.0))], [], [8, 8, 8])
    perform(st, st.units["s"], RangedAttack("s", "grenade_launcher", "t"))
    assert st.units["t"].lost == st.units["u"].lost == 8 + 8 - 2


def test_force_field_stops_projectiles_and_adds_5_armor():
    """Force field: "No projectile (missile or grenade) can enter the force field, and any
    unit and building the force field is considered having an additional armor of 5." """
    ff = BuildingInput("ff", "force_field", 5, 9)  # centred (11, 19): covers 9..13 x 17..21
    # R-BAT-11 (default "refused"): the field is in plain sight, the launcher is not fired.
    st, s, t = shooter_and_target([8, 8, 8], weapon="missile_launcher", buildings=[ff],
                                  target_at=(12.0, 19.0))
    with pytest.raises(IllegalActionError, match="force field"):
        perform(st, s, RangedAttack("s", "missile_launcher", "t"))
    assert t.lost == 0 and not rolls(st) and st.dice.count == 0
    # Option "wasted": fired, stopped at the field, the launcher's cool-down taken.
    st, s, t = shooter_and_target([8, 8, 8], weapon="missile_launcher", buildings=[ff],
                                  target_at=(12.0, 19.0))
    st.options["force_field_projectile"] = "wasted"
    cdt = perform(st, s, RangedAttack("s", "missile_launcher", "t"))
    assert t.lost == 0 and not rolls(st) and cdt == s.weapon("missile_launcher").cooldown
    st, s, t = shooter_and_target([8, 8, 8], weapon="cannon", buildings=[ff],
                                  target_at=(12.0, 19.0))
    perform(st, s, RangedAttack("s", "cannon", "t"))
    assert t.lost == 10 + 8 - (2 + 5)


def test_buildings_have_defense_0_but_range_increments_apply():
    """ "For combat purposes, all buildings are considered to have a defense value of 0. A
    roll is still needed to hit, and Range Increments are still in order." """
    st = state([unit("s", RED, "paladin", ["cannon"], at=(10.0, 0.0)),
                unit("x", BLUE, at=(30.0, 30.0))],
               [BuildingInput("w", "warehouse", 4, 4)], [1, 1, 2], defender=BLUE)
    s, w = st.units["s"], st.buildings["w"]
    difficulty, info = range_difficulty(st, s, s.weapon("cannon"), w)
    assert difficulty == 0 + 3 * info["steps"]
    perform(st, s, RangedAttack("s", "cannon", "w", "building"))
    assert difficulty == 6  # 9.06" from the square's centre (9, 9): two increments
    assert rolls(st)[0]["score"] == 4  # 1+1+2 = 4 -> Fight 8 x0.5: a roll is still needed
    assert w.lost == 0


@pytest.mark.parametrize("weapon", ["grappling_arms", "warp_drive"])
def test_only_ranged_weapons_fire(weapon):
    from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
    st, s, _t = shooter_and_target([], weapon=weapon)
    with pytest.raises(IllegalActionError):
        perform(st, s, RangedAttack("s", weapon, "t"))
