"""Template effects in battle (seed, "General Templates", "Solid / Explosive", "Energy
Only"): each shot at point blank (3") on a Lycaon (defense 16, armour 2, 15 HP)."""

from battles.rulesets.unlimit3d8.engine.actions import RangedAttack, perform
from battles.rulesets.unlimit3d8.engine.actions.attack import misfire_threshold, range_difficulty
from battles.rulesets.unlimit3d8.engine.turn import play_turn
from tests.engine.helpers import BLUE, RED, state, unit


def shot(weapon, templates, faces, extra_units=(), target="lycaon"):
    st = state([unit("s", RED, "paladin", [(weapon, templates)], at=(10.0, 10.0)),
                unit("t", BLUE, target, ["machine_gun"], at=(10.0, 13.0)), *extra_units],
               [], faces)
    perform(st, st.units["s"], RangedAttack("s", weapon, "t"))
    damage = [e for e in st.log if e["event"] == "damage"]
    return st, st.units["t"], damage


def test_concussion_doubles_damage_on_passive_7():
    """Concussion: "Passive 7+ : double damages" (raw (10 + 6) x 2 before armour)."""
    _, _, dmg = shot("cannon", ("concussion",), [6, 7, 6])
    assert dmg[0]["raw"] == 32
    _, _, dmg = shot("cannon", ("concussion",), [6, 6, 6])
    assert dmg[0]["raw"] == 16


def test_heavy_lowers_the_passive_threshold():
    """Heavy: "passive effect threshold -1" -> Concussion triggers on 6."""
    _, _, dmg = shot("cannon", ("concussion", "heavy"), [6, 6, 6])
    assert dmg[0]["raw"] == (12 + 6) * 2


def test_emp_adds_3_cdt_and_high_frequency_ignores_armor():
    """EMP: "Damage-1, adds 3CDT to target"; High Frequency: "Ignore armor"."""
    _, t, dmg = shot("beamer", ("emp", "high_frequency"), [6, 6, 6], target="golem")
    assert t.cdt == 3
    assert dmg[0]["raw"] == 14 - 1 + 6 and dmg[0]["armor"] == 0


def test_hardpoint_ignores_half_the_armor():
    """Hardpoint: "Ignore half armor" (R-BAT-13: armour 2 counts 1)."""
    _, _, dmg = shot("cannon", ("hardpoint",), [6, 6, 6])
    assert dmg[0]["armor"] == 1


def test_haywire_deals_nothing_but_raises_the_targets_mishaps():
    """Haywire: "Dmg 0, target fires all weapon with Mishap Threshold +2"."""
    _, t, _dmg = shot("cannon", ("haywire",), [6, 6, 6])
    assert t.lost == 0 and t.haywire
    assert misfire_threshold(t, t.weapon("machine_gun")) == 1 + 2


def test_plasma_adds_4_damage_and_2_cdt_on_passive_6():
    """Plasma: "Passive 6+ : Damage +4, Target CDT +2. Mishap Threshold +2"."""
    _, t, dmg = shot("beamer", ("plasma",), [6, 6, 6], target="golem")
    assert dmg[0]["raw"] == 14 + 6 + 4 and t.cdt == 2


def test_combustion_burns_one_point_each_turn_until_a_2cdt_action():
    """Combustion: "Passive 6+ : target loses one point of damage each turn until it takes a
    2CDT action"."""
    st, t, _ = shot("beamer", ("combustion",), [3, 6, 6], target="golem")
    assert t.combustion
    before = t.lost

    class Hold:
        def begin_choice(self, view, side):
            return None

        def choose(self, view, side):
            from battles.rulesets.unlimit3d8.engine.actions import Pass
            return Pass(unit="")

        def turret_target(self, view, turret):
            return None

    from battles.rulesets.unlimit3d8.engine.policy import BattleView
    play_turn(st, BLUE, Hold(), BattleView(st))
    assert t.lost == before + 1


def test_corrosive_lengthens_range_increments_and_shortens_moves():
    """Corrosive: "Passive 7+ : target's weapons increase their range increment by 1 and
    reduce their max movement by 2"."""
    st, t, _ = shot("cannon", ("corrosive",), [6, 7, 6])
    assert t.corroded == 1
    assert t.max_move_inches == t.card.max_move_inches - 2
    _, info = range_difficulty(st, t, t.weapon("machine_gun"), st.units["s"])
    assert info["increment"] == 4 + 1


def test_chain_reaction_hits_the_closest_unit_too():
    """Chain Reaction: "Passive 7+ : closest Unit sustains the same attack as the original
    target"."""
    st, t, _dmg = shot("beamer", ("chain_reaction",), [6, 7, 6],
                      extra_units=[unit("n", BLUE, "lycaon", at=(12.0, 13.0))])
    assert t.lost > 0 and st.units["n"].lost == t.lost
