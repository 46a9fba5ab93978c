"""Telling players what happened: a phase opened, a deadline is near, results are in.

By email (Django's mail framework; the console backend by default) and, when the
campaign sets `webhook_url`, by a JSON POST to it (e.g. a chat server). Everything is
sent from Celery tasks enqueued with `transaction.on_commit`, so a rolled-back advance
notifies nobody and a slow mail server or a dead webhook never holds up the clock.

A notification carries only public facts (campaign, turn, phase, deadline, who is
ready) -- never anything about sealed orders. A player turns them off per user
(`Profile.email_notifications`) or per seat (`Player.notifications`).
"""

from __future__ import annotations

import datetime as dt
import http.client
import logging
import zoneinfo
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from campaign import webhooks
from campaign.models import Campaign, Player, Profile
from campaign.services import outbox

log = logging.getLogger(__name__)

WEBHOOK_TIMEOUT_SECONDS = webhooks.TIMEOUT_SECONDS
#: every kind a player may choose to receive, with how the profile page names it
KIND_LABELS: dict[str, str] = {
    "phase_opened": "A phase begins",
    "reminder": "A deadline is near and I am not ready",
    "results": "The turn's battles are recorded",
    "rolled_back": "The umpire rolled the campaign back",
    "corrected": "The umpire corrected what you hold",
}
KINDS = tuple(KIND_LABELS)
#: kinds about one seat's private holdings: never posted to the campaign's webhook
PRIVATE_KINDS = frozenset({"reminder", "corrected"})


# ---------------------------------------------------------------------------
# Triggers (called inside the clock's transaction; they only enqueue after commit)
# ---------------------------------------------------------------------------


def _enqueue(campaign: Campaign, kind: str, player_ids: Iterable[int] | None = None) -> None:
    """Committed with the phase change (the outbox); sent after commit, or by the
    sweeper when the broker was away. A sandbox never notifies (issue 18)."""
    if campaign.is_sandbox:
        return
    outbox.send_later("campaign.tasks.notify", campaign.pk, kind, campaign.turn,
                      campaign.phase, list(player_ids) if player_ids is not None else None)


def phase_opened(*, campaign: Campaign) -> None:
    _enqueue(campaign, "phase_opened")


def rolled_back(*, campaign: Campaign) -> None:
    """The umpire rolled the campaign back (issue 18): every seat hears of it."""
    _enqueue(campaign, "rolled_back")


def nudge(*, campaign: Campaign) -> int:
    """The umpire nudges the players who are not ready (issue 17): once per phase each.
    Returns how many seats are waited for."""
    # an unclaimed (imported) seat has nobody to nudge (docs/RULINGS.md)
    waiting = list(Player.objects.filter(campaign=campaign, ready=False, claim_code="")
                   .values_list("pk", flat=True))
    if waiting:
        _enqueue(campaign, "nudge", waiting)
    return len(waiting)


def corrected(*, campaign: Campaign, player_ids: Iterable[int]) -> None:
    """The umpire corrected these seats' holdings (issue 17): each hears of it, once per
    phase (the journal lists every correction with its reason). Enqueued with the
    correction, so a refused correction notifies nobody."""
    seats = [p for p in player_ids if p]
    if seats:
        _enqueue(campaign, "corrected", seats)


def results_in(*, campaign: Campaign) -> None:
    """Hook ("leave", "tactical"): every battle of the turn is recorded."""
    _enqueue(campaign, "results")


def send_due_reminders(*, now: dt.datetime | None = None) -> int:
    """Remind the players who are not ready, once per phase, when the deadline is
    closer than the campaign's `reminder_seconds`. Returns the number of campaigns
    reminded. The claim is a conditional update, so parallel sweeps remind once."""
    now = now or timezone.now()
    reminded = 0
    candidates = Campaign.objects.filter(status=Campaign.Status.RUNNING, paused=False,
                                         phase_deadline__gt=now)
    for campaign in candidates:
        lead = campaign.settings.reminder_seconds
        if not lead or campaign.phase_deadline - now > dt.timedelta(seconds=lead):
            continue
        key = f"{campaign.turn}:{campaign.phase}"
        if campaign.reminder_key == key:
            continue
        with transaction.atomic():
            claimed = (Campaign.objects.filter(pk=campaign.pk, turn=campaign.turn,
                                               phase=campaign.phase)
                       .exclude(reminder_key=key).update(reminder_key=key))
            if not claimed:
                continue
            waiting = list(Player.objects.filter(campaign=campaign, ready=False,
                                                 claim_code="")
                           .values_list("pk", flat=True))
            if waiting:
                _enqueue(campaign, "reminder", waiting)
            reminded += 1
    return reminded


# ---------------------------------------------------------------------------
# Sending (called by campaign.tasks.notify)
# ---------------------------------------------------------------------------


def _local(when: dt.datetime | None, tz_name: str) -> str:
    if when is None:
        return "no deadline"
    try:
        zone = zoneinfo.ZoneInfo(tz_name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return when.astimezone(zone).strftime(f"%Y-%m-%d %H:%M ({tz_name or 'UTC'})")


def message(campaign: Campaign, kind: str, turn: int, phase: str,
            tz_name: str = "UTC") -> tuple[str, str]:
    """(subject, body) of a notification -- public facts only."""
    deadline = _local(campaign.phase_deadline, tz_name) if (campaign.turn, campaign.phase) \
        == (turn, phase) else "see the campaign page"
    if kind == "phase_opened":
        subject = f"[{campaign.name}] Turn {turn}: the {phase} phase has begun"
        body = f"The {phase} phase of turn {turn} has begun. Deadline: {deadline}."
    elif kind == "reminder":
        subject = f"[{campaign.name}] Turn {turn}: the {phase} phase ends soon"
        body = (f"You have not marked yourself ready for the {phase} phase of turn {turn}. "
                f"Deadline: {deadline}.")
    elif kind == "nudge":
        subject = f"[{campaign.name}] Turn {turn}: the umpire is waiting for you"
        body = (f"Everyone else may be done: the umpire asks you to finish the {phase} "
                f"phase of turn {turn} and mark yourself ready. Deadline: {deadline}.")
    elif kind == "rolled_back":
        subject = f"[{campaign.name}] Rolled back to turn {turn}, {phase} phase"
        body = (f"The umpire rolled the campaign back to the start of the {phase} phase of "
                f"turn {turn}: everything since is undone (the journal says why). "
                f"Deadline: {deadline}.")
    elif kind == "corrected":
        subject = f"[{campaign.name}] Turn {turn}: the umpire corrected your holdings"
        body = (f"During the {phase} phase of turn {turn} the umpire corrected what you hold "
                f"(credits, goods, units or territories). Your journal says what changed "
                f"and why.")
    elif kind == "results":
        subject = f"[{campaign.name}] Turn {turn}: results are in"
        body = f"Every battle of turn {turn} is resolved; read the campaign journal."
    else:
        raise ValueError(f"unknown notification kind {kind!r}")
    return subject, body


def recipients(campaign: Campaign, player_ids: Iterable[int] | None,
               kind: str | None = None) -> list[Player]:
    """Seats that want notifications (of `kind`, when given) and whose user has a
    verified email address (the link mailed to it was opened: issue 17)."""
    seats = Player.objects.filter(campaign=campaign, notifications=True).select_related("user")
    if player_ids is not None:
        seats = seats.filter(pk__in=list(player_ids))
    profiles = {user: (wants, verified, muted) for user, wants, verified, muted in
                Profile.objects.filter(user__in=[p.user_id for p in seats]).values_list(
                    "user_id", "email_notifications", "email_verified", "muted_kinds")}
    out = []
    for p in seats:
        wants, verified, muted = profiles.get(p.user_id, (True, "", []))
        chosen = "reminder" if kind == "nudge" else kind  # a nudge is a reminder
        if p.user.email and wants and verified == p.user.email and chosen not in (muted or []):
            out.append(p)
    return out


#: Kinds a digest keeps for its daily email; a reminder is about a deadline and goes at once.
DIGESTED = frozenset({"phase_opened", "results", "rolled_back", "corrected"})
DIGEST_EVERY = dt.timedelta(hours=24)


def _keep_for_digest(user_id: int, subject: str, body: str) -> bool:
    """Add a message to the user's next digest; False when they take mail as it comes."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().filter(user_id=user_id,
                                                             digest=True).first()
        if profile is None:
            return False
        profile.digest_pending = [*(profile.digest_pending or []),
                                  {"subject": subject, "body": body}][-200:]
        profile.save(update_fields=["digest_pending"])
    return True


def send_digests(*, now: dt.datetime | None = None) -> int:
    """Mail each digest that waits and whose last one is a day old (periodic task).
    The pending list is taken under the row's lock, so a parallel sweep sends it once."""
    now = now or timezone.now()
    sent = 0
    due = Profile.objects.filter(digest=True).exclude(digest_pending=[]).filter(
        models.Q(digest_sent_at__isnull=True) | models.Q(digest_sent_at__lte=now - DIGEST_EVERY))
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            profile = Profile.objects.select_for_update().select_related("user").get(pk=pk)
            items = list(profile.digest_pending or [])
            if not items or not profile.user.email \
                    or profile.email_verified != profile.user.email:
                continue
            body = "\n\n".join(f"{i['subject']}\n{i['body']}" for i in items)
            send_mail(f"Your campaigns: {len(items)} update(s)", body,
                      settings.DEFAULT_FROM_EMAIL, [profile.user.email])
            profile.digest_pending = []
            profile.digest_sent_at = now
            profile.save(update_fields=["digest_pending", "digest_sent_at"])
            sent += 1
    return sent


def claim(campaign: Campaign, kind: str, turn: int, phase: str, recipient: str) -> bool:
    """Reserve one (campaign, turn, phase, kind, recipient) message; False when it was
    already sent (a redelivered task). The unique key decides, even between workers."""
    from campaign.models import Notification

    try:
        with transaction.atomic():
            Notification.objects.create(campaign=campaign, turn=turn, phase=phase,
                                        kind=kind, recipient=recipient)
    except IntegrityError:
        return False
    return True


def release(campaign: Campaign, kind: str, turn: int, phase: str, recipient: str) -> None:
    """Forget a claim whose sending failed, so a later delivery may try again."""
    from campaign.models import Notification

    Notification.objects.filter(campaign=campaign, turn=turn, phase=phase, kind=kind,
                                recipient=recipient).delete()


def deliver(*, campaign_id: int, kind: str, turn: int, phase: str,
            player_ids: list[int] | None = None) -> int:
    """Send one notification by email (and webhook), each recipient once even when the
    task is delivered twice. Returns the number of emails sent. Never raises for a
    delivery problem: the failure is logged."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return 0
    sent = 0
    zones = dict(Profile.objects.values_list("user_id", "time_zone"))
    for player in recipients(campaign, player_ids, kind):
        recipient = f"player:{player.pk}"
        if not claim(campaign, kind, turn, phase, recipient):
            continue
        subject, body = message(campaign, kind, turn, phase, zones.get(player.user_id, "UTC"))
        if kind in DIGESTED and _keep_for_digest(player.user_id, subject, body):
            continue
        try:
            sent += send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [player.user.email])
        except Exception:
            release(campaign, kind, turn, phase, recipient)
            log.exception("campaign %s: notification mail to %s failed", campaign_id,
                          player.user.get_username())
    url = campaign.settings.webhook_url
    if url and kind not in PRIVATE_KINDS and claim(campaign, kind, turn, phase, "webhook"):
        subject, body = message(campaign, kind, turn, phase)
        text = f"{subject}\n{body}"
        # "text" is what Slack's incoming webhooks post, "content" Discord's (at most
        # 2,000 characters); both ignore the other fields, which other clients read.
        if not post_webhook(url, {"campaign": campaign.pk, "name": campaign.name,
                                  "kind": kind, "turn": turn, "phase": phase,
                                  "text": text, "content": text[:2000]}):
            release(campaign, kind, turn, phase, "webhook")
    return sent


def post_webhook(url: str, payload: dict[str, Any]) -> bool:
    """POST `payload` as JSON; True on a 2xx answer. The address is checked when sent
    (`campaign.webhooks`: public addresses only, no redirects, a timeout and a size cap)."""
    try:
        answer = webhooks.post_json(url, payload, timeout=WEBHOOK_TIMEOUT_SECONDS)
    except webhooks.UnsafeWebhook as exc:
        log.warning("webhook %s refused: %s", url, exc)
        return False
    except (OSError, http.client.HTTPException, ValueError) as exc:
        log.warning("webhook %s failed: %s", url, exc)
        return False
    return 200 <= answer < 300
