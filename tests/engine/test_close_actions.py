"""Close Combat, tackle, ramming, orders and repair (seed sections of the same names)."""

import pytest

from battles.rulesets.unlimit3d8.engine.actions import (
    CloseCombat,
    Move,
    Order,
    Ram,
    RangedAttack,
    Repair,
    Tackle,
    perform,
)
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from tests.engine.helpers import BLUE, RED, rolls, state, unit


def duel(faces, attacker=("golem", ["road_header"]), target=("minotaur", ["grappling_arms"]),
         dist=1.0, shield=None, **kw):
    st = state([unit("a", RED, attacker[0], attacker[1], at=(10.0, 10.0)),
                unit("t", BLUE, target[0], target[1], at=(10.0, 10.0 + dist), shield=shield)],
               [], faces, **kw)
    return st, st.units["a"], st.units["t"]


def test_close_combat_difficulty_is_base_defense_plus_shield_bonus():
    """Close Combat: "Difficulty is Base defense"; Shield: "They also add to difficulty to
    touch in close combat" (medium +6). Minotaur + arms + medium shield: defense 14 -> 20.
    4+5+5 = 14 -> Fight 8 x2 = 16: a miss only because of the shield."""
    st, a, t = duel([4, 5, 5], shield="medium")
    perform(st, a, CloseCombat("a", "road_header", "t"))
    assert rolls(st)[0]["difficulty"] == 14 + 6
    assert t.lost == 0


def test_close_combat_damage_goes_through_shield_hit_points_first():
    """Damages are "weapon Base Damage + active die result"; the shield grants "extra health
    points with extra armor value. Once the extra hit points are depleted, all the bonuses
    are lost." Road header 16 + 5 = 21 - armour (3 + 2) = 16: shield takes 10, hull 6."""
    st, a, t = duel([5, 5, 5], shield="medium")
    cdt = perform(st, a, CloseCombat("a", "road_header", "t"))
    assert t.shield_hp == 0 and t.lost == 6
    assert t.armor == 3 and t.close_defense == 14  # bonuses gone with the shield
    assert cdt == 7 - 1


def test_close_combat_needs_contact():
    st, a, _t = duel([], dist=3.0)
    with pytest.raises(IllegalActionError):
        perform(st, a, CloseCombat("a", "road_header", "t"))


def test_aggressive_tackle_is_plus_6_and_deals_half_damage_and_immobilizes():
    """Tackle: "The difficulty is the same, plus 6" ... "If so, the attack, if successful
    deals half the damages." Lycaon defense 16 -> 22; (16 + 6) // 2 = 11 - armour 2 = 9."""
    st, a, t = duel([6, 6, 6], target=("lycaon", ["machine_gun"]))
    perform(st, a, Tackle("a", "t", aggressive=True))
    assert rolls(st)[0]["difficulty"] == 22
    assert t.lost == 9
    assert t.immobilized_by == "a"
    with pytest.raises(IllegalActionError):
        perform(st, t, Move("t", (10.0, 14.0)))


def test_gentle_tackle_deals_damage_only_on_nemesis_1():
    """ "If not, the attack will only deal damages on a Nemesis score of 1" """
    st, a, t = duel([8, 8, 6], target=("lycaon", ["machine_gun"]))
    perform(st, a, Tackle("a", "t", aggressive=False))
    assert t.lost == 0 and t.immobilized_by == "a"
    st = state([unit("a", RED, "golem", ["road_header"], level=8, at=(10.0, 10.0)),
                unit("t", BLUE, "paladin", ["cannon"], at=(10.0, 11.0))], [], [5, 5, 1])
    t = st.units["t"]
    perform(st, st.units["a"], Tackle("a", "t", aggressive=False))
    assert t.lost == 16 + 5 - 4  # Fight 15 x1.5 = 22 >= Paladin 13 + 6


def test_ramming_damage_weight_plus_per_2_inches_plus_active_and_its_backlash():
    """Ramming: "damages are weight class of the attacker + every 2 inches crossed + active
    die result"; "Passive : on 7+, the target takes 2 CDT"; "Nemesis : ... on 3- they take
    half"; "If the attacker takes damages from the ram, he also reduces his armor".
    Heavy Charger + cannon (weight 10) crosses 4" (2 x 2"): 10 + 2 + 4 = 16 - 2 = 14 to the
    Lycaon; the rammer takes 16 // 2 = 8 - armour 4 = 4."""
    st, a, t = duel([4, 7, 3], attacker=("heavy_charger", ["cannon"]),
                    target=("lycaon", ["machine_gun"]), dist=5.0)
    cdt = perform(st, a, Ram("a", "t"))
    assert rolls(st)[0]["skill"] == "pilot"
    assert t.lost == 14 and t.cdt == 2
    assert a.lost == 4
    assert cdt == 3 + 2  # move 4": one Move Increment (3), plus the ram


def test_technical_order_removes_tokens_at_3_per_token():
    """Order: technical "The difficulty of the roll is 3 x ( number of tokens)"; "A character
    who issues an order takes two CDT"; only "to those who have a lower character level"."""
    st = state([unit("boss", RED, "paladin", ["cannon"], level=2, at=(0.0, 0.0)),
                unit("grunt", RED, "paladin", ["cannon"], at=(4.0, 0.0)),
                unit("peer", RED, "paladin", ["cannon"], level=2, at=(8.0, 0.0)),
                unit("x", BLUE, at=(30.0, 30.0))], [], [3, 3, 3])
    st.units["grunt"].cdt = 4
    st.units["peer"].cdt = 4
    cdt = perform(st, st.units["boss"], Order("boss", "technical", ("grunt",), tokens=3))
    assert rolls(st)[0]["difficulty"] == 9 and rolls(st)[0]["skill"] == "will"
    assert st.units["grunt"].cdt == 1
    assert cdt == 2
    with pytest.raises(IllegalActionError):
        perform(st, st.units["boss"], Order("boss", "technical", ("peer",), tokens=1))


def test_cohesion_order_makes_ready_units_act_at_3_per_unit():
    """Cohesion: "any number of units with no CDT and able to perform the same order ...
    The difficulty of the test is 3 x (number of target units)". Two shooters: 6."""
    st = state([unit("boss", RED, "paladin", ["cannon"], level=2, at=(0.0, 0.0)),
                unit("g1", RED, "paladin", ["cannon"], at=(10.0, 10.0)),
                unit("g2", RED, "paladin", ["cannon"], at=(12.0, 10.0)),
                unit("t", BLUE, "golem", at=(11.0, 13.0))], [], [2, 2, 2, 8, 8, 8, 1, 1, 2])
    orders = (RangedAttack("g1", "cannon", "t"), RangedAttack("g2", "cannon", "t"))
    perform(st, st.units["boss"], Order("boss", "cohesion", ("g1", "g2"), orders=orders))
    assert rolls(st)[0]["difficulty"] == 6
    assert len(rolls(st)) == 3
    assert st.units["g1"].cdt == 7 and st.units["g2"].cdt == 7
    assert st.units["t"].lost == 10 + 8 - 5


def test_repair_success_recovers_and_hardens_the_remaining_slashes():
    """Repair: "The roll difficulty is 2 x the target number of hitpoint to recover. Once the
    repair is made, all the remaining hit points ticked / become X". Worker Tech 9."""
    st = state([unit("w", RED, "minotaur", ["grappling_arms"], cls="worker", at=(0.0, 0.0)),
                unit("f", RED, "paladin", ["cannon"], at=(1.0, 0.0),
                     hit_points_lost_repairable=5, hit_points_lost_unrepairable=5),
                unit("x", BLUE, at=(30.0, 30.0))], [], [2, 2, 2])
    perform(st, st.units["w"], Repair("w", "f", 3))
    f = st.units["f"]
    assert rolls(st)[0]["difficulty"] == 6
    assert (f.repairable, f.unrepairable) == (0, 7)
    assert "repair_other_unit" in st.credits["w"]


def test_repair_failure_hardens_half_the_slashes_rounded_up():
    """ "If the repair is a failure, half of the hit points ticked / become X (rounded up)" """
    st = state([unit("w", RED, "minotaur", ["grappling_arms"], cls="worker", at=(0.0, 0.0)),
                unit("f", RED, "paladin", ["cannon"], at=(1.0, 0.0),
                     hit_points_lost_repairable=5, hit_points_lost_unrepairable=5),
                unit("x", BLUE, at=(30.0, 30.0))], [], [1, 1, 1])
    perform(st, st.units["w"], Repair("w", "f", 5))
    f = st.units["f"]
    assert (f.repairable, f.unrepairable) == (2, 8)
    assert "w" not in st.credits


def test_an_order_to_a_turret_is_refused_not_a_crash():
    """Turret: "can't take technical orders"; an order names units only. Ordering a building
    (or any id that is not a unit) is an illegal action, refused before any die is rolled."""
    from battles.rulesets.unlimit3d8.engine.model import BuildingInput

    turret = BuildingInput(id="tur", kind="turret", x=0, y=1)
    st = state([unit("boss", RED, "paladin", ["cannon"], level=2, at=(0.0, 0.0)),
                unit("x", BLUE, at=(30.0, 30.0))], [turret], [3, 3, 3])
    with pytest.raises(IllegalActionError, match="not a unit"):
        perform(st, st.units["boss"], Order("boss", "technical", ("tur",), tokens=1))
    assert rolls(st) == []


def test_a_refused_cohesion_order_consumes_no_dice_and_does_not_move():
    """Cohesion: "any number of units ... able to perform the same order"; each ordered unit
    performs its own action. A sub-order naming another unit is refused before the Will test
    (no die consumed) and before the issuer's move (nothing changes)."""
    st = state([unit("boss", RED, "paladin", ["cannon"], level=2, at=(0.0, 0.0)),
                unit("g1", RED, "paladin", ["cannon"], at=(10.0, 10.0)),
                unit("t", BLUE, "golem", at=(11.0, 13.0))], [], [2, 2, 2])
    wrong = (RangedAttack("t", "cannon", "g1"),)
    with pytest.raises(IllegalActionError):
        perform(st, st.units["boss"], Order("boss", "cohesion", ("g1",), orders=wrong,
                                            move_to=(2.0, 0.0)))
    assert rolls(st) == [] and st.dice.count == 0
    assert st.units["boss"].pos == (0.0, 0.0)
