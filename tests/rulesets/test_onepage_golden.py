"""Golden battles of `onepage`: 200 seeded sample battles, their stored result documents
(winner, fates, every log line with its dice) hashed. A change of the engine or its policy
that moves one die or one choice changes the hash; update it only with a ruling that
changes the battles, and say which and why in the commit."""

from __future__ import annotations

import hashlib
import json

from battles.rulesets.onepage.ruleset import RULESET, seeded_dice

GOLDEN = "c3400e4e292c5a2c7b4bdf1124fab2ee0b048a82164af6da5ebec642fcd57b16"


def test_two_hundred_seeded_battles_replay_as_recorded():
    digest = hashlib.sha256()
    for seed in range(200):
        battle = RULESET.sample_battle(seed)
        outcome = RULESET.resolve(battle, seeded_dice(battle))
        digest.update(json.dumps(RULESET.document(outcome), sort_keys=True,
                                 default=str).encode())
    assert digest.hexdigest() == GOLDEN
