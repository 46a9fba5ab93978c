"""The DefaultPolicy uses the whole repertoire of the tactical turn in real battles
(R-BAT-31): assault, tackle, warp, cohesion orders, piracy, designation, lifting and
bunkers, deterministically."""

import json
import random
from collections import Counter

from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BuildingInput,
    CargoInput,
    MissileInput,
    UnitInput,
    WeaponInput,
)
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle

ATTACKERS = [
    ("lycaon", ("warp_drive", "machine_gun")), ("lycaon", ("thunder_wire", "machine_gun")),
    ("minotaur", ("grappling_arms", "beamer")), ("lycaon", ("designator", "machine_gun")),
    ("golem", ("road_header",)), ("paladin", ("cannon", "machine_gun")),
    ("hellound", ("machine_gun", "buster")),
]
DEFENDERS = [("shark", ("machine_gun",)), ("epaulard", ("machine_gun", "machine_gun")),
             ("paladin", ("cannon", "machine_gun")), ("kanker", ("beamer",)),
             ("golem", ("road_header",))]


def rich_battle(seed: int) -> BattleInput:
    rng = random.Random(seed)
    uid = 0

    def roster(side: str, pool: list, n: int, levels: tuple[int, int]) -> tuple:
        nonlocal uid
        out = []
        for _ in range(n):
            uid += 1
            vehicle, weapons = rng.choice(pool)
            out.append(UnitInput(uid, side, f"u{uid}", vehicle,
                                 rng.choice(["soldier", "bandit", "scientist", "worker"]),
                                 rng.randint(*levels), tuple(WeaponInput(w) for w in weapons),
                                 pilot_id=uid))
        return tuple(out)

    return BattleInput(
        territory=seed, defender="red", seed=seed,
        sides={"red": roster("red", DEFENDERS, 4, (1, 3)),
               "blue": roster("blue", ATTACKERS, 5, (1, 8))},
        buildings=(BuildingInput("bk", "bunker", 8, 9), BuildingInput("lab", "laboratory", 6, 5),
                   BuildingInput("tu", "turret", 10, 6, weapon=WeaponInput("machine_gun"))),
        missiles={"blue": (MissileInput(1),), "red": (MissileInput(0),)},
        cargo=(CargoInput("c1", 4, 2, "gas", 10), CargoInput("c2", 12, 3, "minerals", 10)))


def test_default_policy_exercises_every_action_in_real_battles():
    used: Counter[str] = Counter()
    for seed in range(40):
        for e in resolve_battle(rich_battle(seed)).log:
            if e["event"] == "action":
                used[e["action"]] += 1
                if e["action"] == "Order":
                    used[f"Order:{e['kind']}"] += 1
    for action in ("Assault", "Warp", "Order:cohesion", "Piracy", "Designate",
                   "Lift", "EnterBunker", "RangedAttack", "Move"):
        assert used[action] > 0, (action, dict(used))


def test_rich_battles_replay_bit_for_bit():
    for seed in range(5):
        b = rich_battle(seed)
        first = json.dumps(resolve_battle(b).to_dict(), sort_keys=True)
        again = json.dumps(resolve_battle(BattleInput.from_dict(
            json.loads(json.dumps(b.to_dict())))).to_dict(), sort_keys=True)
        assert first == again


def test_default_policy_tackles_a_container_thief_in_contact():
    """R-BAT-31: a thief carrying a container off is worth immobilizing ("A unit can be used
    to tackle and imobilize another")."""
    from battles.rulesets.unlimit3d8.engine.actions import Lift, Tackle, perform
    from battles.rulesets.unlimit3d8.engine.policy import BattleView, DefaultPolicy
    from tests.engine.helpers import BLUE, RED, state, unit

    st = state([unit("g", RED, "golem", ["road_header"], level=3, at=(11.0, 12.6)),
                unit("m", BLUE, "minotaur", ["grappling_arms", "beamer"], at=(11.0, 11.8))],
               cargo=[CargoInput("c1", 5, 5)])
    perform(st, st.units["m"], Lift("m", "c1"))
    action = DefaultPolicy(RED, st.options).choose(BattleView(st), RED)
    assert action == Tackle("g", "m", aggressive=True)
