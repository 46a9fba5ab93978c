"""Containers and the lorry (R-BAT-28), bunkers (R-BAT-29) and force-field generators
(R-BAT-11); seed sections: Designation/lifting rules, Utility Vehicles (Lorry), the Bunker
and Force Field building texts, the Bandit's bonus-XP list."""

import pytest

from battles.rulesets.unlimit3d8.engine.actions import (
    Assault,
    CloseCombat,
    EnterBunker,
    Lift,
    Move,
    RangedAttack,
    Retreat,
    perform,
)
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.model import BuildingInput, CargoInput
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from tests.engine.helpers import BLUE, RED, battle, scripted, state, unit

CRATE = CargoInput("c1", 5, 5, resource="precious_metal", units=10)  # centre (11, 11)


# --- containers and the lorry ------------------------------------------------------------
def test_only_medium_or_heavy_grappling_arms_lift_a_container_in_contact():
    """ "Any Unit equiped with Medium or Heavy Grappling Arms can lift a container and take
    it away." An exo armour's own (light) arms cannot; the lifter must be in contact."""
    st = state([unit("e", BLUE, "shark", [], at=(11.0, 11.5)),
                unit("m", BLUE, "minotaur", ["grappling_arms", "beamer"], at=(11.0, 14.0)),
                unit("r", RED, at=(30.0, 30.0))], cargo=[CRATE])
    with pytest.raises(IllegalActionError, match="medium or heavy"):
        perform(st, st.units["e"], Lift("e", "c1"))
    with pytest.raises(IllegalActionError, match="contact"):
        perform(st, st.units["m"], Lift("m", "c1"))
    st.units["m"].pos = (11.0, 11.8)
    cdt = perform(st, st.units["m"], Lift("m", "c1"))
    assert cdt == st.units["m"].weapon("grappling_arms").cooldown
    assert st.units["m"].carrying == "c1" and st.cargo["c1"].carrier == "m"
    light = unit("l", BLUE, "minotaur", [("grappling_arms", ["light"]), "beamer"],
                 at=(11.0, 11.5))
    st = state([light, unit("r", RED, at=(30.0, 30.0))], cargo=[CRATE])
    with pytest.raises(IllegalActionError, match="medium or heavy"):
        perform(st, st.units["l"], Lift("l", "c1"))


def test_a_unit_lifting_a_container_cannot_fight_with_its_arms():
    """ "While the unit uses its arms to lift the container, it cannot use them to fight."
    Its other weapons still fire."""
    st = state([unit("m", BLUE, "minotaur", ["grappling_arms", "beamer"], at=(11.0, 11.5)),
                unit("r", RED, "lycaon", at=(11.0, 12.3))], [], [8, 8, 8], cargo=[CRATE])
    perform(st, st.units["m"], Lift("m", "c1"))
    with pytest.raises(IllegalActionError, match="container"):
        perform(st, st.units["m"], CloseCombat("m", "grappling_arms", "r"))
    perform(st, st.units["m"], RangedAttack("m", "beamer", "r"))
    assert st.units["r"].lost > 0


def test_a_lorry_within_one_inch_receives_the_content_and_the_lifters_arms_stay_free():
    """Lorry: "If the Lorry is within 1 inch of the unit, the latter only needs its lifting
    action to take the container and empty its contents into the lorry." """
    st = state([unit("m", BLUE, "minotaur", ["grappling_arms", "beamer"], at=(11.0, 11.5)),
                unit("lorry", BLUE, "lorry", [], at=(11.0, 12.4)),
                unit("r", RED, at=(30.0, 30.0))], cargo=[CRATE])
    perform(st, st.units["m"], Lift("m", "c1"))
    assert st.units["lorry"].carrying == "c1" and st.units["m"].carrying is None
    assert st.cargo["c1"].lifter == "m"


def test_if_a_lorry_is_destroyed_its_cargo_is_lost_a_carrier_drops_it():
    """ "If a lorry is destroyed, its cargo is lost." R-BAT-28: a destroyed lifter drops
    the container where it stood."""
    st = state([unit("m", BLUE, "minotaur", ["grappling_arms", "beamer"], at=(11.0, 11.5)),
                unit("lorry", BLUE, "lorry", [], at=(11.0, 12.4)),
                unit("r", RED, at=(30.0, 30.0))],
               cargo=[CRATE, CargoInput("c2", 5, 6, "gas", 10)])
    perform(st, st.units["m"], Lift("m", "c1"))
    from battles.rulesets.unlimit3d8.engine.damage import deal_damage
    deal_damage(st, st.units["lorry"], 99, ignore=None, attacker=None, source="test")
    assert st.cargo["c1"].lost
    st.units["m"].pos = (11.0, 13.0)
    perform(st, st.units["m"], Lift("m", "c2"))
    deal_damage(st, st.units["m"], 99, ignore=None, attacker=None, source="test")
    assert st.cargo["c2"].carrier is None and not st.cargo["c2"].lost
    assert st.cargo["c2"].pos == (11.0, 13.0)


def test_a_bandit_carrying_a_container_off_the_field_has_stolen_a_cargo():
    """Bandit: "gains one extra XP if: They manage to steal a cargo of any kind." The
    container leaves with its carrier (a retreat): `cargo_taken` and a `steal_cargo`
    XP event for the campaign."""
    thief = unit("m", BLUE, "minotaur", ["grappling_arms", "beamer"], cls="bandit",
                 at=(11.0, 0.0))
    b = battle([thief, unit("r", RED, at=(30.0, 30.0))], cargo=[CargoInput("c1", 5, 0)],
               max_rounds=5)
    result = resolve_battle(b, policy_factory=scripted(
        {BLUE: [Lift("m", "c1"), Retreat("m")]}), dice=None)
    assert result.cargo_taken == {BLUE: ("c1",)}
    outcome = result.cargo[0]
    assert (outcome.fate, outcome.taken_by, outcome.lifter) == ("taken", BLUE, "m")
    kinds = {e.kind for e in result.unit("m").xp_events}
    assert "steal_cargo" in kinds
    assert result.to_dict()["cargo_taken"] == {BLUE: ["c1"]}


def test_a_container_left_on_the_field_is_not_taken():
    result = resolve_battle(battle([unit("r", RED, at=(20.0, 20.0)),
                                    unit("b", BLUE, at=(20.0, 30.0))],
                                   cargo=[CRATE], max_rounds=2))
    assert result.cargo[0].fate == "left" and result.cargo_taken == {}


# --- bunker --------------------------------------------------------------------------------
BUNKER = BuildingInput("bk", "bunker", 5, 5)  # centre (11, 11)


def bunker_state(n_exo=1, faces=(), **kw):
    exos = [unit(f"e{i}", RED, "shark", ["machine_gun"], at=(11.0 + 0.1 * i, 13.5))
            for i in range(n_exo)]
    return state([*exos, unit("b", BLUE, "lycaon", ["machine_gun", "grenade_launcher"],
                              at=(11.0, 17.0))], [BUNKER], faces, **kw)


def test_an_exo_armour_gets_in_with_a_move_and_cannot_be_targeted_inside():
    """Bunker: "A bunker can shelter up to five of your operatives if they use an exo
    armor ... get in if a move action leads them in contact with the structure."
    R-BAT-29: sheltered units cannot be targeted nor caught by a blast."""
    st = bunker_state(faces=[8, 8, 8])
    e = st.units["e0"]
    assert perform(st, e, EnterBunker("e0", "bk")) == 0  # 1.5" to contact: free
    assert e.in_bunker == "bk" and e.pos == (11.0, 11.0)
    with pytest.raises(IllegalActionError, match="sheltered"):
        perform(st, st.units["b"], RangedAttack("b", "machine_gun", "e0"))
    perform(st, st.units["b"], RangedAttack("b", "grenade_launcher", "bk", "building"))
    assert e.lost == 0 and st.buildings["bk"].lost > 0
    # it fires out of the bunker
    st.dice._faces += [8, 8, 8]  # type: ignore[attr-defined]
    perform(st, e, RangedAttack("e0", "machine_gun", "b"))
    assert st.units["b"].lost > 0


def test_a_bunker_shelters_five_exo_armour_of_its_own_side_only():
    """ "up to five of your operatives if they use an exo armor" """
    st = bunker_state(n_exo=6)
    for i in range(5):
        perform(st, st.units[f"e{i}"], EnterBunker(f"e{i}", "bk"))
    with pytest.raises(IllegalActionError, match="5"):
        perform(st, st.units["e5"], EnterBunker("e5", "bk"))
    st2 = state([unit("v", RED, "lycaon", at=(11.0, 12.5)), unit("x", BLUE, "shark", [],
                                                                  at=(11.0, 9.5))], [BUNKER])
    with pytest.raises(IllegalActionError, match="exo armour"):
        perform(st2, st2.units["v"], EnterBunker("v", "bk"))
    with pytest.raises(IllegalActionError, match="own side"):
        perform(st2, st2.units["x"], EnterBunker("x", "bk"))


def test_they_get_out_with_a_move_and_an_assault_never_enters():
    """ "They can get out of the building with a move action ... You cannot make an
    assault action when entering a bunker." """
    st = bunker_state(faces=[1, 1, 1])
    e = st.units["e0"]
    perform(st, e, EnterBunker("e0", "bk"))
    with pytest.raises(IllegalActionError, match="inside a bunker"):
        perform(st, e, CloseCombat("e0", "grappling_arms", "b"))
    perform(st, e, Move("e0", (11.0, 12.5)))
    assert e.in_bunker is None and st.buildings["bk"].sheltered == []
    e.pos = (11.0, 13.5)
    perform(st, e, Assault("e0", (11.0, 11.9), "machine_gun", "b"))
    assert e.in_bunker is None


def test_occupants_step_out_when_the_bunker_falls():
    st = bunker_state()
    perform(st, st.units["e0"], EnterBunker("e0", "bk"))
    from battles.rulesets.unlimit3d8.engine.damage import deal_damage
    deal_damage(st, st.buildings["bk"], 99, ignore=None, attacker=None, source="test")
    assert st.units["e0"].in_bunker is None and st.units["e0"].lost == 0


# --- force field generators ------------------------------------------------------------------
def test_the_force_field_falls_only_with_its_fourth_generator():
    """Force Field: "To disable the force field, the opponent must destroy all 4 force
    field generators ... each force field generator has 15 Hit points." R-BAT-11: the
    generators stand at the corners of the 4" square and are not protected by it; the
    field itself cannot be targeted."""
    st = state([unit("a", BLUE, "golem", ["cannon"], at=(11.0, 2.0)),
                unit("d", RED, "golem", ["cannon"], at=(11.0, 11.5))],
               [BuildingInput("ff", "force_field", 5, 5)], [8, 8, 8])
    gens = st.buildings["ff"].generators
    assert len(gens) == 4
    assert all(st.buildings[g].hp_left == 15 for g in gens)
    assert {st.buildings[g].pos for g in gens} == {(9.0, 9.0), (13.0, 9.0), (9.0, 13.0),
                                                   (13.0, 13.0)}
    with pytest.raises(IllegalActionError, match="generators"):
        perform(st, st.units["a"], RangedAttack("a", "cannon", "ff", "building"))
    from battles.rulesets.unlimit3d8.engine.damage import deal_damage, effective_armor
    d = st.units["d"]
    assert effective_armor(st, d, None) == 5 + 5
    for g in gens[:3]:
        deal_damage(st, st.buildings[g], 99, ignore=None, attacker=st.units["a"], source="t")
    assert effective_armor(st, d, None) == 10 and not st.buildings["ff"].destroyed
    assert "destroy_building" not in st.credits.get("a", set())
    deal_damage(st, st.buildings[gens[3]], 99, ignore=None, attacker=st.units["a"],
                source="t")
    assert st.buildings["ff"].destroyed and effective_armor(st, d, None) == 5
    assert "destroy_building" in st.credits["a"]


def test_force_field_outcome_lists_its_generators():
    b = battle([unit("r", RED, at=(20.0, 20.0)), unit("b", BLUE, at=(20.0, 30.0))],
               [BuildingInput("ff", "force_field", 2, 2, hit_points=9)], max_rounds=1)
    result = resolve_battle(b)
    (ff,) = result.buildings
    assert ff.generators == (9, 9, 9, 9) and ff.hit_points_left == 9
    assert result.to_dict()["buildings"][0]["generators"] == [9, 9, 9, 9]
