"""What a member of a campaign may read of sealed orders and of the journal: decided
here, once, at the queryset. Every view, page and export reads orders and events
through these two functions, so a list, a count, a detail lookup and an error path
all see the same rows (DRF object permissions are not applied to list views, so
filtering in permission classes alone would not be enough).

Orders
    * a player sees every order of their own seat, in full;
    * the umpire sees every order in full only when the campaign lets the umpire
      read orders and the umpire does not play (`Membership.may_read_sealed`);
    * everybody else sees, once the tactical phase of that turn has begun, only what
      the seed reveals: "You only have to announce which territories you move if
      your units finish their move on a territory that isn't yours, and don't have to
      reveal which of the units was moved" -- one row per (turn, player, destination)
      of an announced move, without the unit, origin or number of units (R-ORD-2).

Events
    * public events: every member;
    * private events: the listed viewers, and the umpire unless sealed;
    * umpire events: the umpire, unless sealed;
    * sealed events (sealed-order information): the listed viewers, and the umpire
      only when `may_read_sealed`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import BooleanField, Case, Exists, Min, OuterRef, Q, QuerySet, Value, When

from campaign.access import Membership
from campaign.models import Campaign, Event, Order, Phase


def _revealed_turns(member: Membership) -> Q:
    """Turns whose tactical phase has begun (the reveal happens when it opens)."""
    campaign = member.campaign
    if campaign.phase == Phase.TACTICAL:
        return Q(turn__lte=campaign.turn)
    return Q(turn__lt=campaign.turn)


def turn_revealed(campaign: Campaign, turn: int) -> bool:
    """`_revealed_turns` for one turn: its tactical phase has begun."""
    if not campaign.turn:
        return False
    return turn < campaign.turn or (turn == campaign.turn and campaign.phase == Phase.TACTICAL)


def orders_visible_to(member: Membership) -> QuerySet[Order]:
    """The orders `member` may read, each annotated `full` (True: every field may be
    shown; False: only turn, player and destination of an announced move)."""
    base = Order.objects.filter(campaign=member.campaign).select_related("unit")
    if member.may_read_sealed:
        return base.annotate(full=Value(True, output_field=BooleanField()))
    # (player IS NULL never holds: a member without a seat owns no order)
    own = Q(player=member.player) if member.player is not None else Q(player__isnull=True)
    # One representative row per announced (turn, player, destination): the count of
    # rows must not tell how many units went there.
    representatives = (
        Order.objects.filter(campaign=member.campaign, announced=True,
                             status=Order.Status.EXECUTED)
        .filter(_revealed_turns(member))
        .values("turn", "player", "destination")
        .annotate(rep=Min("id"))
        .values("rep")
    )
    revealed = Q(pk__in=representatives)
    return base.filter(own | revealed).annotate(
        full=Case(When(own, then=Value(True)), default=Value(False),
                  output_field=BooleanField())
    )


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
    from campaign.models import Player

    return [{"name": p.user.first_name or p.user.get_username(), "color": p.color,
             "code": p.claim_code, "faction": p.faction}
            for p in Player.objects.filter(campaign=campaign).exclude(claim_code="")
            .select_related("user").order_by("pk")]
