"""Issue 29 in Mobius: a sealed plan changes how a side fights, in the direction it should
(docs/rulings/mobius.md R-MOB-40..43), and a battle without plans is fought as before."""

from __future__ import annotations

from typing import Any

import pytest

from battles.rulesets.base import Battlefield, FieldUnit, Plan, RulesetError
from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESET = find_ruleset("mobius")
SEEDS = range(40)


def _battle(seed: int, plans: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    battle = RULESET.sample_battle(seed)
    if plans:
        battle["plans"] = plans
    return battle


def _fight(seed: int, plans: dict[str, dict[str, Any]] | None = None):  # type: ignore[no-untyped-def]
    return RULESET.resolve(_battle(seed, plans), Dice(seed))


def _lost(outcome, player: int) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for f in outcome.units if f.player == player and f.fate == "destroyed")


def test_a_side_told_to_withdraw_at_once_loses_fewer_units_than_one_fighting_to_the_end(
) -> None:
    """Seed, Routing: "If a Unit moves off the battlefield (i.e. too far towards a table
    edge), they Rout from the battle" - a withdrawing side makes for its edge (R-MOB-40)."""
    withdraw = sum(_lost(_fight(s, {"1": {"stance": "withdraw"}}), 1) for s in SEEDS)
    to_the_end = sum(_lost(_fight(s, {"1": {"stance": "attack", "retreat_at": 100}}), 1)
                     for s in SEEDS)
    assert to_the_end >= 15  # side 1 loses units over 40 battles when it stays
    assert withdraw * 4 < to_the_end, (withdraw, to_the_end)


def test_withdrawing_units_leave_by_their_own_edge_and_come_back_retreated() -> None:
    outcome = _fight(1, {"1": {"stance": "withdraw"}})
    mine = [f for f in outcome.units if f.player == 1]
    assert {f.fate for f in mine} <= {"retreated", "destroyed"}
    assert "retreated" in {f.fate for f in mine}
    assert outcome.winner == 2
    entry = next(e for e in outcome.log if e.get("event") == "plan_withdraw")
    assert {k: entry[k] for k in ("side", "lost", "retreat_at", "stance")} == {
        "side": "1", "lost": 0, "retreat_at": 100, "stance": "withdraw"}
    routs = [e for e in outcome.log if e.get("action") == "rout" and e.get("side") == "1"]
    assert routs and all(e["to"] >= 24 + 12 for e in routs), routs  # its edge: 12" behind


def test_retreat_at_withdraws_once_that_share_of_the_hp_is_lost() -> None:
    """R-MOB-41: strength is the HP of the side's models; the side takes stock as its
    Movement Phase opens."""
    entries = [e for s in SEEDS for e in _fight(s, {"1": {"retreat_at": 30}}).log
               if e.get("event") == "plan_withdraw"]
    assert len(entries) >= 10
    assert all(e["lost"] >= 30 and e["stance"] == "attack" for e in entries)
    never = [e for s in range(10) for e in _fight(s, {"1": {"retreat_at": 100}}).log
             if e.get("event") == "plan_withdraw"]
    assert never == []


def _first_destroyed(focus: str, seed: int) -> int | None:
    """The first enemy unit side 1 destroys, watched action by action through the layer;
    side 2's squad 7 starts with 2 HP left (the weakest), the rest with 10 or more."""
    battle = _battle(seed, {"1": {"focus": focus}})
    for u in battle["sides"]["2"]:
        if u["id"] == 7:
            u["hp"] = [1, 1]
    layer = RULESET.actions()
    state = layer.start(battle, Dice(seed))
    while layer.actor(state) is not None:
        layer.apply(state, layer.choose(state))
        gone = [int(uid) for uid, u in layer.view(state)["units"].items()
                if u["side"] == 2 and u["destroyed"]]
        if gone:
            return min(gone)
    return None


def test_focus_weakest_kills_the_weakest_enemy_first() -> None:
    """R-MOB-43: `weakest` is the enemy with the fewest HP left."""
    weakest = [_first_destroyed("weakest", s) for s in range(12)]
    assert sum(f is not None for f in weakest) >= 6
    assert {f for f in weakest if f is not None} == {7}, weakest
    nearest = [_first_destroyed("nearest", s) for s in range(12)]
    assert {f for f in nearest if f is not None} != {7}, nearest


def _attacked(focus: str) -> tuple[dict[int, int], list[int]]:
    """How often side 1 charges, shoots or strikes each enemy over 8 battles (squad 7 weakened to 2
    HP), and whom its first attack of each battle went for."""
    counts: dict[int, int] = {}
    firsts: list[int] = []
    for s in range(8):
        battle = _battle(s, {"1": {"focus": focus}})
        for u in battle["sides"]["2"]:
            if u["id"] == 7:
                u["hp"] = [1, 1]
        attacks = [e["target"] for e in RULESET.resolve(battle, Dice(s)).log
                   if e.get("side") == "1" and e.get("action") in ("charge", "fire", "melee")]
        firsts += attacks[:1]
        for t in attacks:
            counts[t] = counts.get(t, 0) + 1
    return counts, firsts


def test_focus_strongest_spares_the_weakest_and_weakest_goes_for_it() -> None:
    """R-MOB-43: `strongest` shoots the enemy with the most HP left first."""
    (weakest, weak_firsts), (strongest, strong_firsts) = (_attacked("weakest"),
                                                          _attacked("strongest"))
    assert weak_firsts == [7] * 8, weak_firsts
    assert 7 not in strong_firsts, strong_firsts
    assert strongest.get(7, 0) * 2 < weakest[7], (strongest, weakest)


def test_hold_never_moves_toward_the_enemy() -> None:
    """R-MOB-42: side 2 (deployed at 0") holds: none of its units moves to a larger x,
    charges or pushes toward the enemy."""
    for seed in range(12):
        battle = _battle(seed, {"2": {"stance": "hold"}})
        layer = RULESET.actions()
        state = layer.start(battle, Dice(seed))
        while layer.actor(state) is not None:
            before = {uid: u["x"] for uid, u in layer.view(state)["units"].items()
                      if u["side"] == 2}
            action = layer.choose(state)
            layer.apply(state, action)
            if action["side"] == 2:
                assert action["do"] not in ("charge", "push_it", "disembark"), action
                after = layer.view(state)["units"]
                assert all(after[uid]["x"] <= x for uid, x in before.items()), action


def test_no_plan_fights_exactly_as_before() -> None:
    for seed in range(5):
        assert _fight(seed).log == _fight(seed, {}).log


@pytest.mark.parametrize("bad", [{"stance": "charge"}, {"retreat_at": 120},
                                 {"focus": "tallest"}])
def test_a_malformed_plan_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(RulesetError):
        _fight(0, {"1": bad})


def test_forces_copies_the_plans_into_the_input() -> None:
    unit = FieldUnit(id=1, player=1, key="egg_pawns", name="Pawns",
                     state=RULESET.initial_state("egg_pawns"))
    data = RULESET.forces(Battlefield(territory=1, defender=1, sides={1: [unit]},
                                      plans={1: Plan(stance="hold", focus="weakest")}))
    assert data["plans"] == {"1": {"stance": "hold", "retreat_at": 100, "focus": "weakest"}}
    assert "plans" not in RULESET.forces(Battlefield(territory=1, defender=1,
                                                     sides={1: [unit]}))


def test_odds_take_the_plan_into_account() -> None:
    fight = RULESET.odds(_battle(3), simulations=30, seed=1)
    flee = RULESET.odds(_battle(3, {"1": {"stance": "withdraw"}}), simulations=30, seed=1)
    assert flee["win_probability"]["1"] < fight["win_probability"]["1"], (flee, fight)
