"""Chat and push channels: saving them, and delivering notifications through them
(issue 27, item 2). Another path for the notifications of
`campaign.services.notifications`, sent from Celery jobs (`campaign.tasks`), never in a
request:

- a campaign's channels get its public events only, exactly what its webhook gets
  (`notifications.PRIVATE_KINDS` are never posted; messages never);
- a user's channels get that user's own notifications: the seats where they keep
  notifications on (`Player.notifications`), of the kinds they did not turn off on the
  profile page (`Profile.muted_kinds`), at once (never digested);
- Web Push goes to the user's subscribed browsers for deadlines, results and messages
  (`PUSH_KINDS`); a subscription the push service calls gone (404/410) is deleted.

Each (notification, channel or subscription) is claimed once through the `Notification`
unique key, so a redelivered job sends nothing twice; a failed send releases its claim
and the job is retried.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign import channels as transports
from campaign import push
from campaign.errors import InvalidInput, NotFound
from campaign.models import Campaign, Channel, Player, Profile, PushSubscription
from campaign.services import notifications, outbox

log = logging.getLogger(__name__)

#: How many channels one user, or one campaign, may keep.
MAX_CHANNELS = 5
#: How many browsers one user may subscribe.
MAX_SUBSCRIPTIONS = 10
#: Seconds between two "send a test" of one channel.
TEST_EVERY = 10
#: Notification kinds sent as Web Push: deadlines, results and messages.
PUSH_KINDS = frozenset({"reminder", "nudge", "results", "message"})


class DeliveryFailed(Exception):
    """Some sends failed (their claims released): the job is retried for them."""


# ---------------------------------------------------------------------------
# Saving and removing (pages)
# ---------------------------------------------------------------------------


def channel_add(*, address: str, user: User | None = None, campaign: Campaign | None = None
                ) -> Channel:
    """Save a channel for a user or a campaign after checking its address (the host of
    a self-hosted service must be public). InvalidInput with a sentence otherwise."""
    if (user is None) == (campaign is None):
        raise ValueError("a channel belongs to a user or to a campaign")
    try:
        checked = transports.check_address(address)
    except transports.UnsafeChannel as exc:
        raise InvalidInput(str(exc), code="invalid_channel") from None
    owned = Channel.objects.filter(user=user) if user is not None \
        else Channel.objects.filter(campaign=campaign)
    if owned.count() >= MAX_CHANNELS:
        raise InvalidInput(f"At most {MAX_CHANNELS} channels: remove one first.",
                           code="too_many_channels")
    return Channel.objects.create(user=user, campaign=campaign, service=checked.scheme,
                                  address_encrypted=transports.encrypt(address.strip()),
                                  hint=checked.hint)


def _owned(channel_id: int, user: Any, campaign: Campaign | None) -> Channel:
    found = Channel.objects.filter(pk=channel_id, user=user, campaign=campaign).first()
    if found is None:
        raise NotFound("There is no such channel (it may have been removed already).")
    return found


def channel_remove(*, channel_id: int, user: User | None = None, campaign: Campaign | None = None
                   ) -> None:
    _owned(channel_id, user, campaign).delete()


def channel_test(*, channel_id: int, user: User | None = None, campaign: Campaign | None = None
                 ) -> None:
    """Ask for a test message: a job sends it after commit (never the request)."""
    channel = _owned(channel_id, user, campaign)
    if channel.last_at and timezone.now() - channel.last_at < dt.timedelta(seconds=TEST_EVERY):
        raise InvalidInput(f"A message went to this channel in the last {TEST_EVERY} "
                           "seconds: wait a moment before sending a test.", code="too_soon")
    token = secrets.token_hex(8)
    Channel.objects.filter(pk=channel.pk).update(test_token=token)
    outbox.send_later("campaign.tasks.channel_test", channel.pk, token)


def label(channel: Channel) -> str:
    transport = transports.TRANSPORTS.get(channel.service)
    return transports.masked(transport.label if transport else channel.service, channel.hint)


def _record(channel: Channel, ok: bool, what: str) -> None:
    outcome = f"{what} was delivered." if ok else \
        f"{what} could not be delivered: the service refused it or did not answer."
    Channel.objects.filter(pk=channel.pk).update(last_outcome=outcome[:200],
                                                 last_at=timezone.now())


def _post(channel: Channel, title: str, body: str) -> bool:
    try:
        address = transports.decrypt(channel.address_encrypted)
    except ValueError:
        log.warning("channel %s cannot be read (SECRET_KEY changed)", channel.pk)
        return False
    return transports.send(address, title, body)


def send_test(*, channel_id: int, token: str) -> bool:
    """The job of "send a test": sends once per press (the token is taken by a
    conditional update, so a redelivered job sends nothing)."""
    if not token or not Channel.objects.filter(pk=channel_id, test_token=token) \
            .update(test_token=""):
        return False
    channel = Channel.objects.select_related("campaign").get(pk=channel_id)
    where = f"the campaign {channel.campaign.name}" if channel.campaign else "your account"
    ok = _post(channel, "Unlimit3d 8: a test message",
               f"This channel is set up for {where}: notifications will arrive here. "
               f"Manage your channels: {_site(reverse('channels'))}")
    _record(channel, ok, "The test message")
    return ok


# ---------------------------------------------------------------------------
# Web Push subscriptions (pages)
# ---------------------------------------------------------------------------


def push_subscribe(*, user: User, endpoint: Any, p256dh: object, auth: object
                   ) -> PushSubscription:
    """Save (or move to this user) one browser's subscription (the values as the browser
    sent them: checked here)."""
    try:
        push.check_endpoint(endpoint)
    except push.UnsafeEndpoint as exc:
        raise InvalidInput(str(exc), code="invalid_subscription") from None
    if not (isinstance(p256dh, str) and 40 <= len(p256dh) <= 200
            and isinstance(auth, str) and 8 <= len(auth) <= 100):
        raise InvalidInput("The browser's subscription keys are missing or malformed.",
                           code="invalid_subscription")
    with transaction.atomic():
        if PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count() \
                >= MAX_SUBSCRIPTIONS:
            raise InvalidInput(f"At most {MAX_SUBSCRIPTIONS} devices: turn push off on "
                               "one first.", code="too_many_subscriptions")
        sub, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth})
    return sub


def push_unsubscribe(*, user: User, endpoint: str) -> int:
    return int(PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0])


# ---------------------------------------------------------------------------
# Delivery (campaign.tasks.notify_channels / notify_message_channels)
# ---------------------------------------------------------------------------


def _site(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _readers(campaign: Campaign, player_ids: Iterable[int] | None, kind: str
             ) -> list[int]:
    """The users of the seats with notifications on who did not turn this kind off (their
    ids: a seat's other columns are not needed, issue 32)."""
    seats = Player.objects.filter(campaign=campaign, notifications=True)
    if player_ids is not None:
        seats = seats.filter(pk__in=list(player_ids))
    users = list(seats.values_list("user_id", flat=True))
    muted = dict(Profile.objects.filter(user__in=users).values_list("user_id", "muted_kinds"))
    chosen = "reminder" if kind == "nudge" else kind  # a nudge is a reminder
    return [user for user in users if chosen not in (muted.get(user) or [])]


#: (subject, text for a chat, push payload) of a notification for a reader's time zone
Compose = Callable[[str], tuple[str, str, dict[str, Any]]]


def _send_all(campaign: Campaign, kind: str, turn: int, phase: str, suffix: str,
              targets: list[tuple[str, Any]], compose: Compose) -> tuple[int, int]:
    """Claim and send each target once, in its owner's time zone; (sent, failed)."""
    owners = {t.user_id for _, t in targets if t.user_id is not None}
    zones = dict(Profile.objects.filter(user__in=owners).values_list("user_id", "time_zone"))
    sent = failed = 0
    for key, target in targets:
        recipient = f"{key}{suffix}"
        if not notifications.claim(campaign, kind, turn, phase, recipient):
            continue
        title, text, payload = compose(zones.get(target.user_id) or "UTC")
        if isinstance(target, Channel):
            ok = _post(target, title, text)
            _record(target, ok, "The last notification")
        else:
            status = push.send(endpoint=target.endpoint, p256dh=target.p256dh,
                               auth=target.auth, payload=payload)
            if status in (404, 410):
                target.delete()  # the browser unsubscribed: never again
                continue
            ok = 200 <= status < 300
        if ok:
            sent += 1
        else:
            failed += 1
            notifications.release(campaign, kind, turn, phase, recipient)
    return sent, failed


def deliver(*, campaign_id: int, kind: str, turn: int, phase: str,
            player_ids: list[int] | None = None) -> int:
    """Post one notification to the campaign's channels (public kinds only), to its
    readers' own channels and, for `PUSH_KINDS`, to their browsers. Returns how many
    were sent; DeliveryFailed when some failed (their claims are released)."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or campaign.is_sandbox:
        return 0
    url = _site(reverse("campaign-dashboard", args=[campaign.pk]))
    targets: list[tuple[str, Any]] = []
    if kind not in notifications.PRIVATE_KINDS:  # exactly the webhook's rule
        targets += [(f"channel:{c.pk}", c) for c in Channel.objects.filter(campaign=campaign)]
    users = _readers(campaign, player_ids, kind)
    targets += [(f"channel:{c.pk}", c) for c in Channel.objects.filter(user__in=users)]
    if kind in PUSH_KINDS:
        targets += [(f"push:{s.pk}", s) for s in
                    PushSubscription.objects.filter(user__in=users)]
    if not targets:
        return 0

    def compose(zone: str) -> tuple[str, str, dict[str, Any]]:
        subject, body = notifications.message(campaign, kind, turn, phase, zone)
        return subject, f"{body}\nOpen the campaign: {url}", {"title": subject,
                                                              "body": body, "url": url}

    sent, failed = _send_all(campaign, kind, turn, phase, "", targets, compose)
    if failed:
        raise DeliveryFailed(f"{failed} channel(s) failed")
    return sent


def deliver_message(*, message_id: int) -> int:
    """A new message to its readers' own channels and browsers (never a campaign's
    channel: messages are not public events). Each reader once per message."""
    audience = notifications.message_audience(message_id)
    if audience is None:
        return 0
    message, ids, url = audience
    campaign = message.campaign
    subject, body = notifications.message_mail(message, url)
    users = _readers(campaign, ids, "message")
    targets: list[tuple[str, Any]] = [(f"channel:{c.pk}", c) for c in
                                      Channel.objects.filter(user__in=users)]
    targets += [(f"push:{s.pk}", s) for s in PushSubscription.objects.filter(user__in=users)]
    if not targets:
        return 0
    suffix = f":m{notifications._base36(message.pk)}"
    payload = {"title": subject, "body": message.text[:200], "url": url}
    sent, failed = _send_all(campaign, "message", message.turn, "", suffix, targets,
                             lambda zone: (subject, body, payload))
    if failed:
        raise DeliveryFailed(f"{failed} channel(s) failed")
    return sent


def enqueue(task: str, *args: Any) -> None:
    """Called by the mail jobs: the channels' job, committed through the outbox."""
    with transaction.atomic():
        outbox.send_later(task, *args)


def retry_delay(attempt: int) -> dt.timedelta:
    """A minute, doubled at each retry, at most an hour."""
    return dt.timedelta(seconds=min(3600, 60 * 2 ** attempt))
