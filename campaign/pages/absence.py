"""Absence on the pages (issue 27): a player says for how many days the stand-in plays
their seat, or that they are back; anyone who may read the campaign reads the stand-in's
rules and every seat's record of deadlines."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from campaign.access import Membership
from campaign.errors import InvalidInput
from campaign.models import Player
from campaign.pages.common import (
    attempt,
    back,
    campaign_page,
    optional_int,
    public_page,
    render_campaign,
)
from campaign.services import absence


def away_context(member: Membership) -> dict[str, object]:
    """What the dashboard's absence card needs (the caller's seat only)."""
    player = member.player
    if player is None or member.reading_as or member.campaign.status != "running":
        return {}
    return {"away": {"away_until": player.away_until, "stand_in": player.stand_in,
                     "days_left": absence.days_left(player, member.campaign),
                     "allowance": member.campaign.settings.away_days}}


@require_POST
@campaign_page
def away(request: HttpRequest, member: Membership) -> HttpResponse:
    player = member.player
    if player is None:
        raise Http404("Only players declare an absence.")
    days = optional_int(request.POST.get("days"))

    def declare() -> object:
        if days is None or days < 1:
            raise InvalidInput("Say for how many days you will be away (at least one).",
                               code="invalid_until")
        return absence.declare_away(player=player,
                                    until=timezone.now() + dt.timedelta(days=days))

    attempt(request, declare, success=f"The stand-in plays your seat for {days} day"
            f"{'s' if days != 1 else ''}; your first action takes it back.")
    return back(request, reverse("campaign-dashboard", args=[member.campaign.pk]))


@require_POST
@campaign_page
def back_from_away(request: HttpRequest, member: Membership) -> HttpResponse:
    player = member.player
    if player is None:
        raise Http404("Only players come back.")
    attempt(request, lambda: absence.end_away(player=player),
            success="Welcome back: the seat is yours again.")
    return back(request, reverse("campaign-dashboard", args=[member.campaign.pk]))


@public_page
def stand_in_rules(request: HttpRequest, member: Membership) -> HttpResponse:
    seats: list[Any] = list(  # each given `stood_in` for the template
        Player.objects.filter(campaign=member.campaign, approved=True)
        .select_related("user").order_by("user__username"))
    now = timezone.now()
    for seat in seats:
        seat.stood_in = absence.stood_in(seat, now)
    return render_campaign(request, member, "pages/stand_in.html", {
        "rules": absence.STAND_IN_RULES, "seats": seats,
        "away_days": member.campaign.settings.away_days,
        "stand_in_after": member.campaign.settings.stand_in_after})
