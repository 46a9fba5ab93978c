"""Same input and seed -> identical result and log (ARCHITECTURE.md, "Randomness": "a
battle replays bit-for-bit from its inputs and seed")."""

import json
import random

from battles.rulesets.unlimit3d8.engine.model import BattleInput, UnitInput, WeaponInput
from battles.rulesets.unlimit3d8.engine.montecarlo import estimate_odds
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle

LOADOUTS = [
    ("paladin", ("cannon", "machine_gun")), ("minotaur", ("grappling_arms", "beamer")),
    ("lycaon", ("blaster", "shot_gun")), ("centaur", ("missile_launcher", "cannon")),
    ("golem", ("road_header",)), ("hellound", ("machine_gun", "buster")),
    ("kanker", ("beamer",)), ("stakanov", ("grenade_launcher",)), ("shark", ()),
]
CLASSES = ["soldier", "bandit", "worker", "scientist"]


def random_battle(seed: int) -> BattleInput:
    rng = random.Random(seed)
    sides: dict[str, tuple[UnitInput, ...]] = {}
    uid = 0
    for side in ("red", "blue"):
        roster = []
        for _ in range(rng.randint(2, 4)):
            uid += 1
            vehicle, weapons = rng.choice(LOADOUTS)
            roster.append(UnitInput(uid, side, f"u{uid}", vehicle, rng.choice(CLASSES),
                                    rng.randint(1, 8), tuple(WeaponInput(w) for w in weapons),
                                    pilot_id=uid))
        sides[side] = tuple(roster)
    return BattleInput(territory=seed, defender="red", sides=sides, seed=seed)


def test_100_seeded_battles_replay_bit_for_bit():
    for seed in range(100):
        battle = random_battle(seed)
        first = json.dumps(resolve_battle(battle).to_dict(), sort_keys=True)
        again = json.dumps(resolve_battle(BattleInput.from_dict(
            json.loads(json.dumps(battle.to_dict())))).to_dict(), sort_keys=True)
        assert first == again, seed


def test_the_log_does_not_change_the_dice():
    battle = random_battle(5)
    with_log = resolve_battle(battle)
    without = resolve_battle(battle, keep_log=False)
    assert with_log.units == without.units and with_log.winner == without.winner


def test_odds_are_reproducible_and_sum_to_one():
    battle = random_battle(3)
    odds = estimate_odds(battle, 20, seed=9)
    assert odds == estimate_odds(battle, 20, seed=9)
    assert abs(sum(odds["win_probability"].values()) - 1) < 1e-9
