"""One-page as refereed choices (issue 28): the default policy only ever chooses an
action the referee lists as legal, and a refused action changes nothing."""

from __future__ import annotations

import copy
import random

import pytest

from battles.rulesets.base import ActionLayer, ActionRefused
from battles.rulesets.onepage.ruleset import RULESET, seeded_dice


def test_the_layer_is_an_action_layer() -> None:
    assert isinstance(RULESET.actions(), ActionLayer)


@pytest.mark.parametrize("seed", range(12))
def test_every_choice_of_the_default_policy_is_legal_and_replays_resolve(seed: int) -> None:
    layer = RULESET.actions()
    battle = RULESET.sample_battle(seed)
    state = layer.start(battle, seeded_dice(battle))
    choices = 0
    while layer.actor(state) is not None:
        action = layer.choose(state)
        assert action in layer.legal(state)
        layer.apply(state, action)
        choices += 1
    assert choices > 4
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    assert layer.view(state)["winner"] == outcome.winner


@pytest.mark.parametrize("seed", range(6))
def test_a_refused_action_changes_nothing(seed: int) -> None:
    """Random actions of every verb, most of them illegal, at every step of a battle."""
    rnd = random.Random(seed)
    layer = RULESET.actions()
    battle = RULESET.sample_battle(seed)
    state = layer.start(battle, seeded_dice(battle))
    ids = [u["id"] for units in battle["sides"].values() for u in units]
    refused = 0
    while layer.actor(state) is not None:
        for _ in range(8):
            wild = {"side": rnd.choice([1, 2]), "do": rnd.choice(
                ["activate", "move", "aim", "done", "embark", "disembark", "assault", "fly"]),
                "unit": rnd.choice(ids), "target": rnd.choice(ids), "transport": rnd.choice(ids),
                "to": rnd.randrange(-10, 50)}
            if wild in layer.legal(state) or wild["do"] in ("activate", "assault"):
                continue  # keep the dice of the battle untouched: only probe refusals
            before = copy.deepcopy(layer.view(state))
            try:
                probe = copy.deepcopy(state)
                layer.apply(probe, wild)
            except ActionRefused as exc:
                refused += 1
                assert exc.code and exc.code == exc.code.lower()
                assert layer.view(probe) == before
        layer.apply(state, layer.choose(state))
    assert refused > 20


def test_infantry_deploys_in_its_transports_and_gets_out_to_fight() -> None:
    from battles.rulesets.base import Battlefield, FieldUnit
    from battles.rulesets.onepage.ruleset import _entry

    def unit(uid: int, player: int, key: str) -> FieldUnit:
        return FieldUnit(id=uid, player=player, key=key, name=f"{key} {uid}",
                         profile=dict(_entry(key).profile), state=RULESET.initial_state(key))

    battle = RULESET.forces(Battlefield(territory=1, defender=2, seed=3, sides={
        1: [unit(1, 1, "rifle_squad"), unit(2, 1, "armoured_carrier"), unit(5, 1, "rifle_squad")],
        2: [unit(3, 2, "rifle_squad"), unit(4, 2, "anti_tank_team")]}))
    aboard = {u["id"]: u.get("aboard") for u in battle["sides"]["1"]}
    assert aboard == {1: 2, 2: None, 5: None}  # 6 figures fit in 8 seats, 12 do not
    outcome = RULESET.resolve(battle, seeded_dice(battle))
    assert any(step.get("action") == "disembark" and step.get("unit") == 1
               for step in outcome.log)
