"""Issue 29 in the one-page rules: a sealed plan changes how a side fights, in the
direction it should (docs/rulings/onepage.md R-OP-18..21), and a battle without plans is
fought as before. The sample battle: side 1 (the attacker, 36 cm away, its edge at 42 cm)
has a rifle squad (id 1, six figures) and a light tank (id 2); side 2 (the defender, its
edge at -6 cm) a rifle squad (id 3, six figures) and an anti-tank team (id 4, three)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.rulesets.base import Battlefield, FieldUnit, Plan, RulesetError
from battles.rulesets.onepage import actions as A
from battles.rulesets.onepage import policy as P
from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESET = find_ruleset("onepage")
SEEDS = range(40)


def _fight(seed: int, plans: dict[str, dict[str, object]] | None = None):  # type: ignore[no-untyped-def]
    battle = RULESET.sample_battle(seed)
    if plans is not None:
        battle["plans"] = plans
    return RULESET.resolve(battle, Dice(seed))


def _lost(outcome, player: int) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for f in outcome.units if f.player == player and f.fate == "destroyed")


def _figures_lost(outcome, player: int) -> int:  # type: ignore[no-untyped-def]
    return sum(int(f.detail.get("figures_lost", 0)) for f in outcome.units
               if f.player == player)


def test_a_side_told_to_withdraw_at_once_loses_fewer_units_than_one_fighting_to_the_end(
) -> None:
    """R-OP-18: withdrawing, the defender's units move off their own table edge."""
    withdraw = sum(_lost(_fight(s, {"2": {"stance": "withdraw"}}), 2) for s in SEEDS)
    to_the_end = sum(_lost(_fight(s, {"2": {"stance": "attack", "retreat_at": 100}}), 2)
                     for s in SEEDS)
    assert to_the_end >= 15, to_the_end
    assert withdraw * 2 < to_the_end, (withdraw, to_the_end)


@pytest.mark.parametrize("side", [1, 2])
def test_a_withdrawing_side_loses_fewer_figures(side: int) -> None:
    """The attacker seldom loses a whole unit in six turns: count its figures."""
    key = str(side)
    withdraw = sum(_figures_lost(_fight(s, {key: {"stance": "withdraw"}}), side)
                   for s in SEEDS)
    to_the_end = sum(_figures_lost(_fight(s, {key: {"retreat_at": 100}}), side)
                     for s in SEEDS)
    assert to_the_end >= 30, to_the_end
    assert withdraw * 2 < to_the_end, (withdraw, to_the_end)


def test_withdrawing_units_leave_retreated_and_the_log_says_the_plan_decided_it() -> None:
    outcome = _fight(1, {"1": {"stance": "withdraw", "retreat_at": 60}})
    assert {f.fate for f in outcome.units if f.player == 1} == {"retreated"}
    assert outcome.winner == 2
    entry = next(e for e in outcome.log if e.get("event") == "plan_withdraw")
    assert {k: entry[k] for k in ("side", "lost", "retreat_at", "stance")} == {
        "side": "1", "lost": 0, "retreat_at": 60, "stance": "withdraw"}
    assert [e for e in outcome.log if e.get("action") == "move" and e.get("off_table")]


def test_retreat_at_withdraws_once_that_share_of_the_figures_is_lost() -> None:
    """R-OP-19: strength is figures (a vehicle is one): side 2 starts with 6 + 3 = 9."""
    entries = [e for s in SEEDS for e in _fight(s, {"2": {"retreat_at": 30}}).log
               if e.get("event") == "plan_withdraw"]
    assert len(entries) >= 10
    assert all(e["lost"] >= 30 and e["side"] == "2" and e["stance"] == "attack"
               for e in entries)
    assert not [e for s in SEEDS for e in _fight(s, {"2": {"retreat_at": 100}}).log
                if e.get("event") == "plan_withdraw"]


def _first_destroyed(seed: int, focus: str | None) -> object:
    figures = {3: 6, 4: 3}
    for e in _fight(seed, {"1": {"focus": focus}} if focus else None).log:
        target = e.get("target")
        if e.get("side") != "1" or target not in figures:
            continue
        if e.get("action") == "fire":
            figures[target] -= int((e.get("losses") or {}).get("casualties", 0))
        elif e.get("action") == "assault":
            figures[target] -= int(e.get("defender_casualties") or 0)
        if figures[target] <= 0:
            return target
    return None


def _fired_at(focus: str | None) -> dict[object, int]:
    counts: dict[object, int] = {3: 0, 4: 0}
    for seed in SEEDS:
        for e in _fight(seed, {"1": {"focus": focus}} if focus else None).log:
            if e.get("side") == "1" and e.get("action") in ("fire", "assault"):
                counts[e["target"]] += 1
    return counts


def test_focus_weakest_kills_the_weakest_enemy_first() -> None:
    """The anti-tank team (id 4, three figures) is side 2's weakest unit."""
    weakest = [_first_destroyed(s, "weakest") for s in SEEDS]
    strongest = [_first_destroyed(s, "strongest") for s in SEEDS]
    assert weakest.count(4) >= 15
    assert weakest.count(4) >= 10 * weakest.count(3)
    assert weakest.count(4) > 2 * strongest.count(4)


def test_focus_weakest_and_strongest_fire_at_different_enemies() -> None:
    weakest, strongest = _fired_at("weakest"), _fired_at("strongest")
    assert weakest[4] > weakest[3], weakest
    assert strongest[3] > 2 * strongest[4], strongest


def _situation(plan: dict[str, object] | None) -> A.State:
    battle: dict[str, Any] = RULESET.sample_battle(0)
    battle["sides"]["1"][0]["x"] = 20
    if plan is not None:
        battle["plans"] = {"1": plan}
    return A.start(battle, Dice(0), {"initiative": [1, 2], "active": 1})


@pytest.mark.parametrize(("focus", "target"), [
    (None, 3), ("nearest", 3), ("weakest", 4), ("strongest", 3)])
def test_focus_picks_the_target(focus: str | None, target: int) -> None:
    """R-OP-21: both enemies stand 20 cm away; nearest takes the lower id."""
    s = _situation({"focus": focus} if focus else None)
    assert P.choose(s) == {"side": 1, "do": "fire", "unit": 1, "target": target}


def test_focus_counts_only_enemies_the_unit_can_hurt() -> None:
    """Small arms cannot hurt the light tank (save 4+): side 2's rifle squad, told to
    focus on the weakest, fires at the rifle squad rather than the one-figure tank."""
    battle = RULESET.sample_battle(0)
    battle["sides"]["2"][0]["x"] = 20
    battle["plans"] = {"2": {"focus": "weakest"}}
    s = A.start(battle, Dice(0), {"initiative": [2, 1], "active": 3})
    assert P.choose(s)["target"] == 1


def test_hold_never_moves_toward_the_enemy_nor_assaults() -> None:
    """R-OP-20."""
    for seed in SEEDS:
        for side in ("1", "2"):
            log = _fight(seed, {side: {"stance": "hold"}}).log
            assert not [e for e in log if e.get("side") == side
                        and e.get("action") in ("move", "assault")]


def test_attacking_sides_do_move() -> None:  # the hold test above can fail
    for side in ("1", "2"):
        assert [e for s in range(10) for e in _fight(s).log
                if e.get("side") == side and e.get("action") == "move"]


def test_no_plan_fights_exactly_as_before_and_a_neutral_plan_the_same() -> None:
    for seed in range(10):
        before = _fight(seed).log
        assert _fight(seed, {}).log == before
        assert _fight(seed, {"1": Plan().to_dict(), "2": Plan().to_dict()}).log == before


@pytest.mark.parametrize("bad", [{"stance": "charge"}, {"retreat_at": 120},
                                 {"retreat_at": -1}, {"focus": "tallest"}])
def test_a_malformed_plan_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(RulesetError):
        _fight(0, {"1": bad})


def test_forces_copies_the_plans_into_the_input() -> None:
    squad = FieldUnit(id=1, player=1, key="rifle_squad", name="Rifles", profile={},
                      state={})
    team = FieldUnit(id=2, player=2, key="anti_tank_team", name="Team", profile={},
                     state={})
    field = Battlefield(territory=1, defender=2, sides={1: [squad], 2: [team]},
                        plans={2: Plan(stance="withdraw", retreat_at=0, focus="strongest")})
    assert RULESET.forces(field)["plans"] == {
        "2": {"stance": "withdraw", "retreat_at": 0, "focus": "strongest"}}
    assert "plans" not in RULESET.forces(Battlefield(territory=1, defender=2,
                                                     sides={1: [squad], 2: [team]}))


def test_odds_take_the_plan_into_account() -> None:
    battle = RULESET.sample_battle(3)
    plain = RULESET.odds(battle, simulations=60, seed=1)
    withdrawing = RULESET.odds({**battle, "plans": {"2": {"stance": "withdraw"}}},
                               simulations=60, seed=1)
    assert withdrawing["win_probability"]["2"] < plain["win_probability"]["2"]


@pytest.mark.parametrize("stance", ["withdraw", "hold", "attack"])
def test_a_planned_side_chooses_only_what_the_referee_lists(stance: str) -> None:
    """R-OP-16: the planned player, like the default one, plays only legal actions."""
    for seed in range(8):
        battle = RULESET.sample_battle(seed)
        battle["plans"] = {"1": {"stance": stance, "retreat_at": 50, "focus": "weakest"},
                           "2": {"stance": "attack", "focus": "strongest"}}
        s = A.start(battle, Dice(seed))
        while s.side is not None:
            action = P.choose(s)
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
            if e.get("action") == "move" and e.get("off_table")]
    assert left
    for frame, uid in left:
        assert frame.units[uid].state == "retreated", uid


def _carrier_battle(immobilised: bool) -> A.State:
    battle = RULESET.sample_battle(0)
    battle["sides"]["2"].append({"id": 5, "name": "Carrier", "key": "armoured_carrier",
                                 "type": "ground", "training": "green", "save": 4,
                                 "weapons": ["lmg"], "figures": 1, "x": 0, "capacity": 8,
                                 "damage": ["immobilised"] if immobilised else []})
    battle["plans"] = {"2": {"stance": "withdraw"}}
    return A.start(battle, Dice(0), {"initiative": [2, 1], "active": 4,
                                     "units": {"4": {"aboard": 5}}})


def test_withdrawing_passengers_ride_out_unless_their_transport_is_immobilised() -> None:
    """R-OP-18 with R-OP-14: passengers leave with their transport; stuck in an
    immobilised one, they get out (and then walk to their edge)."""
    assert P.choose(_carrier_battle(False))["do"] == "done"
    assert P.choose(_carrier_battle(True))["do"] == "disembark"
