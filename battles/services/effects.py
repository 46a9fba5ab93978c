"""Ruleset-specific consequences of a battle, applied by handlers keyed by effect kind.

A ruleset declares the effects its outcomes may carry (`Ruleset.effects`); the campaign
connects one handler per kind to the hook point `effect_applied` (`key=` the kind,
`label=` its summary key), and recording calls them in the
order the outcome lists its effects. Each handler writes through the owning app's
services and returns the lines for the battle's summary under its `summary` key (every
declared kind's key is present, empty when the battle had no such effect). An outcome
carrying a kind with no handler is refused: the battle's job fails visibly instead of
dropping a consequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battles.rulesets.base import Effect, RulesetError
from campaign.hooks import Hook


@dataclass(frozen=True)
class Recording:
    """What a handler knows of the battle being recorded (rows locked by recording)."""

    campaign: Any
    battle: Any
    units: dict[int, Any]  # unit id -> locked Unit, after its fate was applied
    sides: dict[str, int]  # ruleset side -> player id
    players: dict[int, Any]
    winner_id: int | None


effect_applied: Hook[[Recording, dict[str, Any]], list[dict[str, Any]]] = Hook(
    "effect_applied", """A ruleset-specific consequence of a battle, applied.

Called by `battles.services.effects.apply_effects` (recording, after the units' fates are
saved) as `receiver(recording, effect data)` for the one receiver connected under the
effect's kind (`key="cargo"`), in the order the outcome lists its effects; the receiver
writes through the owning app's services and returns the lines for the battle's summary,
reported under its `label` (every declared kind's label is present, empty when the
battle had no such effect).""")


def handled_kinds() -> tuple[str, ...]:
    return tuple(effect_applied.keys())


def apply_effects(recording: Recording, declared: Sequence[str],
                  effects: Sequence[Effect]) -> dict[str, list[dict[str, Any]]]:
    """Run each effect's handler; the summary lines by key."""
    summary: dict[str, list[dict[str, Any]]] = {}
    for kind in declared:
        for connection in effect_applied.connections(kind)[:1]:
            summary[connection.label] = []
    for effect in effects:
        found = effect_applied.connections(effect.kind)[:1]
        if not found or effect.kind not in declared:
            raise RulesetError(f"The battle's outcome carries an effect {effect.kind!r} that "
                               "its ruleset does not declare or the campaign cannot apply.")
        summary.setdefault(found[0].label, []).extend(found[0].fn(recording, effect.data))
    return summary
