"""Writing to the campaign journal. Reading it, filtered by who asks, is in
`campaign.selectors.events_visible_to`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from campaign.models import Campaign, Event, Player


def record_event(
    *,
    campaign: Campaign,
    kind: str,
    data: dict[str, Any] | None = None,
    visibility: str = Event.Visibility.PUBLIC,
    viewers: Iterable[Player] = (),
    sealed: bool = False,
) -> Event:
    """Append one entry at the campaign's current turn and phase.

    `visibility` PRIVATE requires `viewers`; `sealed` marks information that must stay
    hidden from the umpire unless the campaign lets the umpire read orders.
    """
    viewers = list(viewers)
    if visibility == Event.Visibility.PRIVATE and not viewers:
        raise ValueError("a private event needs at least one viewer")
    event = Event.objects.create(
        campaign=campaign,
        turn=campaign.turn,
        phase=campaign.phase,
        kind=kind,
        data=data or {},
        visibility=visibility,
        sealed=sealed,
    )
    if viewers:
        event.viewers.set(viewers)
    return event


def record_private(*, player: Player, kind: str, data: dict[str, Any] | None = None,
                   sealed: bool = False) -> Event:
    """An entry only `player` (and, unless sealed, the umpire) may read."""
    return record_event(campaign=player.campaign, kind=kind, data=data,
                        visibility=Event.Visibility.PRIVATE, viewers=[player], sealed=sealed)


@dataclass(frozen=True)
class Entry:
    """One journal entry to write with `record_many` (the arguments of `record_event`)."""

    kind: str
    data: dict[str, Any] | None = None
    visibility: str = Event.Visibility.PUBLIC
    viewers: tuple[Player | int, ...] = ()  #: players, or their ids
    sealed: bool = False


def record_many(*, campaign: Campaign, entries: Iterable[Entry]) -> list[Event]:
    """Several entries at once, in the order given, at the campaign's current turn and
    phase: two queries, whatever their number (the clock's hooks write one per player or
    per territory taken)."""
    entries = list(entries)
    for entry in entries:
        if entry.visibility == Event.Visibility.PRIVATE and not entry.viewers:
            raise ValueError("a private event needs at least one viewer")
    if not entries:
        return []
    events = Event.objects.bulk_create([
        Event(campaign=campaign, turn=campaign.turn, phase=campaign.phase, kind=e.kind,
              data=e.data or {}, visibility=e.visibility, sealed=e.sealed)
        for e in entries])
    if any(e.pk is None for e in events):  # a backend that returns no ids
        raise RuntimeError("record_many needs a database that returns ids")
    through = Event.viewers.through
    rows = [through(event_id=event.pk, player_id=getattr(player, "pk", player))
            for event, entry in zip(events, entries, strict=True) for player in entry.viewers]
    if rows:
        through.objects.bulk_create(rows)
    return events


def record_private_many(*, campaign: Campaign,
                        entries: Iterable[tuple[Player, str, dict[str, Any]]],
                        sealed: bool = False) -> list[Event]:
    """Several private entries at once, in the order given: (player, kind, data), each
    only its player (and, unless sealed, the umpire) may read."""
    return record_many(campaign=campaign, entries=[
        Entry(kind=kind, data=data, visibility=Event.Visibility.PRIVATE, viewers=(player,),
              sealed=sealed) for player, kind, data in entries])
