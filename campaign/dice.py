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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from campaign.models import PhaseSeed
from campaign.rules.dice import Dice, DiceExhaustedError, ForcedDice, Roll

__all__ = ["Dice", "DiceExhaustedError", "ForcedDice", "Roll", "battle_seed", "campaign_dice",
           "derived_random", "derived_seed", "dice_for", "forced_dice", "phase_secret",
           "rolling", "rolling_phase", "seeded_random"]

_forced: contextvars.ContextVar[ForcedDice | None] = contextvars.ContextVar(
    "campaign_forced_dice", default=None
)


def seeded_random(seed: int, purpose: str) -> random.Random:
    """A private generator for (seed, purpose); never the global one."""
    return random.Random(f"{seed}:{purpose}")


def derived_seed(campaign_seed: int | str, *parts: object) -> int:
    """A stable 63-bit seed for (campaign seed, purpose parts): the seed a battle or an
    odds request stores, so it replays without the campaign."""
    text = ":".join(str(p) for p in (campaign_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & ((1 << 63) - 1)


def derived_random(campaign_seed: int | str, *parts: object) -> random.Random:
    """A private generator for one purpose (never the global one)."""
    return random.Random(derived_seed(campaign_seed, *parts))


#: (campaign id, turn, phase) whose dice are rolling now: the clock sets it around the
#: hooks it runs (leaving a phase rolls that phase's dice; entering one, the new one's).
_rolling: contextvars.ContextVar[tuple[int, int, str] | None] = contextvars.ContextVar(
    "campaign_rolling_phase", default=None)


@contextmanager
def rolling(campaign: Any, turn: int, phase: str) -> Iterator[None]:
    """Roll the dice of (turn, phase) inside this block."""
    token = _rolling.set((campaign.pk, turn, phase))
    try:
        yield
    finally:
        _rolling.reset(token)


def rolling_phase(campaign: Any) -> tuple[int, str]:
    """The (turn, phase) whose dice roll now for this campaign."""
    current = _rolling.get()
    if current is not None and current[0] == campaign.pk:
        return current[1], current[2]
    return int(campaign.turn), str(campaign.phase or "setup")


def phase_secret(campaign: Any) -> str | None:
    """The secret seed of the phase rolling now (None for a campaign, or a phase, from
    before seeds were committed: its dice come from the campaign seed)."""
    turn, phase = rolling_phase(campaign)
    return (PhaseSeed.objects.filter(campaign_id=campaign.pk, turn=turn, phase=phase)
            .values_list("secret", flat=True).first())


def dice_for(secret: str | None, campaign_seed: int, purpose: str) -> Dice:
    """The dice of one purpose: from the phase's secret seed, or (no secret) from the
    campaign's seed as before commitments existed. Verification rebuilds them so."""
    if secret:
        return Dice(random.Random(f"{secret}:{purpose}"))
    return Dice(seeded_random(int(campaign_seed), purpose))


def campaign_dice(campaign: Any, purpose: str) -> Dice:
    """Dice for one purpose of one campaign, from the secret seed of the phase rolling
    now (the forced dice inside `forced_dice`)."""
    forced = _forced.get()
    if forced is not None:
        return forced
    return dice_for(phase_secret(campaign), campaign.seed, purpose)


def dice_source(campaign: Any) -> Callable[[str], Dice]:
    """`campaign_dice` for many purposes of the phase rolling now, its secret read once:
    purpose -> dice (the forced dice inside `forced_dice`)."""
    forced = _forced.get()
    if forced is not None:
        return lambda _purpose: forced
    secret = phase_secret(campaign)
    return lambda purpose: dice_for(secret, campaign.seed, purpose)


def battle_seed(campaign: Any, turn: int, territory_name: str) -> int:
    """The seed a battle is fought with: from the phase's secret seed (committed when the
    tactical phase opened), else from the campaign's seed."""
    return battle_seed_from(phase_secret(campaign), int(campaign.seed), turn, territory_name)


def battle_seed_from(secret: str | None, campaign_seed: int, turn: int,
                     territory_name: str) -> int:
    """`battle_seed` with the phase's secret already read (many battles opened at once)."""
    return derived_seed(secret if secret else int(campaign_seed), "battle", turn,
                        territory_name)


@contextmanager
def forced_dice(faces: Iterable[int]) -> Iterator[ForcedDice]:
    """Make every `campaign_dice` call in this context return the same scripted dice."""
    dice = ForcedDice(faces)
    token = _forced.set(dice)
    try:
        yield dice
    finally:
        _forced.reset(token)
