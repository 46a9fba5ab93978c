"""Issue 29 in Unlimit3d 8: a sealed plan changes how a side fights, in the direction it
should (docs/RULINGS.md R-PLAN-1..4), and a battle without plans is fought as before."""

from __future__ import annotations

import pytest

from battles.rulesets.base import Plan, RulesetError
from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESET = find_ruleset("unlimit3d8")
SEEDS = range(40)


def _fight(seed: int, plans: dict[str, dict[str, object]] | None = None):  # type: ignore[no-untyped-def]
    battle = RULESET.sample_battle(seed)
    if plans:
        battle["plans"] = plans
    return RULESET.resolve(battle, Dice(seed))


def _lost(outcome, player: int) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for f in outcome.units if f.player == player and f.fate == "destroyed")


def test_a_side_told_to_withdraw_at_once_loses_fewer_units_than_one_fighting_to_the_end(
) -> None:
    """Seed, "Tactical phase": units fight "until all the units of one side are either
    destroyed or retreat to an adjacent territory" - when to retreat is the player's call."""
    withdraw = sum(_lost(_fight(s, {"1": {"stance": "withdraw"}}), 1) for s in SEEDS)
    to_the_end = sum(_lost(_fight(s, {"1": {"stance": "attack", "retreat_at": 100}}), 1)
                     for s in SEEDS)
    assert to_the_end >= 10  # the attackers lose units over 40 battles when they stay
    assert withdraw * 2 < to_the_end, (withdraw, to_the_end)


def test_withdrawing_sides_retreat_and_the_battle_records_it() -> None:
    outcome = _fight(1, {"1": {"stance": "withdraw"}})
    fates = {f.fate for f in outcome.units if f.player == 1}
    assert "retreated" in fates
    assert outcome.winner == 2


def test_retreat_at_a_share_of_starting_strength_withdraws_once_that_much_is_lost() -> None:
    withdrew = [s for s in SEEDS
                if any(e.get("event") == "plan_withdraw"
                       for e in _fight(s, {"1": {"retreat_at": 30}}).log)]
    assert withdrew
    entry = next(e for e in _fight(withdrew[0], {"1": {"retreat_at": 30}}).log
                 if e.get("event") == "plan_withdraw")
    assert entry["lost"] >= 30


def _first_killed(focus: str, seed: int) -> object:
    log = _fight(seed, {"1": {"focus": focus}}).log
    return next((e["target"] for e in log if e.get("event") == "damage"
                 and e.get("destroyed") and e.get("target") in (3, 4)), None)


def _attacks(focus: str | None, seed: int) -> dict[object, int]:
    log = _fight(seed, {"1": {"focus": focus}} if focus else None).log
    counts: dict[object, int] = {3: 0, 4: 0}
    for e in log:
        if e.get("event") == "action" and e.get("side") == "1" and e.get("target") in counts:
            counts[e["target"]] += 1
    return counts


def test_focus_weakest_kills_the_weakest_enemy_first() -> None:
    """Side 2 has a golem (id 3, 25 hit points) and a lycaon (id 4, 15): told to focus on
    the weakest, side 1 destroys the lycaon first in every battle where it destroys one."""
    firsts = [_first_killed("weakest", s) for s in SEEDS]
    assert {f for f in firsts if f is not None} == {4}
    assert sum(f is not None for f in firsts) >= 10


def test_focus_strongest_and_weakest_shoot_at_different_enemies() -> None:
    weakest = [_attacks("weakest", s) for s in range(12)]
    strongest = [_attacks("strongest", s) for s in range(12)]
    assert sum(a[4] for a in weakest) > sum(a[3] for a in weakest)
    assert sum(a[3] for a in strongest) > sum(a[4] for a in strongest)


def test_hold_never_moves_a_unit() -> None:
    for seed in range(10):
        log = _fight(seed, {"2": {"stance": "hold"}}).log
        assert not [e for e in log if e.get("event") == "action" and e.get("side") == "2"
                    and e.get("action") in ("Move", "Assault", "Warp", "Ram", "Tackle")]


def test_no_plan_fights_exactly_as_before() -> None:
    for seed in range(5):
        assert _fight(seed).log == _fight(seed, {}).log


@pytest.mark.parametrize("bad", [{"stance": "charge"}, {"retreat_at": 120},
                                 {"focus": "tallest"}])
def test_a_malformed_plan_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(RulesetError):
        _fight(0, {"1": bad})


def test_the_neutral_plan_refuses_what_no_ruleset_knows() -> None:
    assert Plan().to_dict() == {"stance": "attack", "retreat_at": 100, "focus": "nearest"}
    with pytest.raises(RulesetError):
        Plan(retreat_at=-1)
