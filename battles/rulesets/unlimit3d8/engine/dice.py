"""The engine's dice are the campaign's one dice seam (`campaign.rules.dice`, pure Python).

Seed, "Making a roll": "To roll, you need three eight-sided dice (3d8) ... the active die,
the passive die, the nemesis die".

`SeededDice` is the campaign's `Dice` with its d8 drawn inline (issue 15: a battle rolls
thousands): the very faces `random.Random.randint(1, 8)` gives, from the same draws of the
generator, checked against `randint` when this module loads (else it simply calls it).
"""

from __future__ import annotations

import random

from campaign.rules.dice import Dice, DiceExhaustedError, DiceSource, ForcedDice, Roll


def _inline_d8(rng: random.Random) -> int:
    """`rng.randint(1, 8)` as CPython computes it: 1 + a 4-bit draw below 8 (rejection)."""
    r = rng.getrandbits(4)
    while r >= 8:
        r = rng.getrandbits(4)
    return 1 + r


def _same_as_randint() -> bool:
    a, b = random.Random(20251124), random.Random(20251124)
    return all(a.randint(1, 8) == _inline_d8(b) for _ in range(512)) and \
        a.getrandbits(32) == b.getrandbits(32)


INLINE = _same_as_randint()


class SeededDice(Dice):
    """Seeded dice for a battle: the faces and the generator's state exactly as `Dice`'s."""

    __slots__ = ()

    def d8(self) -> int:
        rng = self._rng
        if not INLINE or type(rng) is not random.Random:
            return super().d8()
        self.count += 1
        r = rng.getrandbits(4)
        while r >= 8:
            r = rng.getrandbits(4)
        return 1 + r

    def inline_generator(self) -> random.Random | None:
        """The generator a compiled caller may draw a roll from as `roll_3d8` does inline
        (`actions.attack.roll_3d8`: the caller counts its dice), or None: call `roll_3d8`."""
        rng = self._rng
        return rng if INLINE and type(rng) is random.Random else None


__all__ = ["Dice", "DiceExhaustedError", "DiceSource", "ForcedDice", "Roll", "SeededDice"]
