"""Warp and Piracy (seed, "Special Rules": Warp, Piracy; R-BAT-22, R-BAT-23, R-BAT-30)."""

import pytest

from battles.rulesets.unlimit3d8.engine.actions import Pass, Piracy, Warp, perform
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.model import BuildingInput, WeaponInput
from battles.rulesets.unlimit3d8.engine.policy import BattleView, DefaultPolicy
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from battles.rulesets.unlimit3d8.engine.turn import play_turn
from tests.engine.helpers import BLUE, RED, battle, rolls, scripted, state, unit

SUM12 = [4, 4, 4]  # Tech 10 (scientist level 1): sum 12 -> column x2 = 20
SUM11 = [4, 4, 3]  # -> column x1.5 = 15


def warper(drive=("warp_drive", []), vehicle="lycaon", at=(10.0, 10.0)):
    return unit("w", BLUE, vehicle, [drive, "machine_gun"], cls="scientist", at=at)


# --- warp -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("drive", "vehicle", "dist", "difficulty"), [
    (("warp_drive", []), "lycaon", 8.0, 16),           # 4" increments: 2 x 8
    (("warp_drive", ["light"]), "lycaon", 8.0, 32),    # Light: 2" -> 4 x 8
    (("warp_drive", ["heavy"]), "golem", 8.0, 16),     # Heavy: 6" -> 2 started x 8
    (("warp_drive", []), "lycaon", 3.0, 8),            # R-BAT-22: a started increment counts
])
def test_warp_difficulty_is_8_per_increment_of_the_drives_size(drive, vehicle, dist,
                                                               difficulty):
    """Warp: "a Tech skill test with a difficulty of 8 x each 4" of distance (2" if the
    Warp drive is Light, 6" if the Warp drive is Heavy)"."""
    st = state([warper(drive, vehicle), unit("r", RED, at=(30.0, 30.0))], [], [8, 8, 8])
    perform(st, st.units["w"], Warp("w", (10.0, 10.0 + dist)))
    assert rolls(st)[0]["difficulty"] == difficulty
    assert st.units["w"].pos == (10.0, 10.0 + dist)


def test_warp_blastwave_deals_5_x_mass_in_a_radius_of_the_increments_taken():
    """ "If the pilot is successful, the unit crosses that distance instantly, and produces
    a blastwave that deals (5 x Unit Mass) damages to anything in a radius equal to the
    number of range increments taken." 8" with a medium drive: 2 increments -> 2" radius.
    R-BAT-22: mass = total weight; the warping unit is spared."""
    near = unit("near", RED, "golem", ["cannon"], at=(11.5, 18.0))   # 1.5" from landing
    far = unit("far", RED, "golem", ["cannon"], at=(12.5, 18.0))     # 2.5"
    st = state([warper(), near, far], [], SUM12)
    w = st.units["w"]
    perform(st, w, Warp("w", (10.0, 18.0)))
    blast = 5 * w.card.weight
    assert st.units["near"].lost == min(25, blast - 5)
    assert st.units["far"].lost == 0 and w.lost == 0


def test_a_failed_warp_goes_nowhere_and_costs_the_drives_cooldown():
    st = state([warper(), unit("r", RED, at=(30.0, 30.0))], [], SUM11)
    w = st.units["w"]
    cdt = perform(st, w, Warp("w", (10.0, 18.0)))  # difficulty 16, score 15
    assert w.pos == (10.0, 10.0) and cdt == w.card.equipment("warping").cooldown


def test_a_warp_aims_where_there_is_no_building_or_other_unit():
    """ "The unit aims at a point it can see, where there is no building or other unit." """
    st = state([warper(), unit("r", RED, at=(10.0, 14.5))], [], [])
    with pytest.raises(IllegalActionError, match="no building or unit"):
        perform(st, st.units["w"], Warp("w", (10.0, 14.0)))


# --- piracy ---------------------------------------------------------------------------------
def pirate(at=(10.0, 10.0)):
    return unit("p", BLUE, "lycaon", ["thunder_wire", "machine_gun"], cls="scientist", at=at)


def test_piracy_on_a_unit_gives_it_active_die_plus_5_cdt():
    """Piracy: "Used on an enemy unit, it will give it Active die + 5 CDT." R-BAT-23: Tech
    against its base defense, in contact."""
    st = state([pirate(), unit("r", RED, at=(10.0, 10.8))], [], [6, 6, 6])
    r = st.units["r"]
    perform(st, st.units["p"], Piracy("p", "r"))
    assert rolls(st)[0]["difficulty"] == r.card.base_defense
    assert r.cdt == 6 + 5
    assert "piracy_success" in st.credits["p"]


def test_piracy_on_a_turret_needs_tech_20_then_it_fires_for_the_pirate():
    """ "Used on an enemy turret, it will allow the pirate to use it as if it was their own,
    on a Tech skill roll of 20" """
    turret = BuildingInput("tu", "turret", 5, 5, weapon=WeaponInput("cannon"))  # (11, 11)
    st = state([pirate(at=(11.0, 11.9)), unit("r", RED, at=(11.0, 20.0))], [turret], SUM11)
    perform(st, st.units["p"], Piracy("p", "tu", "building"))
    assert st.buildings["tu"].controller == RED
    st = state([pirate(at=(11.0, 11.9)), unit("r", RED, at=(11.0, 20.0))], [turret],
               [*SUM12, 8, 8, 8])
    perform(st, st.units["p"], Piracy("p", "tu", "building"))
    assert rolls(st)[0]["difficulty"] == 20
    assert st.buildings["tu"].controller == BLUE
    st.units["p"].cdt = 5
    play_turn(st, BLUE, DefaultPolicy(BLUE, st.options), BattleView(st))
    fired = [e for e in st.log if e["event"] == "turret_fire"]
    assert fired and fired[0]["target"] == "r"


def test_piracy_on_a_laboratory_is_a_tech_roll_against_the_technologys_research_points():
    """ "Used on a laboratory, it will allow the pirate to steal a technology on a tech skill
    roll equal to the number of Research Points necessary to get the technology."
    R-BAT-30: the campaign gives the cost (`technology_cost`); the engine reports the
    attempt (`lab_piracies`) and credits the scientist's piracy XP; once per side."""
    lab = BuildingInput("lab", "laboratory", 5, 5, technology_cost=25)
    st = state([pirate(at=(11.0, 11.9)), unit("r", RED, at=(30.0, 30.0))], [lab],
               [5, 5, 4, 5, 5, 5])  # sum 14 -> 20: fail; sum 15 -> 25: success
    p = st.units["p"]
    perform(st, p, Piracy("p", "lab", "building"))
    perform(st, p, Piracy("p", "lab", "building"))
    assert [(e["score"], e["difficulty"], e["success"]) for e in st.lab_piracies] == [
        (20, 25, False), (25, 25, True)]
    assert st.lab_piracies[1]["laboratory"] == "lab" and st.lab_piracies[1]["side"] == BLUE
    assert "piracy_success" in st.credits["p"]
    with pytest.raises(IllegalActionError, match="already robbed"):
        perform(st, p, Piracy("p", "lab", "building"))


def test_lab_piracy_defaults_to_the_engine_option_and_is_reported_in_the_result():
    lab = BuildingInput("lab", "laboratory", 5, 5)
    b = battle([pirate(at=(11.0, 11.9)), unit("r", RED, at=(30.0, 30.0))], [lab],
               max_rounds=2, lab_piracy_difficulty=5)
    result = resolve_battle(b, policy_factory=scripted({BLUE: [Piracy("p", "lab",
                                                                      "building")]}))
    (attempt,) = result.lab_piracies
    assert attempt["difficulty"] == 5 and attempt["unit"] == "p"
    assert result.to_dict()["lab_piracies"] == [attempt]


def test_piracy_needs_an_enemy():
    st = state([pirate(), unit("b2", BLUE, at=(10.0, 10.8)), unit("r", RED, at=(30.0, 30.0))])
    with pytest.raises(IllegalActionError, match="enemy"):
        perform(st, st.units["p"], Piracy("p", "b2"))
    assert Pass(unit="").name == "Pass"
