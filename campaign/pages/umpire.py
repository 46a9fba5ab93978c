"""The umpire console, in sections of their own (issue 26): the clock (advance,
deadline, pause, battles to retry), the seats (hand over, remove, nudge, read as a
player), corrections (goods, units, ownership, roll back), the settings, and export and
import. Every action calls the service the API calls."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import Membership, signed_in
from campaign.errors import GameError
from campaign.hooks import Hook
from campaign.models import Campaign, Player
from campaign.pages.common import (
    attempt,
    campaign_page,
    optional_int,
    render_campaign,
    require_umpire_page,
)
from campaign.pages.settings_form import SettingsForm
from campaign.pages.trust import points
from campaign.services import clock, export, imports, notifications, outbox
from campaign.services.campaigns import (
    campaign_approve_player,
    campaign_remove_player,
    campaign_update_settings,
    seat_remove,
)
from campaign.services.seats import seat_handover

#: The console's sections, each its own page (issue 26: short pages that read on a
#: phone): (key, label, url name).
SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("clock", "Clock", "umpire"),
    ("seats", "Seats", "umpire-seats"),
    ("corrections", "Corrections", "umpire-correct"),
    ("settings", "Settings", "umpire-settings"),
    ("data", "Export and import", "umpire-data"),
)


def _section(request: HttpRequest, member: Membership, key: str, template: str,
             context: dict[str, Any] | None = None, *, status: int = 200) -> HttpResponse:
    sections = [{"key": k, "label": label, "url": reverse(name, args=[member.campaign.pk]),
                 "current": k == key} for k, label, name in SECTIONS]
    title = next(label for k, label, _ in SECTIONS if k == key)
    return render_campaign(request, member, template,
                           {"sections": sections, "section_title": title, **(context or {})},
                           status=status)


console_panel: Hook[[Membership], dict[str, Any]] = Hook("console_panel", """What an app adds
to the umpire's console.

Called by `campaign.pages.umpire` (the clock, seats and data sections) with the umpire's
membership; a receiver returns template context merged into the page's (the core: the
claim codes; orders: orders sealed per seat; battles: `troubled`, the battles not
recorded; economy: corrections; territories: ownership).""")


def _panels(member: Membership) -> dict[str, Any]:
    context: dict[str, Any] = {"troubled": []}
    for panel in console_panel.call(member):
        context.update(panel)
    return context


def _players(member: Membership) -> list[Player]:
    return list(Player.objects.filter(campaign=member.campaign).select_related("user"))


@campaign_page
def console(request: HttpRequest, member: Membership) -> HttpResponse:
    """The clock: advance, deadline, pause, and the battles that are not recorded."""
    require_umpire_page(member)
    return _section(request, member, "clock", "pages/umpire_clock.html", _panels(member))


@campaign_page
def seats(request: HttpRequest, member: Membership) -> HttpResponse:
    """Who plays: readiness, hand a seat over (replace), remove a player, read as one."""
    require_umpire_page(member)
    return _section(request, member, "seats", "pages/umpire_seats.html",
                    {"players": _players(member), **_panels(member)})


@campaign_page
def corrections(request: HttpRequest, member: Membership) -> HttpResponse:
    """Corrections of goods and units, of ownership, and the roll back."""
    require_umpire_page(member)
    return _section(request, member, "corrections", "pages/umpire_corrections.html", {
        "players": [p for p in _players(member) if p.removed_at is None],
        # One key per page load: a double-clicked correction form applies once.
        "request_id": uuid.uuid4().hex, "rollback_points": points(member),
        **_panels(member)})


@campaign_page
def data(request: HttpRequest, member: Membership) -> HttpResponse:
    """Export the campaign as one JSON document; import a document as a new campaign."""
    require_umpire_page(member)
    return _section(request, member, "data", "pages/umpire_data.html",
                    {"may_export": member.sees_private})


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
def grace(request: HttpRequest, member: Membership) -> HttpResponse:
    """Everyone gets more hours before the deadline (issue 27), with a reason."""
    require_umpire_page(member)
    hours = optional_int(request.POST.get("hours"))
    attempt(request, lambda: clock.grant_grace(campaign=member.campaign,
                                               hours=hours if hours is not None else 0,
                                               reason=request.POST.get("reason", "")),
            success=f"Everyone has {hours} more hour{'s' if hours != 1 else ''}.")
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


@require_http_methods(["GET", "POST"])
@campaign_page
def settings_page(request: HttpRequest, member: Membership) -> HttpResponse:
    """The settings, one field each (durations in hours or days, the ruleset's options
    from its own declaration). A bad value is a form error and nothing is saved."""
    require_umpire_page(member)
    campaign = member.campaign
    current = campaign.settings.as_dict()
    running = campaign.status != Campaign.Status.SETUP
    if request.method != "POST":
        form = SettingsForm(current=current, running=running)
        return _section(request, member, "settings", "pages/umpire_settings.html",
                        {"form": form})
    form = SettingsForm(request.POST, current=current, running=running)
    if form.is_valid():
        changes = form.changes()
        if not changes:
            messages.info(request, "Nothing changed: the settings were already these.")
            return redirect("umpire-settings", campaign.pk)
        try:
            campaign_update_settings(campaign=campaign, changes=changes)
        except GameError as exc:
            form.add_error(None, exc.detail)
        else:
            names = ", ".join(SettingsForm.label_of(key, current) for key in changes)
            messages.success(request, f"Settings saved: {names}.")
            return redirect("umpire-settings", campaign.pk)
    return _section(request, member, "settings", "pages/umpire_settings.html",
                    {"form": form}, status=400)


def _to_seats(member: Membership) -> HttpResponse:
    return redirect("umpire-seats", member.campaign.pk)


@require_POST
@campaign_page
def handover(request: HttpRequest, member: Membership) -> HttpResponse:
    """Replace a player: the seat, with everything it holds, goes to another user
    (R-ORD-7); a removed seat is played again (R-ORD-11)."""
    require_umpire_page(member)
    try:
        player_id = int(request.POST.get("player", ""))
    except ValueError:
        player_id = 0
    username = request.POST.get("username", "").strip()
    if not username:
        messages.error(request, "Give the username of the person who takes the seat. "
                                "Nothing changed.")
        return _to_seats(member)
    attempt(request, lambda: seat_handover(campaign=member.campaign, player_id=player_id,
                                           username=username),
            success=f"The seat now belongs to {username}, with everything it holds.")
    return _to_seats(member)


@require_POST
@campaign_page
def remove_player(request: HttpRequest, member: Membership) -> HttpResponse:
    """Before the start: remove a seat (issue 17); the invitation link changes. While the
    campaign runs: the player leaves and the seat stays, unplayed (R-ORD-11)."""
    require_umpire_page(member)
    if member.campaign.status != Campaign.Status.SETUP:
        removed = attempt(request, lambda: seat_remove(
            campaign_id=member.campaign.pk, player_id=request.POST.get("player", ""),
            by=request.user.get_username()))
        if removed.ok:
            messages.success(request, f"{removed.value.user.get_username()} no longer plays "
                             "this campaign. Their seat keeps what it holds, unplayed; hand "
                             "it to someone to have it played again.")
        return _to_seats(member)
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
    require_umpire_page(member)
    if member.campaign.status != "running":
        messages.error(request, "Players are nudged while the campaign runs.")
        return _to_seats(member)
    with transaction.atomic():
        waiting = notifications.nudge(campaign=member.campaign)
    messages.success(request, f"{waiting} player(s) not ready were nudged (once per phase)."
                     if waiting else "Everyone is ready: nobody to nudge.")
    return _to_seats(member)


@campaign_page
def export_download(request: HttpRequest, member: Membership) -> HttpResponse:
    """The whole campaign as the API's export document, downloaded as a file."""
    require_umpire_page(member)
    if not member.sees_private:
        raise PermissionDenied("An umpire who also plays exports the campaign only when "
                               "the campaign lets them read players' private business "
                               "(the setting \"Playing umpire sees private\").")
    document = export.export_campaign(member.campaign)
    response = HttpResponse(json.dumps(document, indent=1), content_type="application/json")
    name = slugify(member.campaign.name) or "campaign"
    response["Content-Disposition"] = (f'attachment; filename="{name}-turn-'
                                       f'{member.campaign.turn}.json"')
    return response


@require_POST
@campaign_page
def import_upload(request: HttpRequest, member: Membership) -> HttpResponse:
    """An export document uploaded becomes a new campaign whose umpire is the uploader;
    they land on it. A file that is not an export document is a form error."""
    require_umpire_page(member)
    upload = request.FILES.get("document")
    error = ""
    document: Any = None
    if upload is None:
        error = "Choose the exported file (.json) to import."
    elif (upload.size or 0) > 50 * 1024 * 1024:
        error = "That file is larger than 50 MB, more than an export document can be."
    else:
        try:
            document = json.loads(upload.read())
        except (ValueError, UnicodeDecodeError):
            error = "That file is not an export document (it is not JSON)."
    if not error:
        try:
            made = imports.import_campaign(document=document, umpire=signed_in(request.user))
        except GameError as exc:
            error = f"That document cannot be imported: {exc.detail}"
        else:
            messages.success(request, f"Imported as a new campaign, {made.name}; you are "
                                      "its umpire. Its other seats wait to be claimed.")
            return redirect("campaign-dashboard", made.pk)
    return _section(request, member, "data", "pages/umpire_data.html",
                    {"may_export": member.sees_private, "import_error": error}, status=400)


@require_POST
@campaign_page
def approve_player(request: HttpRequest, member: Membership) -> HttpResponse:
    """Approve a seat taken while the campaign asks for approval (issue 17)."""
    require_umpire_page(member)
    made = attempt(request, lambda: campaign_approve_player(
        campaign_id=member.campaign.pk, player_id=request.POST.get("player", ""),
        by=request.user.get_username()))
    if made.ok:
        messages.success(request, f"{made.value}'s seat is approved.")
    return redirect("campaign-dashboard", member.campaign.pk)
