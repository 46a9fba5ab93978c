"""Writing to the campaign journal. Reading it, filtered by who asks, is in
`campaign.selectors.events_visible_to`."""

from __future__ import annotations

from collections.abc import Iterable
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


def record_private_many(*, campaign: Campaign,
                        entries: Iterable[tuple[Player, str, dict[str, Any]]],
                        sealed: bool = False) -> list[Event]:
    """Several private entries at once, in the order given: (player, kind, data), each
    only its player (and, unless sealed, the umpire) may read. Two queries, whatever the
    number of entries (the clock's hooks write one per player)."""
    entries = list(entries)
    if not entries:
        return []
    events = Event.objects.bulk_create([
        Event(campaign=campaign, turn=campaign.turn, phase=campaign.phase, kind=kind,
              data=data or {}, visibility=Event.Visibility.PRIVATE, sealed=sealed)
        for _player, kind, data in entries])
    if any(e.pk is None for e in events):  # a backend that returns no ids
        raise RuntimeError("record_private_many needs a database that returns ids")
    through = Event.viewers.through
    through.objects.bulk_create([through(event_id=e.pk, player_id=player.pk)
                                 for e, (player, _kind, _data) in zip(events, entries,
                                                                      strict=True)])
    return events
