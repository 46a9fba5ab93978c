"""Which model takes the damage: "For every failed Save, one Unit member of the Player's
choice loses the Attack's DAM in HP" (Defence Saves). The owner's standing choices
(the layer's `allocate` verb) and the default policy's (R-MOB-11)."""

from __future__ import annotations

from collections.abc import Sequence

from battles.rulesets.mobius.rules import Pick, wounded_first


def healthiest_first(models: Sequence[int], amount: int) -> int:
    """The model with the most HP left takes it (damage spread, the wounded finished last)."""
    return max(range(len(models)), key=lambda i: (models[i], -i))


def keep_alive(models: Sequence[int], amount: int) -> int:
    """A sensible owner keeps models alive (R-MOB-11): a model that survives the damage
    takes it, the healthiest; when none would, the one with the fewest HP left falls (the
    least HP lost)."""
    best = healthiest_first(models, amount)
    return best if models[best] > amount else wounded_first(models, amount)


ALLOCATIONS: dict[str, Pick] = {"keep_alive": keep_alive, "wounded_first": wounded_first,
                                "healthiest_first": healthiest_first}
