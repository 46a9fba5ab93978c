"""Messages between the players of a campaign: to one player or to everyone.

A message to one player is read by the sender and the recipient only (and by the umpire
when the umpire may read players' private business, R-ORD-10); a message to everyone by
every member. A refused message (empty, too long, to someone outside the campaign, from
someone who does not play) is a 400/403 that stores nothing.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from campaign.access import Membership, require_player
from campaign.errors import InvalidInput
from campaign.models import Message, Player

MAX_TEXT = 2000
PAGE = 200


def send_message(*, member: Membership, to: Any, text: Any) -> Message:
    sender = require_player(member)
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("A message needs some text.", code="invalid_text",
                           fields={"text": ["This field is required."]})
    if len(text) > MAX_TEXT:
        raise InvalidInput(f"A message has at most {MAX_TEXT} characters.",
                           code="invalid_text", fields={"text": ["Too long."]})
    recipient = None
    if to is not None:
        if isinstance(to, bool) or not isinstance(to, int):
            raise InvalidInput("'to' is a player id of this campaign, or null for everyone.",
                               code="invalid_recipient", fields={"to": ["Not a player id."]})
        recipient = Player.objects.filter(campaign=member.campaign, pk=to).first()
        if recipient is None:
            raise InvalidInput("No such player in this campaign.", code="invalid_recipient",
                               fields={"to": ["Unknown player."]})
        if recipient.pk == sender.pk:
            raise InvalidInput("Write to another player, or to everyone.",
                               code="invalid_recipient", fields={"to": ["That is you."]})
    campaign = member.campaign
    return Message.objects.create(campaign=campaign, sender=sender, recipient=recipient,
                                  text=text.strip(), turn=campaign.turn, phase=campaign.phase)


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
