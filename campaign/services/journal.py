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


def draft_event(*, campaign: Campaign, kind: str, data: dict[str, Any] | None = None,
                visibility: str = Event.Visibility.PUBLIC, viewers: Iterable[int] = (),
                sealed: bool = False) -> tuple[Event, list[int]]:
    """An entry as `record_event` would write it, not saved yet: (event, viewer player
    ids), for `record_events` to write many at once."""
    viewer_ids = list(viewers)
    if visibility == Event.Visibility.PRIVATE and not viewer_ids:
        raise ValueError("a private event needs at least one viewer")
    return Event(campaign=campaign, turn=campaign.turn, phase=campaign.phase, kind=kind,
                 data=data or {}, visibility=visibility, sealed=sealed), viewer_ids


def record_events(drafts: list[tuple[Event, list[int]]]) -> list[Event]:
    """Write drafted entries in their order: two queries however many (one when none is
    private), where `record_event` takes one or three each (a battle's recording)."""
    if not drafts:
        return []
    events = Event.objects.bulk_create([event for event, _ in drafts])
    if any(viewers for _, viewers in drafts):
        if any(event.pk is None for event in events):  # a backend without RETURNING
            raise RuntimeError("bulk-created events came back without their ids")
        through = Event.viewers.through
        through.objects.bulk_create([
            through(event_id=event.pk, player_id=player_id)
            for event, viewers in drafts for player_id in viewers])
    return events
