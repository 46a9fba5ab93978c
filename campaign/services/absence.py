"""Absence, the stand-in and the record of deadlines (issue 27; API.md "Reach and absence
(wave 3)").

A league lasts weeks; one absent player must neither stall it nor wreck their own seat.

- A player declares an absence (`declare_away`) up to the campaign's allowance of days
  per seat (`away_days`, R-AWAY-1). While a seat is away, or after it missed
  `stand_in_after` deadlines in a row (R-AWAY-2), the **stand-in** plays it by the
  published rules below (`STAND_IN_RULES`): it gives no orders, buys, trades and grants
  nothing, leaves the buildings as they are, and marks the seat ready in every phase so
  the league is never held up by it. Battles on the seat's territories are fought by the
  ruleset's default policy, as every battle is.
- Any action of the player (a request that changes something, `hand_back_if_acting`, or
  `end_away`) hands the seat back. Every change is a public journal entry.
- When a phase with a deadline closes, each seat the player played has met the deadline
  (ready) or missed it (not ready once it passed); a phase the umpire closes before its
  deadline counts for nobody, nor does a phase the stand-in played (R-AWAY-4). An umpire
  may ask a minimum record of a newcomer (`min_deadline_record`, R-AWAY-3).

Clock hooks (registered in `campaign.apps`): `record_deadlines` on leaving every phase,
`stand_in_plays` on entering every phase. Each costs a fixed number of queries.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
from contextvars import ContextVar

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from campaign.bulk import bulk_set
from campaign.errors import Conflict, Forbidden, InvalidInput
from campaign.models import Campaign, Player
from campaign.services import clock
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict

#: The stand-in's rules, as the pages publish them (one list, read by the page and docs).
STAND_IN_RULES: tuple[str, ...] = (
    "It gives no orders: every unit of the seat holds where it stands. Orders the player "
    "sealed before going away stand.",
    "It buys, builds, ships, trades, accepts and grants nothing, and leaves the seat's "
    "buildings switched on or off as they are.",
    "It marks the seat ready in every phase, so the league never waits for it.",
    "Battles on the seat's territories are fought as every battle is: by the tactical "
    "ruleset's default policy.",
    "The player's first action on the seat (or \"I'm back\") hands the seat back at once.",
)

DAY = dt.timedelta(days=1)

#: Set for the length of a request that changes something (`SeatReturnMiddleware`): a
#: seat whose player acts again is handed back by `campaign.access.membership`.
acting: ContextVar[bool] = ContextVar("acting", default=False)


def is_away(player: Player, now: dt.datetime | None = None) -> bool:
    return player.away_until is not None and player.away_until > (now or timezone.now())


def stood_in(player: Player, now: dt.datetime | None = None) -> bool:
    """Whether the stand-in plays the seat now."""
    return player.stand_in or is_away(player, now)


def _days(span: dt.timedelta) -> int:
    """Whole days of absence a span uses: every started day counts."""
    return max(1, math.ceil(span / DAY))


def days_left(player: Player, campaign: Campaign) -> int:
    """Days of absence the seat may still declare (an absence under way excluded)."""
    return max(0, int(campaign.settings.away_days) - player.away_days_used)


def _end_absence(player: Player, now: dt.datetime, *, why: str) -> bool:
    """Close the seat's absence (if any), in memory, journaled; the days it used count
    against the allowance. The caller saves the fields."""
    if player.away_until is None:
        return False
    started = player.away_from or now
    ended = min(now, player.away_until)
    player.away_days_used += _days(ended - started) if ended > started else 0
    record_event(campaign=player.campaign, kind="away_ended",
                 data={"player": player.pk, "username": player.user.get_username(),
                       "why": why})
    player.away_from = player.away_until = None
    return True


def _end_stand_in(player: Player, *, why: str) -> bool:
    if not player.stand_in:
        return False
    player.stand_in = False
    player.missed_in_row = 0
    record_event(campaign=player.campaign, kind="stand_in_ended",
                 data={"player": player.pk, "username": player.user.get_username(),
                       "why": why})
    return True


def _end(player: Player, now: dt.datetime, *, why: str) -> bool:
    """Close the seat's absence and the stand-in's play (each journaled if it was on)."""
    absence = _end_absence(player, now, why=why)
    return _end_stand_in(player, why=why) or absence


FIELDS = ["away_from", "away_until", "away_days_used", "stand_in", "missed_in_row", "ready"]


@retry_on_conflict
def declare_away(*, player: Player, until: object, now: dt.datetime | None = None
                 ) -> Player:
    """The player will be away until `until` (an aware time in the future): the stand-in
    plays the seat until then, and marks it ready now. An absence under way is replaced.
    More days than the seat has left is 400 `away_allowance`; nothing changes then."""
    now = now or timezone.now()
    if not isinstance(until, dt.datetime) or timezone.is_naive(until):
        raise InvalidInput("Say until when, as a time with its time zone.",
                           code="invalid_until", fields={"until": ["A time is required."]})
    if until <= now:
        raise InvalidInput("An absence ends in the future.", code="invalid_until",
                           fields={"until": ["Choose a time after now."]})
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=player.campaign_id)
        if campaign.status != Campaign.Status.RUNNING:
            raise Conflict("An absence is declared while the campaign runs.",
                           code="not_running")
        seat = Player.objects.select_for_update().select_related("user").get(pk=player.pk)
        seat.campaign = campaign
        if seat.away_until is not None:  # a new absence replaces the one under way
            _end_absence(seat, now, why="replaced")
        wanted = _days(until - now)
        left = days_left(seat, campaign)
        if wanted > left:
            allowance = int(campaign.settings.away_days)
            raise InvalidInput(
                f"You have {left} day{'s' if left != 1 else ''} of absence left in this "
                f"campaign (each seat may be away {allowance} days in all); this absence "
                f"would take {wanted}.", code="away_allowance",
                fields={"until": [f"At most {left} days from now."]})
        seat.away_from, seat.away_until = now, until
        seat.ready = True
        bulk_set([seat], FIELDS)
        record_event(campaign=campaign, kind="away_started",
                     data={"player": seat.pk, "username": seat.user.get_username(),
                           "until": until.isoformat()})
    _advance_if_everyone_ready(campaign)
    return seat


@retry_on_conflict
def end_away(*, player: Player, now: dt.datetime | None = None) -> Player:
    """The player is back: their absence ends at once (unused whole days return to the
    allowance) and the stand-in stops playing the seat."""
    now = now or timezone.now()
    with transaction.atomic():
        seat = Player.objects.select_for_update().select_related("user", "campaign").get(
            pk=player.pk)
        if _end(seat, now, why="back"):
            seat.ready = False  # the player plays this phase again
            bulk_set([seat], FIELDS)
    return seat


def hand_back_if_acting(player: Player) -> None:
    """Called for every request of a player (`campaign.access.membership`): a request
    that changes something hands a stood-in seat back. Costs nothing otherwise (the
    fields come with the seat's row)."""
    if acting.get() and (player.stand_in or player.away_until is not None):
        end_away(player=player)
        player.stand_in, player.away_until, player.away_from = False, None, None
        player.ready = False


def _advance_if_everyone_ready(campaign: Campaign) -> None:
    if not campaign.settings.advance_when_all_ready:
        return
    if Player.objects.filter(campaign=campaign, ready=False, approved=True).exists():
        return
    # Refused (battles unfinished, say): the deadline or the umpire moves on later.
    with contextlib.suppress(Conflict):
        clock.advance(campaign_id=campaign.pk, by="all_ready",
                      expected=(campaign.turn, campaign.phase))


# ---------------------------------------------------------------------------
# Clock hooks
# ---------------------------------------------------------------------------


def record_deadlines(*, campaign: Campaign) -> None:
    """Leaving a phase that had a deadline: each seat its player played met the deadline
    (ready) or missed it (not ready once the deadline passed); `stand_in_after` misses in
    a row and the stand-in takes the seat (R-AWAY-2, R-AWAY-4)."""
    if campaign.is_sandbox or campaign.phase_deadline is None:
        return
    now = timezone.now()
    passed = campaign.phase_deadline <= now
    after = int(campaign.settings.stand_in_after)
    changed = []
    for seat in (Player.objects.select_for_update(of=("self",))
                 .filter(campaign=campaign, approved=True, removed_at__isnull=True)
                 .select_related("user")):
        if stood_in(seat, now):
            continue
        if seat.ready:
            seat.deadlines_met += 1
            seat.missed_in_row = 0
        elif passed:
            seat.deadlines_missed += 1
            seat.missed_in_row += 1
            if after and seat.missed_in_row >= after:
                seat.stand_in = True
                record_event(campaign=campaign, kind="stand_in_started",
                             data={"player": seat.pk, "username": seat.user.get_username(),
                                   "missed": seat.missed_in_row})
        else:
            continue
        changed.append(seat)
    if changed:
        bulk_set(changed, ["deadlines_met", "deadlines_missed", "missed_in_row",
                           "stand_in"])


def stand_in_plays(*, campaign: Campaign) -> None:
    """Entering a phase: absences that are over end; every seat the stand-in plays is
    marked ready, so the league never waits for it."""
    now = timezone.now()
    seats = list(Player.objects.filter(campaign=campaign).filter(
        Q(stand_in=True) | Q(away_until__isnull=False)).select_related("user"))
    changed = []
    for seat in seats:
        seat.campaign = campaign
        if seat.away_until is not None and seat.away_until <= now:
            _end_absence(seat, now, why="over")
        if stood_in(seat, now):
            seat.ready = True
        changed.append(seat)
    if changed:
        bulk_set(changed, FIELDS)


# ---------------------------------------------------------------------------
# Joining with a record
# ---------------------------------------------------------------------------


def record_of(user: User) -> tuple[int, int]:
    """The user's deadlines met and missed over all their seats."""
    totals = Player.objects.filter(user=user).aggregate(met=Sum("deadlines_met"),
                                                        missed=Sum("deadlines_missed"))
    return int(totals["met"] or 0), int(totals["missed"] or 0)


def require_record(*, campaign: Campaign, user: User) -> None:
    """Refuse a seat to a player whose record of deadlines is below the campaign's
    `min_deadline_record` (R-AWAY-3): 403 `record_too_low`. A newcomer may join."""
    wanted = int(campaign.settings.min_deadline_record)
    if not wanted:
        return
    met, missed = record_of(user)
    if met + missed == 0:
        return
    share = 100 * met / (met + missed)
    if share < wanted:
        raise Forbidden(f"This league asks its players to have met at least {wanted}% of "
                        f"their deadlines elsewhere; you have met {met} of "
                        f"{met + missed} ({share:.0f}%).", code="record_too_low")
