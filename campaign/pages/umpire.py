"""The umpire console: advance, deadline, pause/resume, settings, corrections, retry
failed battles, hand a seat over. Every action calls the service the API calls."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from campaign.access import Membership
from campaign.models import Order, Player
from campaign.options import OPTIONS
from campaign.pages.common import attempt, campaign_page, render_campaign, require_umpire_page
from campaign.pages.trust import points
from campaign.services import clock, outbox


def _options(member: Membership) -> list[dict[str, Any]]:
    current = member.campaign.settings.as_dict()
    rows = []
    for key, option in OPTIONS.items():
        kind = ("bool" if isinstance(option.default, bool) else
                "choice" if option.choices else
                "int" if isinstance(option.default, int) else "str")
        rows.append({"key": key, "help": option.help, "kind": kind, "value": current[key],
                     "choices": option.choices or (), "min": option.minimum,
                     "max": option.maximum, "ruling": option.ruling})
    return rows


@campaign_page
def console(request: HttpRequest, member: Membership) -> HttpResponse:
    require_umpire_page(member)
    players = list(Player.objects.filter(campaign=member.campaign).select_related("user")
                   .annotate(sealed=Count("orders", filter=Q(
                       orders__turn=member.campaign.turn,
                       orders__status=Order.Status.OPEN))))
    context: dict[str, Any] = {
        "players": players, "options": _options(member), "troubled": [],
        # One key per page load: a double-clicked correction form applies once.
        "request_id": uuid.uuid4().hex, "rollback_points": points(member)}
    for panel in _console_panels:
        context.update(panel(member))
    return render_campaign(request, member, "pages/umpire.html", context)


#: Other apps add to the console (registered in their ready(); battles: the unfinished
#: battles): each takes the membership and returns template context.
_console_panels: list[Callable[[Membership], dict[str, Any]]] = []


def register_console_panel(panel: Callable[[Membership], dict[str, Any]]) -> None:
    if panel not in _console_panels:
        _console_panels.append(panel)


def _done(member: Membership) -> HttpResponse:
    return redirect("umpire", member.campaign.pk)


@require_POST
@campaign_page
def advance(request: HttpRequest, member: Membership) -> HttpResponse:
    require_umpire_page(member)
    campaign = member.campaign
    try:
        expected = (int(request.POST["turn"]), str(request.POST["phase"]))
    except (KeyError, ValueError):
        # The form always sends the phase it was shown at; without it a repeated request
        # could advance twice.
        messages.error(request, "The advance did not say which phase it leaves; reload the "
                                "page and try again. Nothing changed.")
        return _done(member)
    outbox.reset_request_counter()
    outcome = attempt(request, lambda: clock.advance(campaign_id=campaign.pk, by="umpire",
                                                     expected=expected))
    if outcome.ok:
        result = outcome.value
        if result.changed:
            messages.success(request, f"Now turn {result.campaign.turn}, "
                                      f"{result.campaign.phase} phase.")
            if waiting := outbox.unsent_in_this_request():
                messages.warning(request, f"{waiting} background job(s) (battles, "
                                 "notifications) could not reach the job queue yet; they "
                                 "are saved and start as soon as it is back.")
        else:
            messages.warning(request, "The campaign had already moved on; nothing changed.")
    return _done(member)


@require_POST
@campaign_page
def deadline(request: HttpRequest, member: Membership) -> HttpResponse:
    """The form sends a local date and time, read in the umpire's own time zone."""
    require_umpire_page(member)
    value = request.POST.get("deadline", "").strip()
    when: dt.datetime | None = None
    clearing = request.POST.get("clear") == "on"
    if not value and not clearing:  # an empty form sets nothing (issue 17)
        messages.error(request, "Give a date and time, or tick \"No deadline\".")
        return _done(member)
    if value and not clearing:
        try:
            when = timezone.make_aware(dt.datetime.fromisoformat(value))
        except ValueError:
            messages.error(request, "Give a date and time, like 2030-05-01 18:00.")
            return _done(member)
    attempt(request, lambda: clock.set_deadline(campaign=member.campaign, deadline=when),
            success="Deadline cleared." if when is None else "Deadline set.")
    return _done(member)


@require_POST
@campaign_page
def pause(request: HttpRequest, member: Membership) -> HttpResponse:
    require_umpire_page(member)
    if request.POST.get("action") == "resume":
        attempt(request, lambda: clock.resume(campaign=member.campaign),
                success="The clock runs again.")
    else:
        attempt(request, lambda: clock.pause(campaign=member.campaign),
                success="The clock is paused.")
    return _done(member)


@require_POST
@campaign_page
def settings_update(request: HttpRequest, member: Membership) -> HttpResponse:
    from campaign.services.campaigns import campaign_update_settings

    require_umpire_page(member)
    current = member.campaign.settings.as_dict()
    changes: dict[str, Any] = {}
    for key, option in OPTIONS.items():
        if isinstance(option.default, bool):
            value: Any = request.POST.get(key) == "on"
        elif key not in request.POST:
            continue
        elif isinstance(option.default, int) and not option.choices:
            try:
                value = int(request.POST[key])
            except ValueError:
                from django.contrib import messages

                messages.error(request, f"'{key}' must be a whole number.")
                return _done(member)
        else:
            value = request.POST[key]
        if value != current[key]:
            changes[key] = value
    if changes:
        attempt(request, lambda: campaign_update_settings(campaign=member.campaign,
                                                          changes=changes),
                success=f"Settings saved ({', '.join(sorted(changes))}).")
    return _done(member)


@require_POST
@campaign_page
def handover(request: HttpRequest, member: Membership) -> HttpResponse:
    from campaign.services.orders import seat_handover

    require_umpire_page(member)
    try:
        player_id = int(request.POST.get("player", ""))
    except ValueError:
        player_id = 0
    username = request.POST.get("username", "")
    attempt(request, lambda: seat_handover(campaign=member.campaign, player_id=player_id,
                                           username=username),
            success=f"The seat now belongs to {username}.")
    return _done(member)


@require_POST
@campaign_page
def remove_player(request: HttpRequest, member: Membership) -> HttpResponse:
    """Before the start: remove a seat (issue 17); the invitation link changes."""
    from campaign.services.campaigns import campaign_remove_player

    require_umpire_page(member)
    made = attempt(request, lambda: campaign_remove_player(
        campaign_id=member.campaign.pk, player_id=request.POST.get("player", ""),
        by=request.user.get_username()))
    if made.ok:
        messages.success(request, f"{made.value} no longer has a seat; the invitation link "
                                  "changed: send the new one to the players you want.")
    return redirect("campaign-dashboard", member.campaign.pk)


@require_POST
@campaign_page
def nudge(request: HttpRequest, member: Membership) -> HttpResponse:
    """Remind the players who are not ready, by email (issue 17)."""
    from django.db import transaction

    from campaign.services import notifications

    require_umpire_page(member)
    if member.campaign.status != "running":
        messages.error(request, "Players are nudged while the campaign runs.")
        return _done(member)
    with transaction.atomic():
        waiting = notifications.nudge(campaign=member.campaign)
    messages.success(request, f"{waiting} player(s) not ready were nudged (once per phase)."
                     if waiting else "Everyone is ready: nobody to nudge.")
    return _done(member)


@require_POST
@campaign_page
def approve_player(request: HttpRequest, member: Membership) -> HttpResponse:
    """Approve a seat taken while the campaign asks for approval (issue 17)."""
    from campaign.services.campaigns import campaign_approve_player

    require_umpire_page(member)
    made = attempt(request, lambda: campaign_approve_player(
        campaign_id=member.campaign.pk, player_id=request.POST.get("player", ""),
        by=request.user.get_username()))
    if made.ok:
        messages.success(request, f"{made.value}'s seat is approved.")
    return redirect("campaign-dashboard", member.campaign.pk)
