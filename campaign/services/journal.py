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
