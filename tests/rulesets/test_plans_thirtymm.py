"""Issue 29 in 30 Minute Missions: a sealed plan changes how a side fights, in the
direction it should (docs/rulings/thirtymm.md R-30-24..27), and a battle without plans is
fought as before. The sample battle: side 1 (attacker, east edge) has a standard mech (1,
110 durability), an assault tank (2, 70), a gunship (3, aerial, 35) and a scout drone (4,
26); side 2 (defender, west edge) a standard mech (5, 110), an assault tank (6, 70), a
patrol boat (7, 45) and a scout drone (8, 26)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from battles.rulesets.base import (
    Battlefield,
    FieldUnit,
    Outcome,
    Plan,
    RulesetError,
    outcome_document,
)
from battles.rulesets.registry import find_ruleset
from battles.rulesets.thirtymm import actions as A
from battles.rulesets.thirtymm import policy as P
from battles.rulesets.thirtymm import tables as T
from campaign.rules import hexgrid as H
from campaign.rules.dice import Dice

RULESET = find_ruleset("thirtymm")
SEEDS = range(16)


def _battle(seed: int, plans: dict[str, Any] | None = None) -> dict[str, Any]:
    battle = RULESET.sample_battle(seed)
    if plans is not None:
        battle["plans"] = plans
    return battle


def _fight(seed: int, plans: dict[str, Any] | None = None) -> Outcome:
    return RULESET.resolve(_battle(seed, plans), Dice(seed))


def _count(outcome: Outcome, player: int, fate: str) -> int:
    return sum(1 for f in outcome.units if f.player == player and f.fate == fate)


@pytest.mark.parametrize("player", [1, 2])
def test_a_side_told_to_withdraw_at_once_loses_fewer_units_than_one_fighting_to_the_end(
        player: int) -> None:
    """R-30-24: "This continues until the Mission is completed or a player surrenders" -
    a side that leaves over its own table edge at once loses (almost) nothing; fighting
    to the end it loses units in most battles."""
    plan = {str(player): {"stance": "withdraw"}}
    withdraw = sum(_count(_fight(s, plan), player, "destroyed") for s in SEEDS)
    end = {str(player): {"stance": "attack", "retreat_at": 100}}
    to_the_end = sum(_count(_fight(s, end), player, "destroyed") for s in SEEDS)
    assert to_the_end >= 20, to_the_end  # 16 battles of 4 units: losses happen
    assert withdraw * 4 < to_the_end, (withdraw, to_the_end)


def test_a_withdrawing_side_leaves_by_its_own_edge_and_the_battle_records_it() -> None:
    outcome = _fight(1, {"1": {"stance": "withdraw"}})
    side_1 = [f for f in outcome.units if f.player == 1]
    assert {f.fate for f in side_1} == {"retreated"}
    assert all(f.detail["withdrew"] for f in side_1)
    assert outcome.winner == 2
    entry = next(e for e in outcome.log if e.get("event") == "plan_withdraw")
    assert entry == {**entry, "side": "1", "lost": 0, "retreat_at": 100, "stance": "withdraw"}
    leaving = [e for e in outcome.log if e.get("action") == "withdraw"]
    assert sorted(e["unit"] for e in leaving) == [1, 2, 3, 4]
    # side 1 deployed by the east short edge: every walker left from its row's last hex
    assert all(e["at"][0] == T.row_length(e["at"][1]) - 1 for e in leaving
               if e["unit"] != 3), leaving


def test_retreat_at_a_share_of_starting_strength_withdraws_once_that_much_is_lost() -> None:
    """R-30-25: strength is the durability left in the sections of its units."""
    plan = {"1": {"retreat_at": 30}}
    entries = [e for s in SEEDS for e in _fight(s, plan).log
               if e.get("event") == "plan_withdraw"]
    assert len(entries) >= 8
    assert all(e["lost"] >= 30 and e["stance"] == "attack" and e["retreat_at"] == 30
               for e in entries)
    assert all(e["round"] > 1 or e["lost"] >= 30 for e in entries)


def test_retreat_at_saves_units_over_fighting_to_the_end() -> None:
    at_30 = sum(_count(_fight(s, {"1": {"retreat_at": 30}}), 1, "destroyed") for s in SEEDS)
    to_the_end = sum(_count(_fight(s), 1, "destroyed") for s in SEEDS)
    assert at_30 < to_the_end, (at_30, to_the_end)


def _first_out(seed: int, focus: str | None) -> int | None:
    log = _fight(seed, {"1": {"focus": focus}} if focus else None).log
    return next((e["unit"] for e in log if e.get("action") == "out" and e.get("side") == "2"),
                None)


def test_focus_weakest_puts_the_weakest_enemy_out_first() -> None:
    """R-30-27: `weakest` is the enemy with the fewest durability points left: the scout
    drone (8, 26). Without a plan the tank (6) is the usual first loss."""
    weakest = Counter(_first_out(s, "weakest") for s in SEEDS)
    default = Counter(_first_out(s, None) for s in SEEDS)
    assert weakest[8] >= 12, weakest
    assert default[8] <= 4, default


def test_focus_strongest_puts_the_strongest_enemy_out_first() -> None:
    strongest = Counter(_first_out(s, "strongest") for s in SEEDS)
    assert strongest[5] >= 12, strongest


@pytest.mark.parametrize("side", ["1", "2"])
def test_hold_never_moves_toward_the_enemy(side: str) -> None:
    """R-30-26: a holding side's units never make a standard move; side 1's gunship must
    fly (aerial vehicles "must move the full amount") but never nearer the enemy."""
    moved = 0
    for seed in range(8):
        play = A.start(_battle(seed, {side: {"stance": "hold"}}), Dice(seed))
        while not play.over:
            action = P.choose(play)
            mine = [u for u in play.b.units if u.side == side and u.alive]
            before = {u.id: (u.at, _nearest(play, u)) for u in mine}
            A.apply(play, action)
            if action["do"] == "move":
                assert str(action["side"]) != side, action
            for u in mine:
                if u.alive and u.at != before[u.id][0]:
                    moved += 1
                    assert _nearest(play, u) >= before[u.id][1], (seed, u.name, action)
    assert (moved > 0) == (side == "1")  # only the gunship ever changes hex


def _nearest(play: A.Play, u: Any) -> int:
    return min((H.distance(u.at, e.at) for e in play.b.enemies(u)), default=99)


def test_no_plan_and_a_plan_of_the_defaults_fight_exactly_as_before() -> None:
    """R-30-27: attack, retreat_at 100, focus nearest is the default policy's own play."""
    for seed in range(6):
        plain = _fight(seed)
        planned = _fight(seed, {"1": Plan().to_dict(), "2": Plan().to_dict()})
        assert plain.log == planned.log
        assert plain.units == planned.units


@pytest.mark.parametrize("plans", [
    {"1": {"stance": "charge"}},
    {"1": {"retreat_at": 150}},
    {"1": {"retreat_at": "half"}},
    {"1": {"focus": "loudest"}},
    {"1": "withdraw"},
    ["withdraw"],
    {"9": {"stance": "hold"}},
])
def test_a_malformed_plan_is_refused(plans: Any) -> None:
    with pytest.raises(RulesetError):
        RULESET.resolve(_battle(0, plans), Dice(0))
    with pytest.raises(RulesetError):
        RULESET.odds(_battle(0, plans), simulations=2, seed=0)


def test_odds_take_the_plans_into_account() -> None:
    """Odds fight through the same policy: a side that withdraws at once never wins."""
    plain = RULESET.odds(_battle(0), simulations=30, seed=7)
    leaving = RULESET.odds(_battle(0, {"2": {"stance": "withdraw"}}), simulations=30, seed=7)
    assert plain["win_probability"]["2"] >= 0.2
    assert leaving["win_probability"]["2"] == 0
    assert leaving["expected_units_lost"]["2"] < plain["expected_units_lost"]["2"]


def test_forces_copy_the_battlefields_plans_into_the_input() -> None:
    def unit(uid: int, player: int) -> FieldUnit:
        e = next(e for e in RULESET.catalogue() if e.key == "standard_mech")
        return FieldUnit(id=uid, player=player, key=e.key, name=f"Mech {uid}",
                         profile=dict(e.profile), state=RULESET.initial_state(e.key))

    sides = {1: [unit(1, 1)], 2: [unit(2, 2)]}
    planned = RULESET.forces(Battlefield(territory=1, defender=2, seed=3, sides=sides,
                                         plans={1: Plan(stance="hold", focus="weakest")}))
    assert planned["plans"] == {"1": {"stance": "hold", "retreat_at": 100,
                                      "focus": "weakest"}}
    plain = RULESET.forces(Battlefield(territory=1, defender=2, seed=3, sides=sides))
    assert "plans" not in plain


def test_the_board_replay_shows_the_units_that_left_as_retreated() -> None:
    battle = _battle(1, {"1": {"stance": "withdraw"}})
    outcome = RULESET.resolve(battle, Dice(1))
    board = RULESET.board(battle, outcome_document(outcome), list(outcome.log))
    states = {k: m.state for k, m in board.frames[-1].units.items()}
    assert {states[k] for k in ("1", "2", "3", "4")} == {"retreated"}
    assert {states[k] for k in ("5", "6", "7", "8")} == {"active"}
