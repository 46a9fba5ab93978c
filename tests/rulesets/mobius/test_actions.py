"""Mobius's action layer (issue 28): the battle as refereed choices. Every action `legal`
offers is accepted, a refusal changes nothing (not even the dice), the default policy only
plays what the referee accepts, and `resolve` is that policy playing through the layer."""

from __future__ import annotations

import copy
import random

import pytest

from battles.rulesets.base import ActionLayer, ActionRefused
from battles.rulesets.mobius.allocation import keep_alive
from battles.rulesets.mobius.ruleset import RULESET, seeded_dice
from campaign.rules.dice import Dice


def _dice(seed: int) -> Dice:
    return Dice(random.Random(seed))


def test_the_layer_is_an_action_layer_and_resolve_is_its_policy_playing():
    layer = RULESET.actions()
    assert isinstance(layer, ActionLayer)
    for seed in (1, 2, 3):
        battle = RULESET.sample_battle(seed)
        state = layer.start(battle, seeded_dice(battle))
        steps = 0
        while layer.actor(state) is not None:
            layer.apply(state, layer.choose(state))
            steps += 1
        assert steps > 10
        assert layer.legal(state) == []
        resolved = RULESET.resolve(battle, seeded_dice(battle))
        assert layer.view(state)["winner"] == resolved.winner
        assert state.b.log == list(resolved.log)


def test_every_legal_action_is_accepted_and_the_policy_chooses_among_them():
    layer = RULESET.actions()
    offered = 0
    for seed in (4, 5):
        battle = RULESET.sample_battle(seed)
        state = layer.start(battle, _dice(seed))
        step = 0
        while layer.actor(state) is not None:
            if step % 4 == 0:
                for action in layer.legal(state):
                    trial = copy.deepcopy(state)
                    layer.apply(trial, action)  # never refused
                    offered += 1
            choice = layer.choose(state)
            if choice["do"] not in ("stay", "disembark"):
                # the policy's choice is one `legal` offers (moves are offered in the
                # whole allowance; the policy may stop short, still within it)
                keys = {k: v for k, v in choice.items() if k not in ("inches", "keep")}
                assert any(keys.items() <= a.items() for a in layer.legal(state)), choice
            layer.apply(state, choice)
            step += 1
    assert offered > 100


def test_a_refusal_changes_nothing_not_even_the_dice():
    layer = RULESET.actions()
    battle = RULESET.sample_battle(7)
    dice = _dice(7)
    state = layer.start(battle, dice)
    before = copy.deepcopy(layer.view(state))
    rolled = dice.count
    side = layer.actor(state)
    assert side is not None
    other = next(int(s) for s in state.b.order if int(s) != side)
    mine = next(u.id for u in state.b.units if int(u.side) == side and u.joined is None
                and u.inside is None and not u.vehicle)
    theirs = next(u.id for u in state.b.units if int(u.side) == other and u.joined is None
                  and u.inside is None and not u.flying)
    for action, code in (
            ({"side": other, "do": "next"}, "not_your_turn"),
            ({"side": side, "do": "fire", "unit": mine, "target": theirs, "weapon": "x"},
             "wrong_phase"),
            ({"side": side, "do": "move", "unit": theirs, "kind": "standard", "to": 1},
             "not_your_unit"),
            ({"side": side, "do": "move", "unit": mine, "kind": "standard", "to": 100},
             "too_far"),
            ({"side": side, "do": "fly", "unit": mine}, "unknown_action"),
            ({"side": side, "do": "stay", "unit": 999}, "no_such_unit"),
            ({"side": side, "do": "charge", "unit": mine, "target": theirs,
              "kind": "standard"}, "first_turn_curse")):
        with pytest.raises(ActionRefused) as refused:
            layer.apply(state, action)
        assert refused.value.code == code
        assert str(refused.value)  # a sentence, quoting the rule where there is one
        assert layer.view(state) == before
    assert dice.count == rolled


def test_choosing_changes_nothing():
    layer = RULESET.actions()
    battle = RULESET.sample_battle(8)
    state = layer.start(battle, _dice(8))
    for _ in range(30):
        before = copy.deepcopy(layer.view(state))
        first = layer.choose(state)
        assert layer.choose(state) == first
        assert layer.view(state) == before
        layer.apply(state, first)


def test_the_owner_keeps_models_alive_and_the_choice_depends_on_the_damage():
    # 1 damage: the healthy model takes it (both stand); 2: the wounded one falls
    assert keep_alive([1, 2], 1) == 1
    assert keep_alive([1, 2], 2) == 0
    assert keep_alive([2, 2, 2], 1) == 0


def test_an_unknown_policy_is_refused_with_a_sentence():
    layer = RULESET.actions()
    battle = RULESET.sample_battle(1)
    state = layer.start(battle, _dice(1))
    with pytest.raises(ValueError, match="no policy"):
        layer.choose(state, "berserk")
