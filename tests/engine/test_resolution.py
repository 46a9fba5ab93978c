"""The battle loop, its end, retreats and XP events (seed, "Tactical phase", "Tactical
Turn", "Level and experience" and the class bonus lists)."""

from battles.rulesets.unlimit3d8.engine.actions import Pass, RangedAttack, Retreat
from battles.rulesets.unlimit3d8.engine.dice import ForcedDice
from battles.rulesets.unlimit3d8.engine.model import BattleInput, BattleResult
from battles.rulesets.unlimit3d8.engine.policy import BattleView
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from battles.rulesets.unlimit3d8.engine.turn import play_turn
from tests.engine.helpers import BLUE, RED, battle, state, unit


class Script:
    """A policy playing given actions in order, then passing."""

    def __init__(self, actions):
        self.actions = list(actions)

    def begin_choice(self, view, side):
        return None

    def choose(self, view, side):
        return self.actions.pop(0) if self.actions else Pass(unit="")

    def turret_target(self, view, turret):
        return None


def scripted(plan):
    return lambda side, options: Script(plan.get(side, []))


def test_a_turn_removes_one_cdt_from_the_players_own_cards_only():
    """ "The player removes one Cool Down Token (CDT) off all their unit cards." """
    st = state([unit("r", RED, at=(0.0, 0.0)), unit("b", BLUE, at=(20.0, 20.0))])
    st.units["r"].cdt, st.units["b"].cdt = 3, 3
    play_turn(st, RED, Script([]), BattleView(st))
    assert (st.units["r"].cdt, st.units["b"].cdt) == (2, 3)


def test_battle_ends_when_one_side_is_destroyed_and_xp_is_reported():
    """ "they engage into battle until all the units of one side are either destroyed or
    retreat"; "After surviving a battle, a character is awarded one Experience Point"; a
    Soldier "destroyed an enemy unit during a battle (this XP can only be earned once per
    battle)". The blue Lycaon has 1 hit point left; red fires first (6+6+6 hits)."""
    b = battle([unit("r", RED, "paladin", ["cannon"], at=(10.0, 10.0)),
                unit("b", BLUE, "lycaon", at=(10.0, 13.0), hit_points_lost_unrepairable=14)],
               first_player="defender")
    plan = {RED: [RangedAttack("r", "cannon", "b")]}
    result = resolve_battle(b, policy_factory=scripted(plan), dice=ForcedDice([6, 6, 6]))
    assert result.winner == RED
    assert result.unit("b").fate == "destroyed"
    assert result.unit("r").fate == "intact"
    kinds = sorted(e.kind for e in result.xp_events)
    assert kinds == ["destroy_unit", "survived"]
    assert all(e.pilot_id == "pr" for e in result.xp_events)


def test_a_retreating_side_loses_but_its_units_survive():
    """ "... or retreat to an adjacent territory": a unit in the corridor leaves; its pilot
    survived the battle (1 XP)."""
    b = battle([unit("r", RED, "paladin", ["cannon"], at=(10.0, 20.0)),
                unit("b", BLUE, "lycaon", at=(10.0, -3.0))], first_player="attacker")
    result = resolve_battle(b, policy_factory=scripted({BLUE: [Retreat("b")]}),
                            dice=ForcedDice([]))
    assert result.winner == RED
    assert result.unit("b").fate == "retreated"
    assert [e.kind for e in result.unit("b").xp_events] == ["survived"]


def test_round_limit_lets_the_defender_hold():
    """R-BAT-3: a battle nobody fights ends at max_rounds; the defender holds, attackers
    withdraw."""
    b = battle([unit("r", RED, at=(10.0, 20.0)), unit("b", BLUE, at=(10.0, -3.0))],
               max_rounds=5)
    result = resolve_battle(b, policy_factory=scripted({}), dice=ForcedDice([]))
    assert (result.winner, result.end_reason, result.rounds) == (RED, "max_rounds", 5)
    assert result.unit("b").fate == "retreated"


def test_default_policy_battles_finish_with_a_consistent_result():
    b = battle([unit(1, RED, "paladin", ["cannon", "machine_gun"]),
                unit(2, RED, "minotaur", ["grappling_arms", "beamer"], cls="worker"),
                unit(3, BLUE, "centaur", ["missile_launcher", "cannon"]),
                unit(4, BLUE, "golem", ["road_header"], cls="bandit")], seed=11)
    result = resolve_battle(b)
    assert result.end_reason in ("side_eliminated", "max_rounds")
    survivors = {o.side for o in result.units if o.fate in ("intact", "damaged")}
    assert survivors == ({result.winner} if result.winner else set())
    for o in result.units:
        assert (o.fate == "destroyed") == (o.hit_points_left == 0)
        assert ("survived" in [e.kind for e in o.xp_events]) == (o.fate != "destroyed")
    assert BattleResult.from_dict(result.to_dict()) == result
    assert BattleInput.from_dict(b.to_dict()) == b
