"""Golden battles: seeded battles of every ruleset replay bit-identically.

`golden_battles.json` holds, per ruleset, the SHA-256 of the result document and log of
each of its sample battles (`sample_battle(seed)`, fought with `Dice(seed)` and the default
policy). A refactor of an engine, its policy or its action layer must leave every digest
as it is; only a ruling that changes the seed's reading may change a ruleset's digests,
and then the commit that rewrites them (`python -m tests.rulesets.test_golden_battles
--write RULESET`) names the ruling.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

GOLDEN = Path(__file__).with_name("golden_battles.json")
SEEDS = range(24)


def digest(ruleset_name: str, seed: int) -> dict[str, object]:
    ruleset = find_ruleset(ruleset_name)
    outcome = ruleset.resolve(ruleset.sample_battle(seed), Dice(seed))
    document = ruleset.document(outcome)
    blob = json.dumps({"document": document, "log": list(outcome.log)}, sort_keys=True,
                      default=str).encode()
    return {"seed": seed, "winner": outcome.winner, "rounds": outcome.rounds,
            "sha256": hashlib.sha256(blob).hexdigest()}


def _golden() -> dict[str, list[dict[str, object]]]:
    data: dict[str, list[dict[str, object]]] = json.loads(GOLDEN.read_text())
    return data


@pytest.mark.parametrize("ruleset_name", sorted(_golden()))
def test_golden_battles_replay_bit_identically(ruleset_name: str) -> None:
    expected = _golden()[ruleset_name]
    assert len(expected) == len(SEEDS)
    got = [digest(ruleset_name, seed) for seed in SEEDS]
    changed = [g["seed"] for g, e in zip(got, expected, strict=True) if g != e]
    assert not changed, (f"{ruleset_name}: seeded battles {changed} no longer replay as "
                         "recorded; only a changed ruling may change them (rewrite with "
                         "--write and name the ruling in the commit)")


def test_every_ruleset_has_golden_battles() -> None:
    from battles.rulesets.registry import names

    assert set(_golden()) == set(names())


if __name__ == "__main__":  # pragma: no cover - the rewrite, by hand, after a ruling
    import django

    django.setup()
    from battles.rulesets.registry import names

    golden = _golden() if GOLDEN.exists() else {}
    targets = sys.argv[2:] if sys.argv[1:2] == ["--write"] else []
    for name in targets or names():
        golden[name] = [digest(name, seed) for seed in SEEDS]
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
