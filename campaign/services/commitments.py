"""Verifiable dice (issue 18): each phase's dice come from a secret seed whose SHA-256
commitment is published (journal, dashboard, `GET .../dice/`) when the phase opens; the
seed is revealed when the phase is over, and every roll of the phase can then be
recomputed (`verify_phase`, `GET .../verify/`, `manage.py verify_dice`).

A seed never leaves the server before its phase is over: only `dice_rows` reads it, and
it returns it once `revealed_at` is set. Ruling R-DICE-1 (docs/RULINGS.md): rolls made
while a phase is left belong to that phase; rolls made while one is entered, to the new
one; a battle keeps the seed it was opened with, however often its job is retried.
R-DICE-4: a seed once committed is never discarded: a rollback keeps every seed drawn
since its point, and a phase entered again rolls with the seed it committed the first time
(so an umpire cannot roll back until the dice please them).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone

from campaign.errors import Conflict, InvalidInput
from campaign.hooks import Hook
from campaign.models import Campaign, PhaseSeed
from campaign.services.journal import record_event


def commitment_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def draw_secret(campaign: Campaign) -> str:
    """256 random bits; with the setting DICE_SECRETS = "campaign_seed" (the test suite,
    reproducible demos: never a real league, anyone who knows the campaign seed could
    compute it) the campaign seed itself, which rolls exactly the dice campaigns rolled
    before commitments existed."""
    if getattr(settings, "DICE_SECRETS", "random") == "campaign_seed":
        return str(int(campaign.seed))
    return secrets.token_hex(32)


def commit(campaign: Campaign, turn: int, phase: str) -> PhaseSeed:
    """Draw the phase's secret seed and publish its commitment (once per phase)."""
    seed, created = PhaseSeed.objects.get_or_create(
        campaign=campaign, turn=turn, phase=phase,
        defaults={"secret": (s := draw_secret(campaign)), "commitment": commitment_of(s)})
    if created:
        record_event(campaign=campaign, kind="dice_committed",
                     data={"turn": turn, "phase": phase, "commitment": seed.commitment})
    else:  # re-entered after a rollback: the seed committed the first time stays (issue 30)
        record_event(campaign=campaign, kind="dice_committed",
                     data={"turn": turn, "phase": phase, "commitment": seed.commitment,
                           "kept": True})
    return seed


def reveal(campaign: Campaign, turn: int, phase: str) -> None:
    """The phase is over: publish its seed."""
    seed = PhaseSeed.objects.filter(campaign=campaign, turn=turn, phase=phase,
                                    revealed_at__isnull=True).first()
    if seed is None:
        return
    seed.revealed_at = timezone.now()
    seed.save(update_fields=["revealed_at"])
    record_event(campaign=campaign, kind="dice_revealed",
                 data={"turn": turn, "phase": phase, "seed": seed.secret,
                       "commitment": seed.commitment})


def dice_rows(campaign: Campaign) -> list[dict[str, Any]]:
    """API.md "Trust": every phase's commitment, and its seed once the phase is over."""
    return [{"turn": s.turn, "phase": s.phase, "commitment": s.commitment,
             "seed": s.secret if s.revealed_at else None}
            for s in PhaseSeed.objects.filter(campaign=campaign)]


@dataclass
class Check:
    """What one verifier found: rolls recomputed and the mismatches."""

    rolls: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)


dice_verified: Hook[[Campaign, int, str, str], Check] = Hook("dice_verified", """Recompute
what an app rolled in a finished phase.

Called by `campaign.services.commitments.verify_phase` as `receiver(campaign, turn,
phase, secret)` once the phase's seed is revealed and matches its commitment, for each
receiver by key (`key="exploration"`, `"battle"`: the name its mismatches are reported
under); it returns a `Check` (rolls recomputed, mismatches).""")


def verify_phase(campaign: Campaign, turn: Any, phase: Any) -> dict[str, Any]:
    """Recompute every roll of a finished phase from its revealed seed."""
    try:
        turn = int(turn)
    except (TypeError, ValueError):
        raise InvalidInput("turn must be a whole number.", code="invalid_turn") from None
    seed = PhaseSeed.objects.filter(campaign=campaign, turn=turn, phase=str(phase)).first()
    if seed is None:
        raise Conflict("No dice were committed for that turn and phase (it has not been "
                       "played, or was played before dice were committed).", code="no_dice")
    if seed.revealed_at is None:
        raise Conflict("That phase is not over: its seed is still secret.",
                       code="phase_not_over")
    if commitment_of(seed.secret) != seed.commitment:
        return {"verified": False, "rolls": 0,
                "mismatches": [{"what": "commitment", "detail": "the seed does not match "
                                "the commitment published when the phase opened"}]}
    rolls = 0
    mismatches: list[dict[str, Any]] = []
    for connection in sorted(dice_verified.connections(), key=lambda c: c.key):
        name = connection.key
        check = connection.fn(campaign, turn, seed.phase, seed.secret)
        rolls += check.rolls
        mismatches += [{"what": name, **m} for m in check.mismatches]
    return {"verified": not mismatches, "rolls": rolls, "mismatches": mismatches}


__all__ = ["commit", "dice_rows", "dice_verified", "reveal", "verify_phase"]
