"""Dice: the one seam every die goes through, for the campaign and for every ruleset.

Pure Python (no Django), so the core and every tactical ruleset share it. `Dice.roll(n)`
draws one n-sided die (d6 for the one-page and Mobius rules, d8 for Unlimit3d 8 and 30
Minute Missions; a symbol die is a d6 whose faces the ruleset's table names). Unlimit3d 8,
"Making a roll": "To roll, you need three eight-sided dice (3d8) ... the active die,
the passive die, the nemesis die". Every d8 the engine uses (3d8 rolls, deviation
directions, ...) is drawn through a `Dice` object, so a battle replays from its seed and a
test or the casebook can script the exact faces with `ForcedDice`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


class DiceExhaustedError(RuntimeError):
    """A `ForcedDice` was asked for more faces than it was given."""


@dataclass(frozen=True, slots=True)
class Roll:
    """One 3d8 roll: the active, passive and nemesis dice (announced before rolling)."""

    active: int
    passive: int
    nemesis: int

    @property
    def total(self) -> int:
        """The sum read on the J row of the unit card."""
        return self.active + self.passive + self.nemesis

    def to_dict(self) -> dict[str, int]:
        return {"active": self.active, "passive": self.passive, "nemesis": self.nemesis,
                "total": self.total}


class DiceSource(Protocol):
    """Anything that produces d8 faces and 3d8 rolls."""

    def d8(self) -> int: ...

    def roll_3d8(self) -> Roll: ...


class Dice:
    """Seeded dice: faces come from an injected `random.Random`, never the global one."""

    __slots__ = ("_rng", "count")

    def __init__(self, rng: random.Random | int | None = None) -> None:
        if rng is None or isinstance(rng, int):
            rng = random.Random(rng or 0)
        self._rng = rng
        self.count = 0

    def roll(self, sides: int) -> int:
        """One die with `sides` faces, 1..sides."""
        self.count += 1
        # randrange(n) + 1 draws exactly what randint(1, n) draws (randint is
        # randrange(1, n + 1), the same single draw below n) for a quarter less CPU:
        # every seeded battle replays as before (tests/rulesets/test_golden_battles.py).
        return self._rng.randrange(sides) + 1

    def plain_generator(self) -> random.Random | None:
        """The seeded `random.Random` these dice draw from, for a compiled ruleset that
        draws many faces itself, exactly as `roll` would: `randrange(n)` is
        `getrandbits(n.bit_length())` drawn again until it is below n (CPython's
        `Random._randbelow_with_getrandbits`; tests/rulesets/mobius/test_dice.py), and adds
        to `count` what it draws. None where every face must go through `roll`
        (`ForcedDice`, a subclass, another generator)."""
        if type(self) is Dice and type(self._rng) is random.Random:
            return self._rng
        return None

    def d6(self) -> int:
        """One six-sided die, 1..6."""
        return self.roll(6)

    def d8(self) -> int:
        """One eight-sided die, 1..8."""
        self.count += 1
        return self._rng.randrange(8) + 1

    def roll_3d8(self) -> Roll:
        """Active, passive and nemesis dice, drawn in that order."""
        return Roll(self.d8(), self.d8(), self.d8())


class ForcedDice(Dice):
    """Dice that yield the given faces in order (tests and the casebook).

    `roll_3d8()` takes three faces: active, passive, nemesis. When the faces run out a
    `DiceExhaustedError` names how many were consumed, so a script that is too short fails
    loudly instead of silently falling back to chance.
    """

    __slots__ = ("_faces",)

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self._faces = list(faces)
        for face in self._faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 8:
                raise ValueError(f"a die face must be 1..8, got {face!r}")

    @property
    def remaining(self) -> int:
        return len(self._faces) - self.count

    def roll(self, sides: int) -> int:
        face = self.d8()
        if face > sides:
            raise ValueError(f"forced face {face} does not fit a d{sides}")
        return face

    def d8(self) -> int:
        if self.count >= len(self._faces):
            raise DiceExhaustedError(
                f"ForcedDice exhausted: {len(self._faces)} faces given, a further die was "
                "needed"
            )
        face = self._faces[self.count]
        self.count += 1
        return face
