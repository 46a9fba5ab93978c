"""Seeds derived from the campaign's seed, so every battle and estimate replays exactly."""

from __future__ import annotations

import hashlib
import random


def derived_seed(campaign_seed: int, *parts: object) -> int:
    """A stable 63-bit seed for (campaign seed, purpose parts)."""
    text = ":".join(str(p) for p in (campaign_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & ((1 << 63) - 1)


def derived_random(campaign_seed: int, *parts: object) -> random.Random:
    """A private generator for one purpose (never the global one)."""
    return random.Random(derived_seed(campaign_seed, *parts))
