"""Designation and silo missiles (seed: the designation section, the Designator and the
Missile silo; R-BAT-27)."""

import pytest

from battles.rulesets.unlimit3d8.engine.actions import Designate, Order, perform
from battles.rulesets.unlimit3d8.engine.actions.designation import missiles_due
from battles.rulesets.unlimit3d8.engine.actions.errors import IllegalActionError
from battles.rulesets.unlimit3d8.engine.model import BuildingInput, MissileInput
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from tests.engine.helpers import BLUE, RED, battle, scripted, state, unit

DESIGNATOR = ("lycaon", ["machine_gun", "designator"])


def setup(silo_distances=(1,), target_at=(10.0, 12.0), **kw):
    units = [unit("d", BLUE, *DESIGNATOR, level=2, at=(10.0, 2.0)),
             unit("t", RED, "golem", ["cannon"], at=target_at, shield="heavy"),
             unit("near", RED, "lycaon", ["machine_gun"], at=(13.0, 12.0)),
             unit("far", RED, "lycaon", ["machine_gun"], at=(14.6, 12.0))]
    return state(units, kw.pop("buildings", []), [], missiles={BLUE: list(silo_distances)},
                 **kw)


def test_designation_needs_a_designator_and_a_target_within_12_inches():
    """ "The designation of a target needs that the unit performing this action uses a
    designator. It must be within 12" of its target." """
    st = setup(target_at=(10.0, 14.5))  # 12.5" away
    with pytest.raises(IllegalActionError, match="12"):
        perform(st, st.units["d"], Designate("d", "t"))
    st = setup(target_at=(10.0, 14.0))  # exactly 12"
    assert perform(st, st.units["d"], Designate("d", "t")) == 2
    st = state([unit("d", BLUE, "lycaon", ["machine_gun"], at=(10.0, 2.0)),
                unit("t", RED, at=(10.0, 8.0))], missiles={BLUE: [0]})
    with pytest.raises(IllegalActionError, match="no designator"):
        perform(st, st.units["d"], Designate("d", "t"))


def test_designation_takes_2_cdt_per_territory_and_the_missile_strikes_when_they_are_gone():
    """ "When designating a target, the unit takes 2CDT by territory that separates the silo
    from the target ... When the CDTs are depleted, the missile strikes." A silo two
    territories away: 4 tokens; the missile strikes at the start of the 4th turn after.
    "A missile deals 40 damages in a 4" radius": Golem armour 5 + heavy shield 3 = 8 ->
    32, the shield's 15 extra points first, 17 on the hull; the unit 3" away (Lycaon,
    armour 2) is destroyed, the one 4.6" away untouched. No die is rolled."""
    st = setup(silo_distances=(2,))
    assert perform(st, st.units["d"], Designate("d", "t")) == 4
    for _ in range(3):
        missiles_due(st, BLUE)
        assert st.units["t"].lost == 0
    missiles_due(st, RED)  # the other player's turn does not count
    assert st.pending_missiles
    missiles_due(st, BLUE)
    assert not st.pending_missiles
    t = st.units["t"]
    assert (t.shield_hp, t.lost) == (0, 17)
    assert st.units["near"].destroyed
    assert st.units["far"].lost == 0
    assert st.missiles_used == {RED: 0, BLUE: 1}
    assert st.missile_strikes[0]["impact"] == [10.0, 12.0]


def test_the_missile_strikes_where_the_target_stands_when_it_lands():
    """R-BAT-27: the designator keeps the target painted; the missile lands on the
    target's position at the strike."""
    st = setup(silo_distances=(1,))
    perform(st, st.units["d"], Designate("d", "t"))
    st.units["t"].pos = (20.0, 12.0)  # it moved away in the meantime
    missiles_due(st, BLUE)
    missiles_due(st, BLUE)  # one territory: 2 tokens
    assert st.missile_strikes[0]["impact"] == [20.0, 12.0]
    assert st.units["t"].lost == 17 and st.units["near"].lost == 0


def test_a_silo_on_the_battle_territory_strikes_at_once():
    """0 territories separate the silo from the target: 0 tokens, immediate strike."""
    st = setup(silo_distances=(0,))
    assert perform(st, st.units["d"], Designate("d", "t")) == 0
    assert st.units["t"].lost == 17


def test_no_command_order_can_reduce_the_designation_tokens():
    """ "No command order can reduce this amount." A technical order may only take tokens
    the unit has on top of its designation tokens."""
    officer = unit("o", BLUE, "lycaon", ["machine_gun"], level=5, at=(5.0, 2.0))
    st = state([officer, unit("d", BLUE, *DESIGNATOR, level=2, at=(10.0, 2.0)),
                unit("t", RED, at=(10.0, 12.0))], [], [8, 8, 8], missiles={BLUE: [2]})
    d = st.units["d"]
    d.cdt = perform(st, d, Designate("d", "t"))
    with pytest.raises(IllegalActionError, match="designation"):
        perform(st, st.units["o"], Order("o", "technical", ("d",), tokens=1))
    d.cdt += 2  # e.g. an EMP hit on top of the designation
    perform(st, st.units["o"], Order("o", "technical", ("d",), tokens=2))
    assert d.cdt == 4


def test_a_side_fires_only_the_missiles_its_silos_hold_nearest_silo_first():
    """ "A missile silo houses up to five tactical missiles": the campaign lists them; the
    engine spends the nearest first and refuses a designation with none left."""
    st = setup(silo_distances=(3, 1))
    assert perform(st, st.units["d"], Designate("d", "t")) == 2
    st.units["d"].cdt = 0
    assert perform(st, st.units["d"], Designate("d", "t")) == 6
    st.units["d"].cdt = 0
    with pytest.raises(IllegalActionError, match="no missile"):
        perform(st, st.units["d"], Designate("d", "t"))


def test_a_force_field_stops_the_missile():
    """Force Field: "No projectile (missile or grenade) can enter the force field"."""
    field = BuildingInput("ff", "force_field", 4, 5)  # centre (9, 11): covers 7..11 x 9..13
    st = setup(silo_distances=(0,), buildings=[field])
    perform(st, st.units["d"], Designate("d", "t"))
    assert st.missile_strikes[0]["blocked"] is True
    assert st.units["t"].lost == 0 and st.units["near"].lost == 0


def test_missiles_used_and_strikes_are_reported_for_the_campaign():
    """The campaign decrements the silos' stock from `missiles_used`."""
    b = battle([unit("d", BLUE, *DESIGNATOR, level=2, at=(10.0, 2.0)),
                unit("t", RED, "golem", ["cannon"], at=(10.0, 12.0))],
               missiles={BLUE: [MissileInput(1, silo="s9")]}, max_rounds=3)
    result = resolve_battle(b, policy_factory=scripted({BLUE: [Designate("d", "t")]}))
    assert result.missiles_used == {RED: 0, BLUE: 1}
    strike = result.missile_strikes[0]
    assert (strike["silo"], strike["target"], strike["blocked"]) == ("s9", "t", False)
    assert strike["strike_turn"] > strike["designated_turn"]
    data = result.to_dict()
    assert data["missiles_used"] == {RED: 0, BLUE: 1}
    assert b.to_dict()["missiles"] == {BLUE: [{"silo_distance": 1, "silo": "s9"}]}
    assert "missiles" not in battle([unit("x", RED)]).to_dict()


def test_the_default_policy_never_orders_designation_tokens_away():
    """R-BAT-27 for the default policy: an officer's technical order counts only the tokens
    a designator has on top of its designation ones (it used to order them away and the
    battle failed with an illegal action)."""
    from battles.rulesets.unlimit3d8.engine.policy import DefaultPolicy

    officer = unit("o", BLUE, "lycaon", ["machine_gun"], level=5, at=(5.0, 2.0))
    st = state([officer, unit("d", BLUE, *DESIGNATOR, level=2, at=(10.0, 2.0)),
                unit("t", RED, at=(10.0, 12.0))], [], [8, 8, 8], missiles={BLUE: [2]})
    d = st.units["d"]
    d.cdt = perform(st, d, Designate("d", "t")) + 1  # 3 tokens, 2 of them designation
    assert DefaultPolicy(BLUE)._support(st, st.units["o"]) is None
    d.cdt += 2  # now 3 tokens a command order may take
    order = DefaultPolicy(BLUE)._support(st, st.units["o"])
    assert order is not None and order.tokens == 3
    perform(st, st.units["o"], order)  # legal
