"""The trust pages of issue 18 beside the dice page: the umpire rolls the campaign back
to a kept phase start, through a confirmation page listing what is undone (issue 26); a
member clones a private sandbox from one; a sandbox's owner chooses the seat they play.
Each calls the service the API calls."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import Membership
from campaign.errors import GameError
from campaign.pages.common import attempt, campaign_page, render_campaign, require_umpire_page
from campaign.services.rollback import rollback, rollback_points, rollback_preview
from campaign.services.sandbox import create_sandbox, play_as
from campaign.throttling import page_throttle, wait_text


def points(member: Membership) -> list[dict[str, object]]:
    """The kept phase starts, for the forms' choices (newest first)."""
    return [{"value": f"{t}:{p}", "label": f"Turn {t}, start of the {p} phase"}
            for t, p in rollback_points(member.campaign)]


def _split(value: str) -> tuple[str, str]:
    turn, _, phase = value.partition(":")
    return turn, phase


@require_http_methods(["GET", "POST"])
@campaign_page
def rollback_page(request: HttpRequest, member: Membership) -> HttpResponse:
    """The rollback confirmation (issue 26): GET lists, in sentences, what rolling back
    to the chosen phase start undoes and what it keeps; POST (confirmed, with a reason)
    rolls back. The umpire console links here."""
    require_umpire_page(member)

    chosen = request.POST.get("point", "") if request.method == "POST" \
        else request.GET.get("point", "")
    here = (f"{reverse('umpire-rollback', args=[member.campaign.pk])}?"
            f"{urlencode({'point': chosen})}")
    if request.method == "POST":
        if not request.POST.get("confirm"):
            messages.error(request, "Tick the box to confirm: everything listed will be "
                                    "undone.")
            return redirect(here)
        turn, phase = _split(chosen)
        done = attempt(request, lambda: rollback(
            campaign_id=member.campaign.pk, turn=turn, phase=phase,
            by=request.user.get_username(), reason=request.POST.get("reason", "")[:500]),
            success=f"Rolled back to the start of turn {turn}'s {phase} phase.")
        return redirect("umpire", member.campaign.pk) if done.ok else redirect(here)
    preview = None
    error = ""
    if chosen:
        turn, phase = _split(chosen)
        try:
            preview = rollback_preview(member=member, turn=turn, phase=phase)
        except GameError as exc:
            error = exc.detail
    return render_campaign(request, member, "pages/rollback.html", {
        "points": points(member), "chosen": chosen, "preview": preview, "error": error},
        status=400 if error else 200)


@require_POST
@campaign_page
def sandbox_new(request: HttpRequest, member: Membership) -> HttpResponse:
    wait = page_throttle(request, "sandbox")
    if wait is not None:
        messages.error(request, "You have cloned many sandboxes in a short time: each one "
                                f"copies the whole campaign. Try again in {wait_text(wait)}.")
        return redirect("dice", member.campaign.pk)
    turn, phase = _split(request.POST.get("point", ""))
    made = attempt(request, lambda: create_sandbox(member=member, turn=turn, phase=phase),
                   success="Your private sandbox: play every seat, nobody is told.")
    if made.ok:
        return redirect("campaign-dashboard", made.value.pk)
    return redirect("dice", member.campaign.pk)


@require_POST
@campaign_page
def sandbox_seat(request: HttpRequest, member: Membership) -> HttpResponse:
    done = attempt(request, lambda: play_as(member=member, player_id=request.POST.get("player")))
    if done.ok and done.value.sandbox_seat is not None:
        messages.success(request, "You now play this seat.")
    target = request.POST.get("next", "")
    if target.startswith(f"/campaigns/{member.campaign.pk}/"):
        return redirect(target)
    return redirect("campaign-dashboard", member.campaign.pk)
