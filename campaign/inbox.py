"""Reads of the messages pages (selectors): threads, their last message, unread counts.

A reader's threads are one per other player at the table (their private conversation)
and the table's channel, "Everyone". The umpire who does not play reads the table's
channel only: the pages never show a private conversation to anyone but its two players
(the API's wider reading for the umpire, R-ORD-10, stays the API's). Spectators have no
messages at all. Every count here is made of the reader's own threads only, so nothing
says how much others write to each other (R-SEC-1).

How far a reader has read a thread is one `MessageRead` row per (reader, thread); every
function below costs a fixed number of queries, whatever the number of messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, Max, OuterRef, Q

from campaign.access import Membership
from campaign.models import Message, MessageRead, Player

#: messages shown on a thread's page (the latest ones, oldest first)
PAGE = 200


@dataclass(frozen=True)
class Thread:
    """One conversation of the reader: with `correspondent`, or the table's (None)."""

    correspondent: Player | None
    last: Message | None
    unread: int

    @property
    def name(self) -> str:
        return "Everyone" if self.correspondent is None else \
            self.correspondent.user.get_username()


def reader_id(member: Membership) -> int | None:
    """The user whose read markers count: the seat's, or the umpire's."""
    if member.spectator:
        return None
    if member.player is not None:
        return member.player.user_id
    return member.campaign.umpire_id if member.is_umpire else None


def may_read(member: Membership, correspondent: Player | None) -> bool:
    """Whether the thread is the reader's: the table's channel for every member, a
    private thread for the player who is one of its two ends."""
    if member.spectator or member.reading_as:
        return False
    if correspondent is None:
        return True
    return (member.player is not None and correspondent.pk != member.player.pk
            and correspondent.campaign_id == member.campaign.pk)


def thread_q(member: Membership, correspondent: Player | None) -> Q:
    """The messages of one thread (callers check `may_read` first)."""
    if correspondent is None:
        return Q(recipient__isnull=True)
    me = member.player
    assert me is not None
    return (Q(sender=me, recipient=correspondent) | Q(sender=correspondent, recipient=me))


def _own_threads_q(member: Membership) -> Q:
    q = Q(recipient__isnull=True)
    if member.player is not None:
        q |= Q(sender=member.player) | Q(recipient=member.player)
    return q


def thread_messages(member: Membership, correspondent: Player | None) -> list[Message]:
    """The thread's latest `PAGE` messages, oldest first, with their senders."""
    rows = list(Message.objects.filter(thread_q(member, correspondent),
                                       campaign=member.campaign)
                .select_related("sender__user")
                .order_by("-created_at", "-id")[:PAGE])
    rows.reverse()
    return rows


def read_until(member: Membership, correspondent: Player | None) -> datetime | None:
    """Up to when the reader had read the thread (None: never opened it)."""
    user_id = reader_id(member)
    if user_id is None:
        return None
    return (MessageRead.objects.filter(campaign=member.campaign, user_id=user_id,
                                       correspondent=correspondent)
            .values_list("read_until", flat=True).first())


def _unread_q(member: Membership, user_id: int) -> Q:
    """Messages to the reader (privately or to everyone), from someone else, written
    after the reader's marker of their thread."""
    markers = MessageRead.objects.filter(campaign=member.campaign, user_id=user_id,
                                         read_until__gte=OuterRef("created_at"))
    table = Q(Q(recipient__isnull=True),
              ~Exists(markers.filter(correspondent__isnull=True)))
    if member.player is None:
        return table
    private = Q(Q(recipient=member.player),
                ~Exists(markers.filter(correspondent=OuterRef("sender"))))
    return Q(table, ~Q(sender=member.player)) | private


def unread_total(member: Membership) -> int:
    """How many messages wait for the reader, all threads together (one query)."""
    user_id = reader_id(member)
    if user_id is None or member.reading_as:
        return 0
    return Message.objects.filter(_unread_q(member, user_id), campaign=member.campaign).count()


def _key(member: Membership, sender_id: int, recipient_id: int | None) -> int | None:
    """The thread a message belongs to, for its reader: the correspondent's id, or None."""
    if recipient_id is None:
        return None
    me = member.player.pk if member.player is not None else None
    return recipient_id if sender_id == me else sender_id


def unread_by_thread(member: Membership) -> dict[int | None, int]:
    """Unread messages per thread (correspondent id, None for Everyone), one query."""
    user_id = reader_id(member)
    if user_id is None or member.reading_as:
        return {}
    counts: dict[int | None, int] = {}
    rows = (Message.objects.filter(_unread_q(member, user_id), campaign=member.campaign)
            .values("sender_id", "recipient_id").annotate(n=Count("id")).order_by())
    for row in rows:
        key = _key(member, row["sender_id"], row["recipient_id"])
        counts[key] = counts.get(key, 0) + row["n"]
    return counts


def threads(member: Membership) -> list[Thread]:
    """The reader's threads: Everyone first, then the players at the table, those with
    the most recent message first (four queries)."""
    if not may_read(member, None):
        return []
    campaign = member.campaign
    others: list[Player] = []
    if member.player is not None:
        others = list(Player.objects.filter(campaign=campaign).exclude(pk=member.player.pk)
                      .select_related("user").order_by("user__username"))
    visible = _own_threads_q(member) if member.player is not None \
        else Q(recipient__isnull=True)
    newest: dict[int | None, datetime] = {}
    for row in (Message.objects.filter(visible, campaign=campaign)
                .values("sender_id", "recipient_id").annotate(at=Max("created_at"))
                .order_by()):
        key = _key(member, row["sender_id"], row["recipient_id"])
        if key not in newest or row["at"] > newest[key]:
            newest[key] = row["at"]
    last: dict[int | None, Message] = {}
    if newest:
        by_player = {p.pk: p for p in others}
        wanted = Q(pk__in=[])
        for key, at in newest.items():
            correspondent = None if key is None else by_player.get(key)
            if key is not None and correspondent is None:
                continue
            wanted |= thread_q(member, correspondent) & Q(created_at=at)
        for message in (Message.objects.filter(wanted, campaign=campaign)
                        .select_related("sender__user").order_by("created_at", "id")):
            last[_key(member, message.sender_id, message.recipient_id)] = message
    unread = unread_by_thread(member)
    table = Thread(correspondent=None, last=last.get(None), unread=unread.get(None, 0))
    private = [Thread(correspondent=p, last=last.get(p.pk), unread=unread.get(p.pk, 0))
               for p in others]
    private.sort(key=lambda t: (t.last is None,
                                -(t.last.created_at.timestamp()) if t.last else 0.0))
    return [table, *private]
