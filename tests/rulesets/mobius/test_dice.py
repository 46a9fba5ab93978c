"""Mobius draws its D6 through `rules.d6s`: read straight from a plain seeded `Dice`'s
generator, it must give exactly the faces and the count `Dice.roll(6)` gives (every seeded
battle replays as before), and any other dice must still roll through their own `roll`."""

from __future__ import annotations

import random

import pytest

from battles.rulesets.mobius import rules
from campaign.rules.dice import Dice, ForcedDice


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**31 - 1])
def test_d6s_draws_the_faces_and_count_of_roll(seed: int) -> None:
    fast, slow = Dice(random.Random(seed)), Dice(random.Random(seed))
    for n in (0, 1, 2, 5, 13, 40, 1):
        assert rules.d6s(fast, n) == [slow.roll(6) for _ in range(n)]
        assert rules.d6(fast) == slow.d6()
    assert fast.count == slow.count
    # the generator is left where `roll` leaves it: the next draws agree too
    assert fast.roll(8) == slow.roll(8)


def test_d6s_rolls_forced_dice_through_their_own_roll() -> None:
    forced = ForcedDice([6, 1, 3, 4])
    assert rules.d6s(forced, 3) == [6, 1, 3]
    assert rules.d6(forced) == 4
    assert forced.remaining == 0


def test_d6s_rolls_dice_on_another_generator_through_roll() -> None:
    class Counting(random.Random):
        draws = 0

        def getrandbits(self, k: int) -> int:
            self.draws += 1
            return super().getrandbits(k)

    rng, plain = Counting(3), Dice(random.Random(3))
    assert rules.d6s(Dice(rng), 4) == [plain.roll(6) for _ in range(4)]
    assert rng.draws >= 4  # through `Dice.roll` and the generator's own `getrandbits`
