"""The owner's choices the rules leave open outside the phases. Which model takes the
damage: "For every failed Save, one Unit member of the Player's choice loses the Attack's
DAM in HP" (Defence Saves): the owner's standing choices (the layer's `allocate` verb) and
the default policy's (R-MOB-11). Which unit a leader joins: "Independents can join
friendly Units by entering Unit Cohesion" (R-MOB-38; the layer's `join`)."""

from __future__ import annotations

from collections.abc import Sequence

from battles.rulesets.mobius.rules import Pick, wounded_first
from battles.rulesets.mobius.state import Unit


def healthiest_first(models: Sequence[int], amount: int) -> int:
    """The model with the most HP left takes it (damage spread, the wounded finished last)."""
    return models.index(max(models))  # the most HP, the first such model on a tie


def keep_alive(models: Sequence[int], amount: int) -> int:
    """A sensible owner keeps models alive (R-MOB-11): a model that survives the damage
    takes it, the healthiest; when none would, the one with the fewest HP left falls (the
    least HP lost)."""
    best = healthiest_first(models, amount)
    return best if models[best] > amount else wounded_first(models, amount)


ALLOCATIONS: dict[str, Pick] = {"keep_alive": keep_alive, "wounded_first": wounded_first,
                                "healthiest_first": healthiest_first}


def safest_host(leader: Unit, hosts: Sequence[Unit]) -> Unit | None:
    """Which unit a leader joins as the battle begins (R-MOB-38): a sensible owner keeps
    its leader safe, behind its Bodyguard, else behind the Troops unit with the most models
    ("an enemy trying to target an Independent must get past the whole Unit first!"), then
    the most HP, then the first bought."""
    fit = [h for h in hosts if h.side == leader.side and h.rank in ("bodyguard", "troops")]
    if not fit:
        return None
    return min(fit, key=lambda h: (h.rank != "bodyguard", -h.alive, -h.hp_left, h.id))
