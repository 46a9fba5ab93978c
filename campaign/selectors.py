"""What a member of a campaign may read of the journal: decided here, once, at the
queryset. Every view, page and export reads events through these functions, so a list,
a count, a detail lookup and an error path all see the same rows (DRF object
permissions are not applied to list views, so filtering in permission classes alone
would not be enough). Orders are read the same way through `orders.selectors`.

Events
    * public events: every member;
    * private events: the listed viewers, and the umpire unless sealed;
    * umpire events: the umpire, unless sealed;
    * sealed events (sealed-order information): the listed viewers, and the umpire
      only when `may_read_sealed`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from campaign.access import Membership
from campaign.models import Campaign, Event, Phase, Player


def turn_revealed(campaign: Campaign, turn: int) -> bool:
    """The turn's tactical phase has begun: its orders are revealed
    (`orders.selectors.orders_visible_to` reads the same rule as a queryset)."""
    if not campaign.turn:
        return False
    return turn < campaign.turn or (turn == campaign.turn and campaign.phase == Phase.TACTICAL)


def events_visible_to(member: Membership) -> QuerySet[Event]:
    """The journal entries `member` may read, oldest first."""
    qs = Event.objects.filter(campaign=member.campaign)
    V = Event.Visibility
    allowed = Q(visibility=V.PUBLIC, sealed=False)
    if member.player is not None:
        is_viewer = Exists(Event.viewers.through.objects.filter(
            event_id=OuterRef("pk"), player_id=member.player.pk))
        allowed |= Q(is_viewer)
    if member.is_umpire:
        if member.may_read_sealed:
            allowed |= Q(visibility__in=[V.PUBLIC, V.UMPIRE, V.PRIVATE])
        elif member.sees_private:
            allowed |= Q(visibility__in=[V.UMPIRE, V.PRIVATE], sealed=False)
        else:  # an umpire who plays: umpire business, but not the others' private entries
            allowed |= Q(visibility=V.UMPIRE, sealed=False)
    return qs.filter(allowed).order_by("id")


def unclaimed_seats(campaign: Any) -> list[dict[str, Any]]:
    """The imported seats nobody has claimed yet, for their umpire (R-SEC-3): the name
    each was imported under, its colour and its claim code, in seat order."""
    return [{"name": p.user.first_name or p.user.get_username(), "color": p.color,
             "code": p.claim_code, "faction": p.faction}
            for p in Player.objects.filter(campaign=campaign).exclude(claim_code="")
            .select_related("user").order_by("pk")]
