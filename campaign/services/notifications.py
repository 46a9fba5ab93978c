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
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign import webhooks
from campaign.journal_labels import PHASE_WORDS, read_entries
from campaign.models import Campaign, Event, Message, MessageRead, Notification, Player, Profile
from campaign.services import mail, outbox
from campaign.services.profiles import zone_of

log = logging.getLogger(__name__)

WEBHOOK_TIMEOUT_SECONDS = webhooks.TIMEOUT_SECONDS
#: every kind a player may choose to receive, with how the profile page names it
KIND_LABELS: dict[str, str] = {
    "phase_opened": "A phase begins",
    "reminder": "A deadline is near and I am not ready",
    "results": "The turn's battles are recorded",
    "rolled_back": "The umpire rolled the campaign back",
    "corrected": "The umpire corrected what you hold",
    "message": "A player writes to me or to the whole table",
}
KINDS = tuple(KIND_LABELS)
#: kinds about one seat's private holdings: never posted to the campaign's webhook
PRIVATE_KINDS = frozenset({"reminder", "corrected", "message"})


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
        if (not lead or campaign.phase_deadline is None
                or campaign.phase_deadline - now > dt.timedelta(seconds=lead)):
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
    return when.astimezone(zone_of(tz_name)).strftime(f"%Y-%m-%d %H:%M ({tz_name or 'UTC'})")


#: the page where a player acts in each phase (relative to the campaign's pages)
ACT_PAGES = {"commercial": "economy/", "activity": "economy/", "move": "orders/",
             "tactical": "battles/", "setup": ""}


def page_link(campaign: Campaign, page: str = "") -> str:
    """The absolute address of one of the campaign's pages, for a mail."""
    return f"{settings.SITE_URL.rstrip('/')}/campaigns/{campaign.pk}/{page}"


def _results(campaign: Campaign, turn: int) -> list[str]:
    """The turn's battles in the journal's own sentences (public entries only)."""
    events = list(Event.objects.filter(campaign=campaign, turn=turn, kind="battle_result",
                                       visibility=Event.Visibility.PUBLIC).order_by("id"))
    return [f"- {read.summary}" for read in read_entries(campaign.pk, events)]


def _readiness(campaign: Campaign) -> tuple[list[str], int]:
    """Who is still not ready (names) and how many seats are played (readiness is
    public: the dashboard shows it)."""
    seats = list(Player.objects.filter(campaign=campaign, approved=True,
                                       removed_at__isnull=True)
                 .order_by("user__username").values_list("user__username", "ready"))
    return [name for name, ready in seats if not ready], len(seats)


def _waiting_line(campaign: Campaign) -> str:
    waiting, seats = _readiness(campaign)
    if not waiting:
        return _("Everyone is ready.")
    names = ", ".join(waiting)
    return _("%(ready)s of %(seats)s players are ready; still not ready: %(names)s.") % {
        "ready": seats - len(waiting), "seats": seats, "names": names}


def message(campaign: Campaign, kind: str, turn: int, phase: str,
            tz_name: str = "UTC", waiting: str | None = None) -> tuple[str, str]:
    """(subject, body) of a notification -- public facts only, in sentences, with the
    address of the page where its reader acts. Every text is marked for translation."""
    current = (campaign.turn, campaign.phase) == (turn, phase)
    deadline = (_local(campaign.phase_deadline, tz_name) if campaign.phase_deadline
                else _("none: the umpire moves the campaign on")) if current \
        else _("see the campaign page")
    facts = {"campaign": campaign.name, "turn": turn, "deadline": deadline,
             "phase": PHASE_WORDS.get(phase, f"{phase} phase"),
             "act": page_link(campaign, ACT_PAGES.get(phase, "")),
             "history": page_link(campaign, "history/"),
             "battles": page_link(campaign, "battles/")}
    if kind == "phase_opened":
        subject = _("[%(campaign)s] Turn %(turn)s: the %(phase)s has begun") % facts
        body = _("The %(phase)s of turn %(turn)s of %(campaign)s has begun. Deadline: "
                 "%(deadline)s.\n\nPlay it here: %(act)s") % facts
    elif kind == "reminder":
        subject = _("[%(campaign)s] Turn %(turn)s: the %(phase)s ends soon") % facts
        body = (_("You have not marked yourself ready for the %(phase)s of turn %(turn)s "
                  "of %(campaign)s. Deadline: %(deadline)s.") % facts
                + " " + (waiting if waiting is not None else _waiting_line(campaign))
                + "\n\n" + _("Finish it here: %(act)s") % facts)
    elif kind == "nudge":
        subject = _("[%(campaign)s] Turn %(turn)s: the umpire is waiting for you") % facts
        body = (_("The umpire asks you to finish the %(phase)s of turn %(turn)s of "
                  "%(campaign)s and mark yourself ready. Deadline: %(deadline)s.") % facts
                + " " + (waiting if waiting is not None else _waiting_line(campaign))
                + "\n\n" + _("Finish it here: %(act)s") % facts)
    elif kind == "rolled_back":
        subject = _("[%(campaign)s] Rolled back to turn %(turn)s, %(phase)s") % facts
        body = _("The umpire rolled %(campaign)s back to the start of the %(phase)s of "
                 "turn %(turn)s: everything played since is undone (the journal says "
                 "why). Deadline: %(deadline)s.\n\nRead why and play on: "
                 "%(history)s") % facts
    elif kind == "corrected":
        subject = _("[%(campaign)s] Turn %(turn)s: the umpire corrected your holdings") \
            % facts
        body = _("During the %(phase)s of turn %(turn)s the umpire corrected what you "
                 "hold in %(campaign)s (credits, goods, units or territories). Your "
                 "journal says what changed and why: %(history)s") % facts
    elif kind == "results":
        lines = _results(campaign, turn)
        subject = _("[%(campaign)s] Turn %(turn)s: results are in") % facts
        body = ((_("Every battle of turn %(turn)s of %(campaign)s is resolved:") % facts
                 + "\n\n" + "\n".join(lines)) if lines else
                _("Turn %(turn)s of %(campaign)s is over: no battle was fought.") % facts) \
            + "\n\n" + _("Read the battle reports: %(battles)s") % facts
    else:
        raise ValueError(f"unknown notification kind {kind!r}")
    return subject, body


def recipients(campaign: Campaign, player_ids: Iterable[int] | None,
               kind: str | None = None) -> list[Player]:
    """Seats that want notifications (of `kind`, when given) and whose user has a
    verified email address (the link mailed to it was opened: issue 17)."""
    # Only the seats that can be mailed are read (issue 32: a league where nobody is
    # mailed reads no seat): a user with an address, verified, and mail not turned off.
    seats = (Player.objects.filter(campaign=campaign, notifications=True,
                                   user__profile__email_notifications=True,
                                   user__profile__email_verified=models.F("user__email"))
             .exclude(user__email="").select_related("user"))
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
DIGESTED = frozenset({"phase_opened", "results", "rolled_back", "corrected", "message"})
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
            count = len(items)
            mail.send(user=profile.user,
                      subject=_("%(count)s updates from your campaigns") % {"count": count}
                      if count != 1 else _("1 update from your campaigns"), body=body)
            profile.digest_pending = []
            profile.digest_sent_at = now
            profile.save(update_fields=["digest_pending", "digest_sent_at"])
            sent += 1
    return sent


def claim(campaign: Campaign, kind: str, turn: int, phase: str, recipient: str) -> bool:
    """Reserve one (campaign, turn, phase, kind, recipient) message; False when it was
    already sent (a redelivered task). The unique key decides, even between workers."""
    try:
        with transaction.atomic():
            Notification.objects.create(campaign=campaign, turn=turn, phase=phase,
                                        kind=kind, recipient=recipient)
    except IntegrityError:
        return False
    return True


def release(campaign: Campaign, kind: str, turn: int, phase: str, recipient: str) -> None:
    """Forget a claim whose sending failed, so a later delivery may try again."""
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
    readers = recipients(campaign, player_ids, kind)
    # the readers' own zones only (not every profile of the site), and who is still not
    # ready once for all of them
    zones = dict(Profile.objects.filter(user__in=[p.user_id for p in readers])
                 .values_list("user_id", "time_zone"))
    waiting = _waiting_line(campaign) if kind in ("reminder", "nudge") and readers else None
    for player in readers:
        recipient = f"player:{player.pk}"
        if not claim(campaign, kind, turn, phase, recipient):
            continue
        subject, body = message(campaign, kind, turn, phase, zones.get(player.user_id, "UTC"),
                                waiting=waiting)
        if kind in DIGESTED and _keep_for_digest(player.user_id, subject, body):
            continue
        try:
            sent += mail.send(user=player.user, subject=subject, body=body)
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


# ---------------------------------------------------------------------------
# Messages between players (called by campaign.tasks.notify_message)
# ---------------------------------------------------------------------------


def message_mail(message: Message, thread_url: str) -> tuple[str, str]:
    """(subject, body) of the mail telling a reader of a new message: who wrote, in which
    campaign, the message quoted, and the thread's page where they answer."""
    facts = {"sender": message.sender.user.get_username(), "campaign": message.campaign.name,
             "to": _("you") if message.recipient_id else _("everyone at the table"),
             "url": thread_url}
    quoted = "\n".join(f"> {line}" if line else ">" for line in message.text.splitlines())
    subject = _("[%(campaign)s] %(sender)s writes to %(to)s") % facts
    body = (_("%(sender)s wrote to %(to)s in the campaign %(campaign)s:") % facts
            + f"\n\n{quoted}\n\n"
            + _("Read the conversation and answer: %(url)s") % facts)
    return subject, body


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def message_audience(message_id: int) -> tuple[Any, list[int], str] | None:
    """A new message, the seats it is for (its recipient, or every other seat for a
    message to everyone) and the address of its thread's page; None for a message gone
    or written in a sandbox (nobody is told of those). Mails and channels alike."""
    message = (Message.objects.select_related("campaign", "sender__user")
               .filter(pk=message_id).first())
    if message is None or message.campaign.is_sandbox:
        return None
    campaign = message.campaign
    if message.recipient_id is not None:
        ids = [message.recipient_id]
        thread = reverse("messages-thread", args=[campaign.pk, message.sender_id])
    else:
        ids = list(Player.objects.filter(campaign=campaign).exclude(pk=message.sender_id)
                   .values_list("pk", flat=True))
        thread = reverse("messages-everyone", args=[campaign.pk])
    return message, ids, settings.SITE_URL.rstrip("/") + thread + "#latest"


def deliver_message(*, message_id: int) -> int:
    """Mail one message's readers that want it: its recipient, or every other seat for a
    message to everyone. A reader who has not yet read an earlier message of the same
    thread was already told and is not mailed again until they have. Each reader once,
    even when the task is delivered twice. Never posted to the webhook. Returns the
    number of mails sent."""
    audience = message_audience(message_id)
    if audience is None:
        return 0
    message, ids, url = audience
    campaign = message.campaign
    subject, body = message_mail(message, url)
    sent = 0
    for player in recipients(campaign, ids, "message"):
        earlier = Message.objects.filter(campaign=campaign, created_at__lt=message.created_at)
        if message.recipient_id is None:
            earlier = earlier.filter(recipient__isnull=True).exclude(sender=player)
            marker = MessageRead.objects.filter(campaign=campaign, user_id=player.user_id,
                                                correspondent__isnull=True).first()
        else:
            earlier = earlier.filter(sender_id=message.sender_id, recipient=player)
            marker = MessageRead.objects.filter(campaign=campaign, user_id=player.user_id,
                                                correspondent_id=message.sender_id).first()
        if marker is not None:
            earlier = earlier.filter(created_at__gt=marker.read_until)
        if earlier.exists():
            continue  # told of the thread already, and not back to read it yet
        # one claim per (message, reader): the message's id goes in the recipient's key
        recipient = f"player:{player.pk}:m{_base36(message.pk)}"
        if not claim(campaign, "message", message.turn, "", recipient):
            continue
        if _keep_for_digest(player.user_id, subject, body):
            continue
        try:
            sent += mail.send(user=player.user, subject=subject, body=body)
        except Exception:
            release(campaign, "message", message.turn, "", recipient)
            log.exception("campaign %s: message mail to %s failed", campaign.pk,
                          player.user.get_username())
    return sent
