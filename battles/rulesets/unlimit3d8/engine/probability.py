"""Exact odds of a skill test (for policies; the battle itself always rolls the dice)."""

from __future__ import annotations

from collections import Counter
from itertools import product

from battles.rulesets.unlimit3d8.engine.card import score

SUM_COUNTS: dict[int, int] = dict(Counter(a + b + c for a, b, c in product(range(1, 9),
                                                                          repeat=3)))

#: (skill value, difficulty) -> probability, kept once worked out. A plain dict read from
#: the compiled policy costs far less than a call through `functools.lru_cache` (the
#: policy asks on every candidate shot); the pairs are few (skills 0..~30, difficulties
#: of one battle), bounded below all the same.
_KNOWN: dict[tuple[int, int], float] = {}
_KNOWN_MAX = 8192


def p_success(skill_value: int, difficulty: int) -> float:
    """Probability that a 3d8 roll of this skill reaches the difficulty."""
    key = (skill_value, difficulty)
    p = _KNOWN.get(key)
    if p is None:
        good = sum(n for total, n in SUM_COUNTS.items()
                   if score(skill_value, total) >= difficulty)
        p = good / 512
        if len(_KNOWN) < _KNOWN_MAX:
            _KNOWN[key] = p
    return p
