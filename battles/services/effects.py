"""Ruleset-specific consequences of a battle, applied by handlers keyed by effect kind.

A ruleset declares the effects its outcomes may carry (`Ruleset.effects`); the campaign
registers one handler per kind here (`effect_handler`), and recording calls them in the
order the outcome lists its effects. Each handler writes through the owning app's
services and returns the lines for the battle's summary under its `summary` key (every
declared kind's key is present, empty when the battle had no such effect). An outcome
carrying a kind with no handler is refused: the battle's job fails visibly instead of
dropping a consequence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from battles.rulesets.base import Effect, RulesetError


@dataclass(frozen=True)
class Recording:
    """What a handler knows of the battle being recorded (rows locked by recording)."""

    campaign: Any
    battle: Any
    units: dict[int, Any]  # unit id -> locked Unit, after its fate was applied
    sides: dict[str, int]  # ruleset side -> player id
    players: dict[int, Any]
    winner_id: int | None


Handler = Callable[[Recording, dict[str, Any]], list[dict[str, Any]]]


@dataclass(frozen=True)
class _Registered:
    summary: str
    handler: Handler


_HANDLERS: dict[str, _Registered] = {}


def effect_handler(kind: str, *, summary: str) -> Callable[[Handler], Handler]:
    """Register the campaign's handler for effects of `kind`, reported under `summary`."""
    def register(fn: Handler) -> Handler:
        _HANDLERS[kind] = _Registered(summary, fn)
        return fn
    return register


def handled_kinds() -> tuple[str, ...]:
    return tuple(_HANDLERS)


def apply_effects(recording: Recording, declared: Sequence[str],
                  effects: Sequence[Effect]) -> dict[str, list[dict[str, Any]]]:
    """Run each effect's handler; the summary lines by key."""
    summary: dict[str, list[dict[str, Any]]] = {}
    for kind in declared:
        if kind in _HANDLERS:
            summary[_HANDLERS[kind].summary] = []
    for effect in effects:
        registered = _HANDLERS.get(effect.kind)
        if registered is None or effect.kind not in declared:
            raise RulesetError(f"The battle's outcome carries an effect {effect.kind!r} that "
                               "its ruleset does not declare or the campaign cannot apply.")
        summary.setdefault(registered.summary, []).extend(
            registered.handler(recording, effect.data))
    return summary
