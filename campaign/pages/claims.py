"""Claiming an imported seat (issue 30.1, R-SEC-3): the player's page
`/campaigns/<id>/claim/`, a form for the code the umpire sent, ending on the campaign's
dashboard; and the umpire console's panel listing the seats that wait, with their codes
and the link to send (`templates/pages/_claim_codes.html`). Each calls what the API
calls (`campaign.services.claims`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaign.access import Membership, signed_in
from campaign.errors import GameError
from campaign.models import Campaign, Player
from campaign.selectors import unclaimed_seats
from campaign.services.claims import claim_seat


class ClaimForm(forms.Form):
    code = forms.CharField(label="Claim code", max_length=64, strip=True,
                           help_text="The umpire sent it to you with the link to this page.",
                           widget=forms.TextInput(attrs={"autocomplete": "off",
                                                         "spellcheck": "false"}))


@login_required
@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The form. It names no campaign before the claim: a code opens a seat, a campaign's
    number alone tells nothing (a wrong code and a missing campaign read alike)."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is not None and (campaign.umpire_id == request.user.pk or Player.objects
                                 .filter(campaign=campaign,
                                         user=signed_in(request.user)).exists()) \
            and not Player.objects.filter(campaign=campaign).exclude(claim_code="").exists():
        return redirect("campaign-dashboard", campaign.pk)
    form = ClaimForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                seat = claim_seat(campaign_id=campaign_id, user=signed_in(request.user),
                                  code=form.cleaned_data["code"])
            except GameError as exc:
                form.add_error("code", exc.detail)
                status = exc.status_code
            else:
                messages.success(request, f"The seat is yours: you play "
                                          f"{seat.campaign.name} from now on.")
                return redirect("campaign-dashboard", campaign_id)
        else:
            status = 400
    return render(request, "pages/claim.html", {"form": form, "campaign_id": campaign_id},
                  status=status)


def claim_codes_panel(member: Membership) -> dict[str, Any]:
    """The umpire console's context for `_claim_codes.html`."""
    campaign = member.campaign
    seats = unclaimed_seats(campaign) if member.is_umpire else []
    link = reverse("campaign-claim", args=[campaign.pk])
    return {"unclaimed_seats": seats, "claim_link": link}


def claim_alerts(member: Membership) -> list[dict[str, str]]:
    """The umpire's dashboard: imported seats still wait for their players."""
    if not member.is_umpire:
        return []
    waiting = Player.objects.filter(campaign=member.campaign).exclude(claim_code="").count()
    if not waiting:
        return []
    seats = "seat waits" if waiting == 1 else "seats wait"
    return [{"level": "warn", "url": reverse("umpire", args=[member.campaign.pk]),
             "text": f"{waiting} imported {seats} for a player: send each its claim code "
                     "from the umpire console."}]

