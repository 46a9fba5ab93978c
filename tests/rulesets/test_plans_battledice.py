"""Issue 29 in battle dice: a sealed plan changes how a side fights, in the direction it
should (docs/rulings/battledice.md R-BD-14..17), and a battle without plans is fought as
before. The sample battle: side 1 (the attacker, edge row 7) has medium infantry (id 1,
four models), heavy vehicles (id 2, one model of size 3) and a Leader (id 3) with the
infantry; side 2 (the defender, edge row 0) medium infantry (id 4, four models), medium
vehicles (id 5, two models) and a light God Machine (id 6, size 5)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.rulesets.base import Battlefield, FieldUnit, Plan, RulesetError
from battles.rulesets.battledice import actions as A
from battles.rulesets.battledice import policy as P
from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESET = find_ruleset("battledice")
SEEDS = range(40)


def _fight(seed: int, plans: dict[str, dict[str, object]] | None = None):  # type: ignore[no-untyped-def]
    battle = RULESET.sample_battle(seed)
    if plans is not None:
        battle["plans"] = plans
    return RULESET.resolve(battle, Dice(seed))


def _lost(outcome, player: int) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for f in outcome.units if f.player == player and f.fate == "destroyed")


@pytest.mark.parametrize("side", [1, 2])
def test_a_side_told_to_withdraw_at_once_loses_fewer_units_than_one_fighting_to_the_end(
        side: int) -> None:
    """R-BD-14: withdrawing, a side's units leave by their own table edge."""
    key = str(side)
    withdraw = sum(_lost(_fight(s, {key: {"stance": "withdraw"}}), side) for s in SEEDS)
    to_the_end = sum(_lost(_fight(s, {key: {"stance": "attack", "retreat_at": 100}}), side)
                     for s in SEEDS)
    assert to_the_end >= 20, to_the_end  # staying, the side loses units over 40 battles
    assert withdraw * 2 < to_the_end, (withdraw, to_the_end)


def test_withdrawing_units_leave_retreated_and_the_log_says_the_plan_decided_it() -> None:
    """The defender (side 2) acts first: it withdraws before it has lost anything."""
    outcome = _fight(1, {"2": {"stance": "withdraw", "retreat_at": 60}})
    assert {f.fate for f in outcome.units if f.player == 2} == {"retreated"}
    assert outcome.winner == 1
    entry = next(e for e in outcome.log if e.get("event") == "plan_withdraw")
    assert {k: entry[k] for k in ("side", "lost", "retreat_at", "stance")} == {
        "side": "2", "lost": 0, "retreat_at": 60, "stance": "withdraw"}
    assert [e for e in outcome.log if e.get("action") == "withdraw"]


def test_retreat_at_withdraws_once_that_share_of_the_hits_is_lost() -> None:
    """R-BD-15: strength is the hits the side's units can take (models, or a single
    model's Damage Capacity): side 1 starts with 4 + 3 + 1 = 8."""
    entries = [e for s in SEEDS for e in _fight(s, {"1": {"retreat_at": 30}}).log
               if e.get("event") == "plan_withdraw"]
    assert len(entries) >= 10
    assert all(e["lost"] >= 30 and e["side"] == "1" and e["stance"] == "attack"
               for e in entries)
    # fighting to the end, nobody withdraws by plan
    assert not [e for s in SEEDS for e in _fight(s, {"1": {"retreat_at": 100}}).log
                if e.get("event") == "plan_withdraw"]


def _first_destroyed(seed: int, focus: str | None) -> object:
    log = _fight(seed, {"1": {"focus": focus}} if focus else None).log
    return next((e["target"] for e in log if e.get("side") == "1" and e.get("destroyed")),
                None)


def _battled(focus: str | None) -> dict[object, int]:
    counts: dict[object, int] = {4: 0, 5: 0, 6: 0}
    for seed in SEEDS:
        for e in _fight(seed, {"1": {"focus": focus}} if focus else None).log:
            if e.get("side") == "1" and e.get("action") in ("fire", "close_assault"):
                counts[e["target"]] += 1
    return counts


def test_focus_weakest_kills_the_weakest_enemy_first() -> None:
    """The medium vehicles (id 5, two hits) are side 2's weakest unit at the start."""
    weakest = [_first_destroyed(s, "weakest") for s in SEEDS]
    nearest = [_first_destroyed(s, None) for s in SEEDS]
    assert weakest.count(5) >= 20
    assert weakest.count(5) > nearest.count(5)
    assert weakest.count(5) >= 8 * sum(f is not None and f != 5 for f in weakest)


def test_focus_weakest_and_strongest_battle_different_enemies() -> None:
    weakest, strongest = _battled("weakest"), _battled("strongest")
    assert weakest[5] > max(weakest[4], weakest[6]), weakest
    assert strongest[6] > max(strongest[4], strongest[5]), strongest


def _situation(plan: dict[str, object] | None, **setup: Any) -> A.State:
    battle: dict[str, Any] = {
        "defender": "2", "terrain": [], "deck": [2, 3, 4, 1, 1, 1, 2, 2, 3, 3, 4, 4],
        "options": {"battledice_max_turns": 2},
        "sides": {"1": [{"id": 11, "name": "u11", "key": "light_god_machine", "models": 1,
                         "at": [4, 5]}],
                  "2": [{"id": 21, "name": "u21", "key": "medium_infantry", "models": 4,
                         "at": [4, 3]},
                        {"id": 22, "name": "u22", "key": "medium_vehicle", "models": 2,
                         "at": [5, 2]},
                        {"id": 23, "name": "u23", "key": "light_god_machine", "models": 1,
                         "at": [2, 3]}]}}
    if plan is not None:
        battle["plans"] = {"1": plan}
    return A.start(battle, Dice(0), {"side": 1, "ordered": [11], **setup})


@pytest.mark.parametrize(("focus", "target"), [
    (None, 21), ("nearest", 21), ("weakest", 22), ("strongest", 23)])
def test_focus_picks_the_target_among_those_in_range_and_sight(focus: str | None,
                                                              target: int) -> None:
    """R-BD-17: nearest is the default player's target (the infantry two hexes away);
    weakest the vehicles (two hits), strongest the God Machine (five)."""
    s = _situation({"focus": focus} if focus else None, phase="battle")
    assert P.choose(s) == {"side": 1, "do": "battle", "unit": 11, "target": target}


def test_focus_still_close_assaults_an_adjacent_enemy() -> None:
    """"An ordered unit that is adjacent to an enemy unit must 'Close Assault' that unit":
    focus chooses only among the enemies the unit may battle."""
    s = _situation({"focus": "strongest"}, phase="battle",
                   units={"21": {"at": [4, 4]}})
    assert P.choose(s)["target"] == 21


def test_hold_never_moves_a_unit() -> None:
    """R-BD-16: holding, no unit of the side moves (retreat symbols still push it)."""
    for seed in SEEDS:
        for side in ("1", "2"):
            log = _fight(seed, {side: {"stance": "hold"}}).log
            assert not [e for e in log if e.get("side") == side
                        and e.get("action") in ("move", "withdraw")]


def test_attacking_sides_do_move() -> None:  # the hold test above can fail
    log = _fight(0, {"1": {"stance": "attack"}}).log
    assert [e for e in log if e.get("side") == "1" and e.get("action") == "move"]


def test_no_plan_fights_exactly_as_before_and_a_neutral_plan_the_same() -> None:
    for seed in range(10):
        before = _fight(seed).log
        assert _fight(seed, {}).log == before
        neutral = _fight(seed, {"1": Plan().to_dict(), "2": Plan().to_dict()}).log
        assert neutral == before


@pytest.mark.parametrize("bad", [{"stance": "charge"}, {"retreat_at": 120},
                                 {"retreat_at": -1}, {"focus": "tallest"}])
def test_a_malformed_plan_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(RulesetError):
        _fight(0, {"1": bad})


def test_forces_copies_the_plans_into_the_input() -> None:
    unit = FieldUnit(id=1, player=1, key="medium_infantry", name="Rifles", profile={},
                     state={})
    foe = FieldUnit(id=2, player=2, key="medium_infantry", name="Guards", profile={},
                    state={})
    field = Battlefield(territory=1, defender=2, sides={1: [unit], 2: [foe]},
                        plans={1: Plan(stance="hold", retreat_at=50, focus="weakest")})
    assert RULESET.forces(field)["plans"] == {
        "1": {"stance": "hold", "retreat_at": 50, "focus": "weakest"}}
    assert "plans" not in RULESET.forces(Battlefield(territory=1, defender=2,
                                                     sides={1: [unit], 2: [foe]}))


def test_odds_take_the_plan_into_account() -> None:
    battle = RULESET.sample_battle(3)
    plain = RULESET.odds(battle, simulations=60, seed=1)
    withdrawing = RULESET.odds({**battle, "plans": {"2": {"stance": "withdraw"}}},
                               simulations=60, seed=1)
    assert withdrawing != plain
    assert _win(withdrawing, 2) < _win(plain, 2)


def _win(odds: dict[str, Any], player: int) -> float:
    return float(odds["win_probability"][str(player)])


@pytest.mark.parametrize("stance", ["withdraw", "hold", "attack"])
def test_a_planned_side_chooses_only_what_the_referee_lists(stance: str) -> None:
    """R-BD-13: the planned player, like the default one, plays only legal actions (the
    referee lists one order per card, any choice of that many units is legal: `apply`
    refuses what is not)."""
    for seed in range(8):
        battle = RULESET.sample_battle(seed)
        battle["plans"] = {"1": {"stance": stance, "retreat_at": 50, "focus": "weakest"},
                           "2": {"stance": "attack", "focus": "strongest"}}
        s = A.start(battle, Dice(seed))
        while s.side is not None:
            action = P.choose(s)
            if action["do"] != "order":
                assert action in A.legal(s), action
            A.apply(s, action)


def test_the_board_replay_shows_the_withdrawn_units_retreated() -> None:
    """The log alone folds the leaving units into retreated markers (the outcome's fates,
    which the last frame takes too, are left out here)."""
    battle = RULESET.sample_battle(1)
    battle["plans"] = {"2": {"stance": "withdraw"}}
    result = RULESET.document(RULESET.resolve(battle, Dice(1)))
    frames = RULESET.board(battle, {**result, "units": []}, result["log"]).frames
    left = [(frame, str(e["unit"])) for frame in frames for e in frame.entries
            if e.get("action") == "withdraw"]
    assert left
    for frame, uid in left:
        assert frame.units[uid].state == "retreated", uid
