"""Exact odds of a skill test (for policies; the battle itself always rolls the dice)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

from battles.rulesets.unlimit3d8.engine.card import score

SUM_COUNTS: dict[int, int] = dict(Counter(a + b + c for a, b, c in product(range(1, 9),
                                                                          repeat=3)))


@lru_cache(maxsize=8192)
def p_success(skill_value: int, difficulty: int) -> float:
    """Probability that a 3d8 roll of this skill reaches the difficulty."""
    good = sum(n for total, n in SUM_COUNTS.items() if score(skill_value, total) >= difficulty)
    return good / 512
