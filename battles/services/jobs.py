"""Battle jobs: claim, run the engine, record — each battle exactly once.

Status: queued -> running -> finished, or failed with the error kept. A job is claimed
under the battle's row lock; its attempts are counted at the claim, so a job that keeps
killing its worker (redelivered by late acknowledgement) is quarantined after
`battle_max_attempts` claims instead of looping, as is a job whose engine run keeps
raising. Recording is idempotent (`recording.record_result`: a one-to-one BattleRecord
created in the same transaction as the effects), so a job delivered twice records once.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import random
import time
import traceback
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from battles.models import Battle
from battles.rulesets.base import Outcome
from battles.rulesets.registry import find_ruleset
from battles.services import recording
from campaign.errors import Conflict, NotFound
from campaign.models import Campaign, Event
from campaign.rules.dice import Dice
from campaign.services import outbox
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict

log = logging.getLogger(__name__)

#: An engine-level resolver (tests, the case book): it receives the battle's ruleset's own
#: typed input and returns its typed result (`Ruleset.resolve_by`).
Resolver = Callable[[Any], Any]

# Seconds the task sleeps before resolving; only the integration tests set it (to kill a
# worker while a battle job runs).
DELAY_ENV = "BATTLE_TEST_DELAY_SECONDS"


def default_resolver(battle_input: dict[str, Any], ruleset_name: str,
                     dice: Dice | None = None) -> Outcome:
    """Resolve with the ruleset the battle was opened with (the registry), its dice seeded
    from the stored input unless `dice` are given (the case book's scripted dice): the
    ruleset-neutral outcome the campaign records."""
    ruleset = find_ruleset(ruleset_name)
    if dice is None:
        dice = Dice(random.Random(int(battle_input.get("seed", 0))))
    return ruleset.resolve(battle_input, dice)


RUN_TASK = "battles.tasks.run_battle"


def lease_seconds() -> int:
    """How long a claimed (running) or sent (queued) battle job counts as alive; past
    it the sweeper sends the job again (a SIGKILLed worker, a message Redis lost)."""
    return int(getattr(settings, "BATTLE_LEASE_SECONDS", 120))


def schedule_battle(battle_id: int, *, countdown: float | None = None) -> None:
    """Commit the battle's job with the current transaction (the outbox) and send it
    after commit; if the broker is away it waits for the sweeper. Call inside the
    transaction that queues the battle."""
    Battle.objects.filter(pk=battle_id).update(dispatched_at=timezone.now())
    outbox.send_later(RUN_TASK, battle_id, countdown=countdown)


def schedule_battles(battle_ids: list[int]) -> None:
    """`schedule_battle` for every battle a phase advance opens, in two statements
    whatever their number (issue 15: an advance's queries do not grow with battles)."""
    if not battle_ids:
        return
    Battle.objects.filter(pk__in=battle_ids).update(dispatched_at=timezone.now())
    outbox.send_many_later(RUN_TASK, [(pk,) for pk in battle_ids])


def sweep_battles(*, now: dt.datetime | None = None) -> int:
    """Beat job: send again every battle job without a live claim past its lease — a
    `running` battle whose worker died (instead of waiting for the broker's one-hour
    visibility timeout), a `queued` one whose message was lost. Recording is idempotent
    and a live claim is never taken twice, so a job sent twice records once."""
    now = now or timezone.now()
    stale = now - dt.timedelta(seconds=lease_seconds())
    requeued = 0
    candidates = list(Battle.objects.filter(
        Q(status=Battle.Status.RUNNING, started_at__lt=stale)
        | Q(status=Battle.Status.QUEUED, dispatched_at__lt=stale)
        | Q(status=Battle.Status.QUEUED, dispatched_at__isnull=True, created_at__lt=stale),
        mode=Battle.Mode.ENGINE, quarantined=False).values_list("pk", flat=True)[:500])
    for battle_id in candidates:
        with transaction.atomic():
            battle = (Battle.objects.select_for_update(skip_locked=True)
                      .filter(pk=battle_id).first())
            if battle is None or battle.status == Battle.Status.FINISHED:
                continue
            if battle.status == Battle.Status.RUNNING:
                if battle.started_at and battle.started_at >= stale:
                    continue  # claimed again meanwhile
                battle.status = Battle.Status.QUEUED
                battle.save(update_fields=["status"])
                log.warning("battle %s: its claim expired (worker gone?); sending again",
                            battle.pk)
            elif battle.dispatched_at and battle.dispatched_at >= stale:
                continue
            schedule_battle(battle.pk)
            requeued += 1
    return requeued


def resend_restored(campaign: Campaign) -> None:
    """Rollback hook: the battles a rollback put back unfinished (a rollback to the
    tactical phase's start restores them queued, or running with a claim of a job that
    finished meanwhile) are queued again and their jobs sent at once, not after a lease."""
    restored = list(Battle.objects.filter(
        campaign=campaign, mode=Battle.Mode.ENGINE, quarantined=False,
        status__in=[Battle.Status.QUEUED, Battle.Status.RUNNING]).values_list("pk", flat=True))
    if not restored:
        return
    Battle.objects.filter(pk__in=restored).update(status=Battle.Status.QUEUED, claim="",
                                                  started_at=None)
    schedule_battles(restored)


def _claim(battle_id: int, claim: str = "") -> tuple[dict[str, Any], str] | None:
    """Mark the battle running and count the attempt; None when there is nothing to do.
    `claim` names the job (its Celery task id): a live claim is never taken by another
    job, but the job that holds it takes it back at once when it is delivered again (a
    retry after a database error, a redelivery after its worker was killed), so a battle
    is recorded within seconds of a recovery instead of after the lease (issue 30)."""
    first = _claim_first_delivery(battle_id, claim)
    if first is not None:
        return first
    with transaction.atomic():
        # The battle's row only (`of`): not the campaign's, which every job shares.
        battle = (Battle.objects.select_for_update(of=("self",)).select_related("campaign")
                  .filter(pk=battle_id).first())
        if battle is None:
            log.warning("battle %s vanished before its job ran", battle_id)
            return None
        # Finished and recorded are written in one transaction (recording.record_result).
        if battle.status == Battle.Status.FINISHED or battle.quarantined \
                or battle.mode != Battle.Mode.ENGINE:
            return None
        if battle.status == Battle.Status.RUNNING and battle.started_at and \
                battle.started_at >= timezone.now() - dt.timedelta(seconds=lease_seconds()):
            if not claim or battle.claim != claim:
                # Another job holds a live claim (a duplicate message): leave it be; if
                # its worker died, the sweeper sends the job again once the lease is over.
                return None
            log.warning("battle %s: its job came back (a retry or a redelivery); it takes "
                        "its claim again", battle.pk)
        campaign = battle.campaign
        max_attempts = campaign.settings.battle_max_attempts
        if battle.attempts >= max_attempts:
            # Claimed max_attempts times without finishing (workers died): stop here.
            _quarantine(battle, campaign, reason=f"the job was started {battle.attempts} "
                        "times without finishing (its worker died each time)")
            return None
        battle.attempts += 1
        battle.status = Battle.Status.RUNNING
        battle.started_at = timezone.now()
        battle.claim = claim
        battle.save(update_fields=["attempts", "status", "started_at", "claim"])
        return battle.input, battle.ruleset_name


def _claim_first_delivery(battle_id: int, claim: str) -> tuple[dict[str, Any], str] | None:
    """The claim of a job's first delivery (every battle of a phase but the rare retry):
    a queued engine battle never attempted is taken by one conditional UPDATE, its input
    read after -- two statements, no transaction, no campaign row (a first attempt is
    within `battle_max_attempts`, whose minimum is 1). None when the battle is in any other
    state: `_claim` then decides under the row lock. The UPDATE takes the same row lock
    the locked path does, so a recording or a second job in flight is waited for, and the
    WHERE is evaluated again after it (a battle it finished is not taken)."""
    taken = Battle.objects.filter(
        pk=battle_id, status=Battle.Status.QUEUED, attempts=0, quarantined=False,
        mode=Battle.Mode.ENGINE).update(attempts=1, status=Battle.Status.RUNNING,
                                        started_at=timezone.now(), claim=claim)
    if not taken:
        return None
    row = Battle.objects.filter(pk=battle_id).values_list("input", "ruleset_name").first()
    if row is None:  # deleted meanwhile (a rollback): nothing to run
        return None
    return row[0], row[1]


def _quarantine(battle: Battle, campaign: Campaign, *, reason: str) -> None:
    battle.status = Battle.Status.FAILED
    battle.quarantined = True
    battle.error = (battle.error + "\n" if battle.error else "") + f"Quarantined: {reason}."
    battle.save(update_fields=["status", "quarantined", "error"])
    record_event(campaign=campaign, kind="battle_quarantined",
                 data={"battle": battle.pk, "territory": battle.territory_id,
                       "attempts": battle.attempts, "reason": reason},
                 visibility=Event.Visibility.UMPIRE)


def _fail(battle_id: int, error: str) -> str:
    """Keep the error; retry later while attempts remain, else quarantine."""
    with transaction.atomic():
        battle = (Battle.objects.select_for_update(of=("self",)).select_related("campaign")
                  .get(pk=battle_id))
        if battle.status == Battle.Status.FINISHED:
            return "already_recorded"
        campaign = battle.campaign
        battle.error = error
        if battle.attempts >= campaign.settings.battle_max_attempts:
            battle.save(update_fields=["error"])
            _quarantine(battle, campaign, reason=f"{battle.attempts} failed attempts")
            return "quarantined"
        battle.status = Battle.Status.QUEUED
        battle.save(update_fields=["error", "status"])
        schedule_battle(battle.pk, countdown=min(60.0, 2.0 ** battle.attempts))
        return "failed"


def run_battle_job(*, battle_id: int, resolver: Resolver | None = None,
                   claim: str = "", dice: Dice | None = None) -> str:
    """The body of `battles.tasks.run_battle`: claim, resolve (outside any transaction),
    record. `claim` names the job (its task id: the same across its retries and
    redeliveries). Returns what happened: recorded, already_recorded, skipped, failed
    or quarantined."""
    claimed = _claim(battle_id, claim)
    if claimed is None:
        return "skipped"
    data, ruleset_name = claimed
    delay = float(os.environ.get(DELAY_ENV, "0") or 0)
    if delay > 0:
        time.sleep(delay)
    try:
        payload: Outcome | dict[str, Any]
        if resolver is not None:  # an engine-level resolver (tests, the case book)
            payload = find_ruleset(ruleset_name).resolve_by(data, resolver)
        else:
            payload = default_resolver(data, ruleset_name, dice)
    except Exception as exc:  # the engine's error is kept on the battle
        log.exception("battle %s failed", battle_id)
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        tail = "".join(traceback.format_tb(exc.__traceback__)[-3:])
        return _fail(battle_id, f"{detail}\n{tail}")
    recorded = recording.record_result(battle_id=battle_id, result=payload, source="engine")
    return "recorded" if recorded else "already_recorded"


@retry_on_conflict
def retry_battle(*, campaign: Campaign, battle_id: int) -> Battle:
    """The umpire runs a failed (or quarantined) battle's job again: the attempt counter
    restarts; the last error stays visible until the battle finishes. A queued or running
    battle is refused with 409 `battle_not_failed` and nothing changes."""
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id,
                                                           campaign=campaign).first()
        if battle is None:
            raise NotFound("No such battle.")
        if battle.status == Battle.Status.FINISHED:
            raise Conflict("This battle is already recorded.", code="battle_finished")
        if battle.status != Battle.Status.FAILED:
            # A queued or running job is still alive: a retry would reset its attempt
            # counter and run it twice. Only a failed (or quarantined) battle is retried.
            raise Conflict(f"This battle is {battle.status}, not failed: its job is still "
                           "on its way, so there is nothing to retry.",
                           code="battle_not_failed")
        if battle.mode != Battle.Mode.ENGINE:
            raise Conflict("This battle is played on the table; enter its result instead.",
                           code="tabletop_battle")
        battle.attempts = 0
        battle.quarantined = False
        battle.status = Battle.Status.QUEUED
        battle.save(update_fields=["attempts", "quarantined", "status"])
        record_event(campaign=campaign, kind="battle_retried",
                     data={"battle": battle.pk, "territory": battle.territory_id},
                     visibility=Event.Visibility.UMPIRE)
        schedule_battle(battle.pk)
    return battle


def refuse_while_battles_unfinished(*, campaign: Campaign) -> None:
    """Clock hook, first on leaving the tactical phase. API.md: "Advancing out of
    "tactical" is refused with 409 while any of its battles is unfinished"; seed: "When
    all battles are resolved, the next Strategic Turn begins"."""
    unfinished = Battle.objects.filter(campaign=campaign, turn=campaign.turn).exclude(
        status=Battle.Status.FINISHED)
    if unfinished.exists():
        raise Conflict(
            f"{unfinished.count()} battle(s) of this turn are not finished yet; the "
            "tactical phase cannot end before every battle is recorded.",
            code="battles_unfinished")
