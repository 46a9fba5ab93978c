"""Shared machinery of the pages: membership as a 404, running a service with its
refusal shown to the person, the campaign navigation, and htmx helpers."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from rest_framework.exceptions import NotAuthenticated

from campaign.access import Membership, SeatRemoved, membership, reader
from campaign.errors import Forbidden, GameError, NotFound
from campaign.models import Player

T = TypeVar("T")
View = Callable[..., HttpResponse]


def page_membership(request: HttpRequest, campaign_id: int) -> Membership:
    """The caller's membership, or a 404 page (never a 403: existence must not leak)."""
    try:
        return membership(request.user, campaign_id)
    except SeatRemoved as exc:  # the page says what happened (issue 26)
        raise Forbidden(exc.detail, code="seat_removed") from None
    except NotFound as exc:
        raise Http404(exc.detail) from None


def public_page(view: Callable[..., HttpResponse]) -> View:
    """A page members read, and anyone (signed in or not) when the campaign is public
    (API.md "History, spectators, people"): the view receives `member`, a spectator's
    with `member.spectator` set. A private campaign asks a signed-out visitor to log in
    and is a 404 for anyone else."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, campaign_id: int, *args: Any, **kwargs: Any
                ) -> HttpResponse:
        try:
            member = umpire_reading(request, reader(request.user, campaign_id))
        except NotAuthenticated:
            return redirect_to_login(request.get_full_path())
        except SeatRemoved as exc:
            raise Forbidden(exc.detail, code="seat_removed") from None
        except NotFound as exc:
            raise Http404(exc.detail) from None
        return view(request, member, *args, **kwargs)

    return wrapped


#: Pages an umpire reads as a player only when the campaign lets the umpire read orders.
ORDER_PAGES = frozenset({"orders", "order-submit"})


def umpire_reading(request: HttpRequest, member: Membership) -> Membership:
    """`?as=PLAYER` on a GET: the umpire (who does not play) reads that player's page as
    the player sees it (issue 17: economy, forces, journal...). Read-only: a POST never
    acts as someone else. The orders page only when the campaign lets the umpire read
    sealed orders."""
    wanted = request.GET.get("as", "")
    if not wanted or request.method != "GET" or not member.is_umpire or member.umpire_plays:
        return member
    seat = Player.objects.filter(campaign=member.campaign,
                                 pk=int(wanted) if wanted.isdigit() and len(wanted) < 19
                                 else -1).select_related("user").first()
    if seat is None:
        raise Http404("No such player in this campaign.")
    name = request.resolver_match.url_name if request.resolver_match else ""
    if name in ORDER_PAGES and not member.campaign.settings.umpire_sees_orders:
        raise PermissionDenied("This campaign keeps its players' orders from the umpire "
                               "(setting umpire_sees_orders).")
    seat.campaign = member.campaign
    return Membership(campaign=member.campaign, player=seat, is_umpire=True, reading_as=True)


def campaign_page(view: Callable[..., HttpResponse]) -> View:
    """Login required; the view receives `member` (the caller's Membership)."""

    @login_required
    @functools.wraps(view)
    def wrapped(request: HttpRequest, campaign_id: int, *args: Any, **kwargs: Any
                ) -> HttpResponse:
        member = umpire_reading(request, page_membership(request, campaign_id))
        return view(request, member, *args, **kwargs)

    return wrapped


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


@dataclass
class Outcome:
    ok: bool
    value: Any = None
    error: GameError | None = None


def attempt(request: HttpRequest, action: Callable[[], T], *, success: str | None = None
            ) -> Outcome:
    """Run one service call; a refusal becomes an error message instead of a 500.
    Nothing is changed by a refused call (services run in one transaction)."""
    try:
        value = action()
    except GameError as exc:
        messages.error(request, exc.detail)
        return Outcome(ok=False, error=exc)
    if success:
        messages.success(request, success)
    return Outcome(ok=True, value=value)


def back(request: HttpRequest, default: str) -> HttpResponse:
    """Redirect after a POST (post/redirect/get): to the form's `next` when it is a
    path of this site, else to `default`."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()) \
            or not target.startswith("/"):
        target = default
    return redirect(target)


@dataclass(frozen=True)
class NavItem:
    label: str
    url_name: str
    when: Callable[[Membership], bool]
    #: a count shown beside the link when it is not zero (e.g. unread messages)
    badge: Callable[[Membership], int] | None = None


def always(member: Membership) -> bool:
    return True


def members_only(member: Membership) -> bool:
    return not member.spectator


def player_seat(member: Membership) -> bool:
    return member.player is not None


def umpire_only(member: Membership) -> bool:
    return member.is_umpire


def messages_reader(member: Membership) -> bool:
    """Members have messages; spectators and the umpire reading as a player do not."""
    return not member.spectator and not member.reading_as


def running_player(member: Membership) -> bool:
    return member.player is not None and member.campaign.status != "setup"


# Pages are linked only once they exist: each app's page module appends its entries
# (in `campaign.pages.urls`, when its routes are mounted).
NAV: list[NavItem] = [
    NavItem("Dashboard", "campaign-dashboard", always),
]


def nav_for(request: HttpRequest, member: Membership) -> list[dict[str, Any]]:
    current = (request.resolver_match.url_name or "") if request.resolver_match else ""
    items = []
    for item in NAV:
        if not item.when(member):
            continue
        try:
            url = reverse(item.url_name, args=[member.campaign.pk])
        except NoReverseMatch:
            continue
        if member.reading_as and member.player is not None and item.url_name != "umpire":
            # the umpire goes on reading as the same player (and never to pages the
            # campaign keeps from them)
            if item.url_name in ORDER_PAGES and not member.campaign.settings.umpire_sees_orders:
                continue
            url += f"?as={member.player.pk}"
        # a page's own sections (the umpire console's "umpire-seats"...) are that page
        items.append({"label": item.label, "url": url,
                      "current": current == item.url_name
                      or current.startswith(f"{item.url_name}-"),
                      "badge": item.badge(member) if item.badge else 0})
    return items


def render_campaign(request: HttpRequest, member: Membership, template: str,
                    context: dict[str, Any] | None = None, *, status: int = 200
                    ) -> HttpResponse:
    ctx = {"member": member, "campaign": member.campaign, "player": member.player,
           "campaign_nav": nav_for(request, member)}
    ctx.update(context or {})
    return render(request, template, ctx, status=status)


PLAYER_ONLY = "Only players of this campaign have this page."


def require_player_page(member: Membership) -> None:
    """A page only a seat has. The caller may see the campaign, so a 403 (the link
    is not shown to them)."""
    if member.player is None:
        raise PermissionDenied(PLAYER_ONLY)


def require_umpire_page(member: Membership) -> None:
    if not member.is_umpire:
        raise PermissionDenied("Only the umpire of this campaign has this page.")


def seat(member: Membership) -> Player:
    """The caller's seat, for pages only players use (403 for an umpire without one)."""
    require_player_page(member)
    player = member.player
    assert player is not None
    player.campaign = member.campaign
    return player


def optional_int(value: str | None) -> int | None:
    """A form or query value as an int; None when absent or not a number."""
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None
