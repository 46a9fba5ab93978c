"""Who may see and do what in a campaign: decided here, once.

A campaign is visible to its umpire and its players only; to anyone else it does
not exist (404, never 403, so existence does not leak).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Q, QuerySet
from rest_framework.exceptions import NotAuthenticated

from campaign import sql
from campaign.errors import Forbidden, NotFound
from campaign.models import Campaign, Player
from campaign.services.absence import hand_back_if_acting


class SeatRemoved(NotFound):
    """The caller's seat was removed while the campaign ran (R-ORD-11): to the API the
    campaign is no longer theirs (404, as for anyone outside it), and the pages say why."""


@dataclass(frozen=True)
class Membership:
    """The caller's standing in one campaign."""

    campaign: Campaign
    player: Player | None
    is_umpire: bool
    #: Someone outside a public campaign reading it (API.md, "History, spectators,
    #: people"): the map, finished battles and their reports, nothing else.
    spectator: bool = False
    #: The umpire reading a player's pages as that player sees them (`?as=`, GET only,
    #: issue 17): nothing can be done from them.
    reading_as: bool = False

    @property
    def is_player(self) -> bool:
        return self.player is not None

    @property
    def umpire_plays(self) -> bool:
        return self.is_umpire and self.player is not None

    @property
    def sees_private(self) -> bool:
        """The umpire reads players' private business (trades, grants of passage,
        private journal entries); an umpire who also plays only if the campaign says so
        (R-ORD-10)."""
        return self.is_umpire and (
            not self.umpire_plays or bool(self.campaign.settings.playing_umpire_sees_private)
        )

    @property
    def may_read_sealed(self) -> bool:
        """The umpire reads sealed orders only if the campaign allows it and the
        umpire does not also play."""
        return (self.is_umpire and not self.umpire_plays
                and bool(self.campaign.settings.umpire_sees_orders))


def campaigns_of(user: User | AnonymousUser) -> QuerySet[Campaign]:
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(
        Q(umpire=user) | Q(players__user=user, players__removed_at=None)).distinct()


def reader(user: User | AnonymousUser, campaign_id: int | str) -> Membership:
    """Who may read a campaign: its members, or anyone (signed in or not) when the
    campaign is public and past set-up (a spectator). NotFound otherwise, as for
    `membership`."""
    try:
        return membership(user, campaign_id)
    except NotFound as exc:
        refused = exc
    campaign = Campaign.objects.select_related("umpire").filter(
        pk=int(campaign_id) if str(campaign_id).isdigit() else -1).first()
    # A sandbox is never public (issue 18), whatever its copied settings say.
    if campaign is None or campaign.status == Campaign.Status.SETUP \
            or not campaign.settings.public or campaign.is_sandbox:
        if not user.is_authenticated:  # as on every other route: sign in first
            raise NotAuthenticated()
        if isinstance(refused, SeatRemoved):
            raise refused
        raise NotFound("No such campaign.")
    return Membership(campaign=campaign, player=None, is_umpire=False, spectator=True)


def membership(user: User | AnonymousUser, campaign_id: int | str,
               *, for_update: bool = False) -> Membership:
    """The caller's membership, or NotFound if the campaign is not theirs to see."""
    try:
        campaign_pk = int(campaign_id)
    except (TypeError, ValueError):
        raise NotFound("No such campaign.") from None
    if not user.is_authenticated:
        raise NotFound("No such campaign.")
    if not for_update:
        # A seat, with its campaign and umpire, in one query (the common case: a player).
        player = seat(user, campaign_pk)
        if player is not None and player.removed_at is None:
            _seat_returns(player)
            return Membership(campaign=player.campaign, player=player,
                              is_umpire=player.campaign.umpire_id == user.pk)
    qs = Campaign.objects.select_related("umpire")
    if for_update:
        qs = qs.select_for_update()
    campaign = qs.filter(pk=campaign_pk).first()
    if campaign is None:
        raise NotFound("No such campaign.")
    if for_update:
        player = Player.objects.filter(campaign=campaign, user=user).first()
    is_umpire = campaign.umpire_id == user.pk
    if player is not None and player.removed_at is not None and not is_umpire:
        when = player.removed_at.strftime("%-d %B %Y")
        raise SeatRemoved(f"The umpire removed you from {campaign.name} on {when}: you no "
                          "longer play it, and it no longer shows among your campaigns. "
                          "Your seat stays in the campaign with what it held; ask the "
                          "umpire if you think this is a mistake.")
    if is_umpire and player is None and campaign.is_sandbox and campaign.sandbox_seat_id:
        # A sandbox's owner plays the seat they chose (issue 18: "as every player").
        player = Player.objects.filter(pk=campaign.sandbox_seat_id, campaign=campaign).first()
    if player is None and not is_umpire:
        raise NotFound("No such campaign.")
    if player is not None:
        player.campaign = campaign
        _seat_returns(player)
    return Membership(campaign=campaign, player=player, is_umpire=is_umpire)


def _seat_returns(player: Player) -> None:
    """A player acting again takes their seat back from the stand-in (issue 27): free
    unless the seat is stood in for (its fields come with the seat's row)."""
    if player.stand_in or player.away_until is not None:
        hand_back_if_acting(player)


def signed_in(user: User | AnonymousUser) -> User:
    """The caller of a view that requires signing in, as the User it is (403 otherwise:
    the view's own check has already sent an anonymous caller to sign in)."""
    if not isinstance(user, User):
        raise PermissionDenied("Sign in first.")
    return user


@functools.cache
def _seat_statement(vendor: str) -> str:
    """The seat's statement, built once per database vendor (its column lists come from
    the models' metadata: building them took a tenth of an order POST's CPU)."""
    return (f"SELECT {sql.columns(Player, 'p')}, {sql.columns(Campaign, 'c')}, "
            f"{sql.columns(User, 'u')} FROM {sql.table(Player)} p "
            f"JOIN {sql.table(Campaign)} c ON c.id = p.campaign_id "
            f"JOIN {sql.table(User)} u ON u.id = c.umpire_id "
            "WHERE p.campaign_id = %s AND p.user_id = %s")


def seat(user: User, campaign_id: int) -> Player | None:
    """The user's seat in the campaign, with the campaign and its umpire loaded (what
    `Player.objects.select_related("campaign__umpire")` reads), or None. Sent as text:
    every request of a player starts here (`campaign.sql`)."""
    row = sql.fetch_one(_seat_statement(connection.vendor), [campaign_id, user.pk])
    if row is None:
        return None
    player = sql.instance(Player, row)
    campaign = sql.instance(Campaign, row, sql.width(Player))
    campaign.umpire = sql.instance(User, row, sql.width(Player) + sql.width(Campaign))
    player.campaign = campaign
    return player


def require_umpire(member: Membership) -> None:
    if not member.is_umpire:
        raise Forbidden("Only the umpire of this campaign may do this.")


def require_player(member: Membership) -> Player:
    if member.player is None:
        raise Forbidden("Only players of this campaign may do this.")
    return member.player
