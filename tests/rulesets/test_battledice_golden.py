"""Golden battles of `battledice`: 200 seeded sample battles, their stored result documents
(winner, fates, every log line with its dice) hashed. A change of the engine or its policy
that moves one die or one choice changes the hash; update it only with a ruling that
changes the battles, and say which and why in the commit."""

from __future__ import annotations

import hashlib
import json

from battles.rulesets.battledice.ruleset import RULESET, seeded_dice

GOLDEN = "a11ea5a948858b05fe0aad5f0e6fda07ab0913cd94d0a41a4e2274b222413776"


def test_two_hundred_seeded_battles_replay_as_recorded():
    digest = hashlib.sha256()
    for seed in range(200):
        battle = RULESET.sample_battle(seed)
        outcome = RULESET.resolve(battle, seeded_dice(battle))
        digest.update(json.dumps(RULESET.document(outcome), sort_keys=True,
                                 default=str).encode())
    assert digest.hexdigest() == GOLDEN
