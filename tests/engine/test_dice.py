"""The dice seam: seeded d8s and scripted faces (seed, "Making a roll")."""

import random

import pytest

from battles.rulesets.unlimit3d8.engine.actions.attack import roll_3d8
from battles.rulesets.unlimit3d8.engine.dice import (
    Dice,
    DiceExhaustedError,
    ForcedDice,
    Roll,
    SeededDice,
)


def test_roll_has_three_named_dice_and_a_total():
    """ "You must choose and announce before rolling which die matches up to each of the
    following: The active die ... The passive die ... The nemesis die" and "Add up the three
    dice and find the sum on the J row"."""
    roll = ForcedDice([3, 5, 8]).roll_3d8()
    assert roll == Roll(active=3, passive=5, nemesis=8)
    assert roll.total == 16


def test_forced_dice_yield_in_order_and_fail_loudly_when_exhausted():
    dice = ForcedDice([1, 2, 3, 4])
    assert dice.roll_3d8() == Roll(1, 2, 3)
    assert dice.d8() == 4
    with pytest.raises(DiceExhaustedError, match="4 faces given"):
        dice.d8()


def test_forced_dice_refuse_faces_a_d8_cannot_show():
    with pytest.raises(ValueError):
        ForcedDice([0, 9])


def test_seeded_dice_replay_and_stay_within_1_to_8():
    a = [Dice(random.Random(7)).d8() for _ in range(1)]
    first = Dice(random.Random(7))
    second = Dice(random.Random(7))
    faces = [first.d8() for _ in range(300)]
    assert faces == [second.d8() for _ in range(300)]
    assert set(faces) == set(range(1, 9))
    assert a[0] == faces[0]


def test_a_battles_seeded_dice_roll_the_campaign_dices_faces():
    """Issue 15: `SeededDice` draws its d8 inline, the very faces (and generator state)
    of `Dice`, whose faces are `random.Random.randint(1, 8)`."""
    from battles.rulesets.unlimit3d8.engine.dice import INLINE, Dice, SeededDice

    assert INLINE  # CPython's randint(1, 8) is what the inline draw reproduces
    for seed in (0, 1, 42, 2**31 + 7):
        plain, fast = Dice(random.Random(seed)), SeededDice(random.Random(seed))
        faces = [plain.d8() for _ in range(300)] + [plain.roll_3d8() for _ in range(100)]
        assert faces == [fast.d8() for _ in range(300)] + [fast.roll_3d8() for _ in range(100)]
        assert plain.count == fast.count == 600
        assert plain._rng.random() == fast._rng.random()


def test_the_campaign_dice_draw_what_randint_draws() -> None:
    """campaign.rules.dice draws with randrange(n) + 1 for speed: the faces of a seed are
    those randint(1, n) gives, so every seeded battle and recorded roll replays as before."""
    import random

    from campaign.rules.dice import Dice

    for seed in (0, 1, 7, 2026):
        dice, reference = Dice(seed), random.Random(seed)
        for sides in [6, 8, 10, 20, 3, 2, 12] * 300:
            assert dice.roll(sides) == reference.randint(1, sides)
            assert dice.d8() == reference.randint(1, 8)


def test_a_skill_tests_roll_draws_what_the_seeded_dice_draw() -> None:
    """`actions.attack.roll_3d8` draws a seeded roll itself (compiled, without the dice's
    interpreted call): the same faces, the same count, the generator left where it was."""
    ours, theirs = SeededDice(random.Random(7)), SeededDice(random.Random(7))
    rolls = [roll_3d8(ours) for _ in range(2000)]
    assert rolls == [theirs.roll_3d8() for _ in range(2000)]
    assert len(set(rolls)) > 400  # most of the 512 faces came up, each its own
    assert ours.count == theirs.count == 6000
    assert ours.d8() == theirs.d8()
    forced = ForcedDice([2, 7, 5])
    assert roll_3d8(forced) == Roll(2, 7, 5)  # any other dice roll as they do
