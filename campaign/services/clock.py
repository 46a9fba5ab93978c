"""The turn clock: commercial -> activity -> move -> tactical -> next turn.

Advancing is idempotent. A caller says which (turn, phase) it advances *from*; the
change is claimed by inserting the `PhaseChange` row of the phase being opened, in
the same transaction that applies it. A unique constraint on (campaign, turn, phase)
makes a second claim fail, so parallel umpire requests, the beat job and the
all-ready trigger produce exactly one phase change between them.

What happens when a phase closes or opens (production, reveal, battles) is what the apps
connect to the hook points `phase_entered` and `phase_left` (in their `connections.py`);
it runs inside the same transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.dice import rolling
from campaign.errors import Conflict, InvalidInput
from campaign.hooks import Hook
from campaign.models import PHASE_ORDER, Campaign, PhaseChange, Player
from campaign.services import notifications
from campaign.services.commitments import commit, reveal
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict
from campaign.services.rollback import remember_start

log = logging.getLogger(__name__)

phase_entered: Hook[..., object] = Hook("phase_entered", """The clock opened a phase.

Called by `campaign.services.clock` as `receiver(campaign=campaign)` for the receivers
connected under the phase's name (`key=Phase.TACTICAL`), by `order`, inside the advancing
transaction, with the phase's dice rolling; the result is unused. Orders: the reveal (10)
moves the units before the battles open (20); the stand-in plays its seats (90).""")

phase_left: Hook[..., object] = Hook("phase_left", """The clock is closing a phase.

Called by `campaign.services.clock` as `receiver(campaign=campaign)` for the receivers
connected under the phase's name, by `order`, inside the advancing transaction; the result
is unused; a receiver may refuse the advance by raising `Conflict` (battles, 0: a battle
still unfinished), and nothing changes.""")


@dataclass(frozen=True)
class AdvanceResult:
    campaign: Campaign
    changed: bool


def next_phase(turn: int, phase: str) -> tuple[int, str]:
    index = PHASE_ORDER.index(phase)
    if index == len(PHASE_ORDER) - 1:
        return turn + 1, PHASE_ORDER[0]
    return turn, PHASE_ORDER[index + 1]


def phase_duration(campaign: Campaign, phase: str) -> dt.timedelta | None:
    seconds = getattr(campaign.settings, f"{phase}_seconds")
    return dt.timedelta(seconds=seconds) if seconds else None


def deadline_after(campaign: Campaign, start: dt.datetime, duration: dt.timedelta
                   ) -> dt.datetime:
    """When a phase opened at `start` for `duration` ends: `start + duration`, or, when the
    campaign keeps a local hour (`deadline_time` in `deadline_time_zone`, R-ORD-12), the
    first time that hour strikes there at or after it -- "every day at 20:00 Europe/Paris"
    stays 20:00 in Paris across the changes of daylight saving time."""
    earliest = start + duration
    wanted = campaign.settings.deadline_time
    if not wanted:
        return earliest
    zone = zoneinfo.ZoneInfo(campaign.settings.deadline_time_zone)
    hour, minute = (int(part) for part in wanted.split(":"))
    local = earliest.astimezone(zone)
    candidate = dt.datetime.combine(local.date(), dt.time(hour, minute), tzinfo=zone)
    if candidate < local:
        candidate = dt.datetime.combine(local.date() + dt.timedelta(days=1),
                                        dt.time(hour, minute), tzinfo=zone)
    # A local time that does not exist that day (skipped by a change to summer time) is
    # read as the same wall time after the change, as zoneinfo does (fold 0).
    return candidate.astimezone(dt.UTC)


def open_phase(*, campaign: Campaign, turn: int, phase: str, by: str) -> bool:
    """Claim and apply the opening of (turn, phase). Call inside a transaction holding
    the campaign row lock. Returns False if it was already opened (nothing changes)."""
    try:
        with transaction.atomic():  # a savepoint: a lost claim leaves the outer tx usable
            PhaseChange.objects.create(campaign=campaign, turn=turn, phase=phase, opened_by=by)
    except IntegrityError:
        return False
    now = timezone.now()
    campaign.turn = turn
    campaign.phase = phase
    campaign.phase_started_at = now
    duration = phase_duration(campaign, phase)
    if campaign.paused:
        campaign.phase_deadline = None
        campaign.paused_remaining = duration
    else:
        campaign.phase_deadline = deadline_after(campaign, now, duration) if duration else None
    campaign.save(update_fields=["turn", "phase", "phase_started_at", "phase_deadline",
                                 "paused_remaining"])
    # A removed seat (R-ORD-11) is nobody's to play: it stays ready, so it neither
    # holds back an early advance nor misses turns nor is nudged.
    Player.objects.filter(campaign=campaign, removed_at=None).update(ready=False)
    record_event(campaign=campaign, kind="phase_opened",
                 data={"turn": turn, "phase": phase, "by": by,
                       "deadline": campaign.phase_deadline.isoformat()
                       if campaign.phase_deadline else None})
    commit(campaign, turn, phase)  # the phase's dice: committed before any is rolled
    with rolling(campaign, turn, phase):
        for receiver in phase_entered.by_key(phase):
            receiver(campaign=campaign)

    notifications.phase_opened(campaign=campaign)

    remember_start(campaign)  # the point a rollback returns to
    return True


@retry_on_conflict
def advance(*, campaign_id: int, by: str, expected: tuple[int, str] | None = None,
            now: dt.datetime | None = None) -> AdvanceResult:
    """Move the campaign to its next phase, once.

    `expected` is the (turn, phase) the caller saw; if the campaign has moved on
    since, nothing happens and `changed` is False. `by` is who advanced: "umpire",
    "deadline" or "all_ready". Raises Conflict when the campaign is not running or
    the tactical phase still has unfinished battles.
    """
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.status != Campaign.Status.RUNNING:
            raise Conflict("Only a running campaign can advance.", code="not_running")
        current = (campaign.turn, campaign.phase)
        if expected is not None and tuple(expected) != current:
            return AdvanceResult(campaign=campaign, changed=False)
        if by == "deadline" and (
            campaign.paused
            or campaign.phase_deadline is None
            or campaign.phase_deadline > (now or timezone.now())
        ):
            return AdvanceResult(campaign=campaign, changed=False)
        # A leave hook may refuse (Conflict): the battles app's, first, refuses to end the
        # tactical phase while a battle is unfinished; nothing is changed then.
        with rolling(campaign, *current):
            for receiver in phase_left.by_key(campaign.phase):
                receiver(campaign=campaign)
        turn, phase = next_phase(*current)
        changed = open_phase(campaign=campaign, turn=turn, phase=phase, by=by)
        if not changed:
            transaction.set_rollback(True)
            campaign.refresh_from_db()
        else:
            reveal(campaign, *current)  # its rolls are all made: anyone may check them
    return AdvanceResult(campaign=campaign, changed=changed)


@retry_on_conflict
def mark_ready(*, player: Player) -> Player:
    """The player is done with this phase. Others see only who is ready."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=player.campaign_id)
        if campaign.status != Campaign.Status.RUNNING:
            raise Conflict("The campaign is not running.", code="not_running")
        updated = Player.objects.filter(pk=player.pk, ready=False).update(ready=True)
        player.ready = True
        if updated:
            record_event(campaign=campaign, kind="player_ready",
                         data={"player": player.pk})
        # An unclaimed (imported) seat has nobody to be ready: it never holds the league
        # back (docs/RULINGS.md, "Unclaimed seats").
        everyone_ready = not Player.objects.filter(campaign=campaign, ready=False,
                                                   claim_code="").exists()
        state = (campaign.turn, campaign.phase)
    if updated and everyone_ready and campaign.settings.advance_when_all_ready:
        try:
            advance(campaign_id=campaign.pk, by="all_ready", expected=state)
        except Conflict:
            log.info("campaign %s: all ready but cannot advance yet", campaign.pk)
    return player


def sweep_deadlines(*, now: dt.datetime | None = None) -> int:
    """Advance every running, unpaused campaign whose deadline has passed. Returns the
    number of phase changes made. Safe to run in parallel with itself and with umpires."""
    now = now or timezone.now()
    due = Campaign.objects.filter(status=Campaign.Status.RUNNING, paused=False,
                                  phase_deadline__lte=now).values_list("pk", "turn", "phase")
    changes = 0
    for pk, turn, phase in list(due):
        try:
            result = advance(campaign_id=pk, by="deadline", expected=(turn, phase), now=now)
        except Conflict as exc:
            log.info("campaign %s: deadline passed but cannot advance: %s", pk, exc.detail)
            continue
        changes += int(result.changed)

    try:
        notifications.send_due_reminders(now=now)
    except Exception:  # a reminder must never stop the clock
        log.exception("sending deadline reminders failed")
    return changes


def _clock_event(campaign: Campaign, kind: str, **data: object) -> None:
    record_event(campaign=campaign, kind=kind, data={
        "deadline": campaign.phase_deadline.isoformat() if campaign.phase_deadline else None,
        "paused": campaign.paused,
        "remaining_seconds": int(campaign.paused_remaining.total_seconds())
        if campaign.paused_remaining is not None else None,
        **data,
    })


def _lock_running(campaign_id: int) -> Campaign:
    locked = Campaign.objects.select_for_update().get(pk=campaign_id)
    if locked.status != Campaign.Status.RUNNING:
        raise Conflict("Only a running campaign has deadlines.", code="not_running")
    return locked


@retry_on_conflict
def set_deadline(*, campaign: Campaign, deadline: dt.datetime | None,
                 now: dt.datetime | None = None) -> Campaign:
    """The umpire sets (extends, shortens or clears) the current phase's deadline.

    While the clock is paused the new deadline sets the time that will remain when it
    resumes (R-ORD-8). A deadline in the past is refused: to end a phase now, advance.
    """
    if deadline is not None and timezone.is_naive(deadline):
        raise InvalidInput("A deadline needs a time zone (ISO 8601 with an offset).")
    now = now or timezone.now()
    if deadline is not None and deadline <= now:
        raise InvalidInput("That deadline has already passed; advance the campaign to end "
                           "the phase now.", code="deadline_past")
    with transaction.atomic():
        locked = _lock_running(campaign.pk)
        if locked.paused:
            locked.paused_remaining = deadline - now if deadline else None
        else:
            locked.phase_deadline = deadline
        locked.reminder_key = ""  # a new deadline deserves a new reminder
        locked.save(update_fields=["phase_deadline", "paused_remaining", "reminder_key"])
        _clock_event(locked, "deadline_set")
    return locked


#: the longest grace an umpire grants at once (two weeks)
MAX_GRACE_HOURS = 14 * 24


@retry_on_conflict
def grant_grace(*, campaign: Campaign, hours: int, reason: str = "",
                now: dt.datetime | None = None) -> Campaign:
    """The umpire gives everyone `hours` more before the current deadline (issue 27: a
    grace period), journaled publicly with the reason. While the clock is paused the
    grace is added to the time that will remain. A phase without a deadline has nothing
    to extend (409 `no_deadline`)."""
    if not 1 <= hours <= MAX_GRACE_HOURS:
        raise InvalidInput(f"A grace period is a whole number of hours from 1 to "
                           f"{MAX_GRACE_HOURS}.", code="invalid_grace",
                           fields={"hours": ["From 1 to 336 hours."]})
    why = reason.strip()[:200]
    now = now or timezone.now()
    with transaction.atomic():
        locked = _lock_running(campaign.pk)
        extra = dt.timedelta(hours=hours)
        if locked.paused:
            if locked.paused_remaining is None:
                raise Conflict("This phase has no deadline to extend.", code="no_deadline")
            locked.paused_remaining += extra
        else:
            if locked.phase_deadline is None:
                raise Conflict("This phase has no deadline to extend.", code="no_deadline")
            locked.phase_deadline = max(locked.phase_deadline, now) + extra
        locked.reminder_key = ""
        locked.save(update_fields=["phase_deadline", "paused_remaining", "reminder_key"])
        _clock_event(locked, "grace_granted", hours=hours, reason=why)
    return locked


@retry_on_conflict
def pause(*, campaign: Campaign, now: dt.datetime | None = None) -> Campaign:
    """Stop the clock: the deadline is lifted and the remaining time kept. Pausing a
    paused clock changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _lock_running(campaign.pk)
        if locked.paused:
            return locked
        locked.paused = True
        locked.paused_remaining = (max(locked.phase_deadline - now, dt.timedelta(0))
                                   if locked.phase_deadline else None)
        locked.phase_deadline = None
        locked.save(update_fields=["paused", "paused_remaining", "phase_deadline"])
        _clock_event(locked, "clock_paused")
    return locked


@retry_on_conflict
def resume(*, campaign: Campaign, now: dt.datetime | None = None) -> Campaign:
    """Restart the clock with the time that remained when it was paused. Resuming a
    running clock changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = _lock_running(campaign.pk)
        if not locked.paused:
            return locked
        locked.paused = False
        locked.phase_deadline = (now + locked.paused_remaining
                                 if locked.paused_remaining is not None else None)
        locked.paused_remaining = None
        locked.save(update_fields=["paused", "paused_remaining", "phase_deadline"])
        _clock_event(locked, "clock_resumed")
    return locked
