"""Messages between the players of a campaign: to one player or to everyone.

A message to one player is read by the sender and the recipient only (and by the umpire
when the umpire may read players' private business, R-ORD-10); a message to everyone by
every member. A refused message (empty, too long, to someone outside the campaign, from
someone who does not play) is a 400/403 that stores nothing; a player who writes more
than `MESSAGES_PER_MINUTE` in a minute (issue 30.9) gets a 429 that stores nothing either.

A message tells its readers (the recipient, or everyone else at the table) by mail, from
the outbox after commit (kind "message", which a player may untick on their profile). How
far each reader has read each thread is a `MessageRead` marker (`thread_read`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from campaign.access import Membership, require_player
from campaign.errors import InvalidInput, TooManyRequests
from campaign.inbox import reader_id
from campaign.models import Message, MessageRead, Player
from campaign.services import outbox

MAX_TEXT = 2000
PAGE = 200


def send_message(*, member: Membership, to: int | None, text: str) -> Message:
    """`member`'s seat writes `text` to the player `to` (a player id of the campaign) or,
    with None, to everyone. The types are the caller's (the API's `MessageIn`, the
    page's form); the rules are here: some text, at most MAX_TEXT characters, another
    player of this campaign."""
    sender = require_player(member)
    if not text.strip():
        raise InvalidInput("A message needs some text.", code="invalid_text",
                           fields={"text": ["This field is required."]})
    if len(text) > MAX_TEXT:
        raise InvalidInput(f"A message has at most {MAX_TEXT} characters.",
                           code="invalid_text", fields={"text": ["Too long."]})
    recipient = None
    if to is not None:
        recipient = Player.objects.filter(campaign=member.campaign, pk=to).first()
        if recipient is None:
            raise InvalidInput("No such player in this campaign.", code="invalid_recipient",
                               fields={"to": ["Unknown player."]})
        if recipient.pk == sender.pk:
            raise InvalidInput("Write to another player, or to everyone.",
                               code="invalid_recipient", fields={"to": ["That is you."]})
    campaign = member.campaign
    with transaction.atomic():
        # The seat's row is the lock: two messages sent at once are counted one by one.
        Player.objects.select_for_update().filter(pk=sender.pk).first()
        _check_rate(sender)
        message = Message.objects.create(campaign=campaign, sender=sender,
                                         recipient=recipient, text=text.strip(),
                                         turn=campaign.turn, phase=campaign.phase)
        _mark(campaign_id=campaign.pk, user_id=sender.user_id, correspondent=recipient,
              until=message.created_at)
        if not campaign.is_sandbox:  # a sandbox notifies nobody (issue 18)
            outbox.send_later("campaign.tasks.notify_message", message.pk)
    return message


def _check_rate(sender: Player) -> None:
    limit = settings.MESSAGES_PER_MINUTE
    since = timezone.now() - dt.timedelta(minutes=1)
    if Message.objects.filter(sender=sender, created_at__gt=since).count() >= limit:
        raise TooManyRequests(f"You have sent {limit} messages in the last minute, the most "
                              f"a player may: wait a moment and send this one again.",
                              code="too_many_messages")


def _mark(*, campaign_id: int, user_id: int, correspondent: Player | None,
          until: dt.datetime) -> None:
    """Move the reader's marker of the thread forward to `until` (never back)."""
    marker = MessageRead.objects.select_for_update().filter(
        campaign_id=campaign_id, user_id=user_id, correspondent=correspondent).first()
    if marker is None:
        try:
            with transaction.atomic():
                MessageRead.objects.create(campaign_id=campaign_id, user_id=user_id,
                                           correspondent=correspondent, read_until=until)
            return
        except IntegrityError:  # the same reader's other tab made it a moment ago
            marker = MessageRead.objects.select_for_update().get(
                campaign_id=campaign_id, user_id=user_id, correspondent=correspondent)
    if marker.read_until < until:
        marker.read_until = until
        marker.save(update_fields=["read_until"])


def thread_read(*, member: Membership, correspondent: Player | None,
                until: dt.datetime | None) -> None:
    """The reader has seen the thread up to the message written at `until` (the newest
    they were shown): its older messages are no longer unread. Nothing for a spectator,
    the umpire reading as a player, or an empty thread."""
    user_id = reader_id(member)
    if until is None or user_id is None or member.reading_as:
        return
    with transaction.atomic():
        _mark(campaign_id=member.campaign.pk, user_id=user_id, correspondent=correspondent,
              until=until)


def readable_messages(member: Membership) -> QuerySet[Message]:
    """The messages the caller may read, oldest first (the latest `PAGE`)."""
    qs = Message.objects.filter(campaign=member.campaign)
    if not member.sees_private:
        mine = Q(recipient__isnull=True)
        if member.player is not None:
            mine |= Q(sender=member.player) | Q(recipient=member.player)
        qs = qs.filter(mine)
    return qs.select_related("sender__user", "recipient__user")


def message_data(message: Message) -> dict[str, Any]:
    return {"id": message.pk, "from": message.sender_id,
            "from_username": message.sender.user.get_username(),
            "to": message.recipient_id,
            "to_username": message.recipient.user.get_username() if message.recipient else None,
            "text": message.text, "turn": message.turn, "phase": message.phase,
            "at": message.created_at}


def latest(member: Membership) -> list[dict[str, Any]]:
    rows = list(readable_messages(member).order_by("-created_at", "-id")[:PAGE])
    return [message_data(m) for m in reversed(rows)]
