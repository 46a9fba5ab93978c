"""Campaign-level dice (exploration, production, discoveries): seeded from the campaign.

`campaign_dice(campaign, purpose)` returns a `Dice` whose generator is seeded from the
campaign's seed and a purpose string (e.g. ``"explore:12"``), so the same campaign
rolls the same faces for the same purpose, whatever else happened before — an umpire
can replay any roll from the seed and the purpose stored beside it.

Tests and the casebook script the faces with ``with forced_dice([3, 5, 8]): ...``:
inside the block every `campaign_dice` call returns one shared `ForcedDice`, so the
faces are consumed in the order the services roll them.
"""

from __future__ import annotations

import contextvars
import hashlib
import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from campaign.rules.dice import Dice, DiceExhaustedError, ForcedDice, Roll

__all__ = ["Dice", "DiceExhaustedError", "ForcedDice", "Roll", "campaign_dice",
           "derived_random", "derived_seed", "forced_dice", "seeded_random"]

_forced: contextvars.ContextVar[ForcedDice | None] = contextvars.ContextVar(
    "campaign_forced_dice", default=None
)


def seeded_random(seed: int, purpose: str) -> random.Random:
    """A private generator for (seed, purpose); never the global one."""
    return random.Random(f"{seed}:{purpose}")


def derived_seed(campaign_seed: int, *parts: object) -> int:
    """A stable 63-bit seed for (campaign seed, purpose parts): the seed a battle or an
    odds request stores, so it replays without the campaign."""
    text = ":".join(str(p) for p in (campaign_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & ((1 << 63) - 1)


def derived_random(campaign_seed: int, *parts: object) -> random.Random:
    """A private generator for one purpose (never the global one)."""
    return random.Random(derived_seed(campaign_seed, *parts))


def campaign_dice(campaign: Any, purpose: str) -> Dice:
    """Dice for one purpose of one campaign (the forced dice inside `forced_dice`)."""
    forced = _forced.get()
    if forced is not None:
        return forced
    return Dice(seeded_random(int(campaign.seed), purpose))


@contextmanager
def forced_dice(faces: Iterable[int]) -> Iterator[ForcedDice]:
    """Make every `campaign_dice` call in this context return the same scripted dice."""
    dice = ForcedDice(faces)
    token = _forced.set(dice)
    try:
        yield dice
    finally:
        _forced.reset(token)
