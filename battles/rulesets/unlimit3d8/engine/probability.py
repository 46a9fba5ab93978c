"""Exact odds of a skill test (for policies; the battle itself always rolls the dice)."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Final

from battles.rulesets.unlimit3d8.engine.card import score

SUM_COUNTS: dict[int, int] = dict(Counter(a + b + c for a, b, c in product(range(1, 9),
                                                                          repeat=3)))

#: p_success of skills 0..63 against difficulties -64..191, filled in once worked out
#: (-1.0: not yet): read from the compiled policy on every candidate shot, a list index
#: costs far less than a call through `functools.lru_cache` or a tuple-keyed dict.
_SKILLS: Final = 64
_LOW: Final = -64
_SPAN: Final = 256
_TABLE: Final[list[float]] = [-1.0] * (_SKILLS * _SPAN)
#: Pairs outside the table (none in the seed's ranges), kept too.
_OTHERS: Final[dict[tuple[int, int], float]] = {}


def p_success(skill_value: int, difficulty: int) -> float:
    """Probability that a 3d8 roll of this skill reaches the difficulty."""
    column = difficulty - _LOW
    if 0 <= skill_value < _SKILLS and 0 <= column < _SPAN:
        index = skill_value * _SPAN + column
        p = _TABLE[index]
        if p < 0.0:
            p = _TABLE[index] = _exact(skill_value, difficulty)
        return p
    key = (skill_value, difficulty)
    found = _OTHERS.get(key)
    if found is None:
        found = _exact(skill_value, difficulty)
        if len(_OTHERS) < 4096:
            _OTHERS[key] = found
    return found


def _exact(skill_value: int, difficulty: int) -> float:
    good = sum(n for total, n in SUM_COUNTS.items() if score(skill_value, total) >= difficulty)
    return good / 512
