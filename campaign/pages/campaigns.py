"""Campaign list, creation, joining, and the dashboard (turn, phase, deadline, who is
ready, the caller's credits and research points, alerts)."""

from __future__ import annotations

import secrets
from typing import Any, cast
from urllib.parse import urlencode

from django import forms
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign import rulesets
from campaign.access import Membership, campaigns_of, signed_in
from campaign.hooks import Hook
from campaign.journal_labels import read_entries
from campaign.models import Campaign, PhaseSeed, Player
from campaign.pages.absence import away_context
from campaign.pages.common import (
    attempt,
    back,
    campaign_page,
    is_htmx,
    public_page,
    render_campaign,
)
from campaign.selectors import events_visible_to
from campaign.services import clock
from campaign.services.campaigns import campaign_create, campaign_join
from campaign.services.setup import campaign_start


def home(request: HttpRequest) -> HttpResponse:
    campaigns = (
        campaigns_of(request.user).select_related("umpire")
        .annotate(player_count=Count("players", distinct=True))
        .order_by("-created_at")[:100]
        if request.user.is_authenticated
        else []
    )
    # Public leagues (issue 16): anyone, signed in or not, reads their map and history.
    public = (Campaign.objects.filter(options__public=True, is_sandbox=False)
              .exclude(status=Campaign.Status.SETUP).select_related("umpire")
              .annotate(player_count=Count("players", distinct=True))
              .order_by("-created_at")[:50])
    return render(request, "home.html", {"campaigns": campaigns, "public": public})


def health(request: HttpRequest) -> JsonResponse:
    """Liveness for the compose health check: the app answers and the database works."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


class CampaignCreateForm(forms.Form):
    name = forms.CharField(max_length=120, label="Campaign name")
    generator = forms.ChoiceField(
        label="Meta-map", choices=[("hex", "Hex grid"), ("random", "Random graph")],
        help_text="How the territories of the meta-map are laid out and connected.")
    territories = forms.IntegerField(label="Number of territories", min_value=2,
                                     max_value=5000, initial=12)
    seed = forms.IntegerField(label="Seed", min_value=0, required=False,
                              help_text="Same seed, same map. Leave empty for a random one "
                                        "(shown once the campaign exists).")
    ruleset = forms.ChoiceField(
        label="Tactical ruleset", choices=(), required=False,
        help_text="The game battles are fought with, and what players buy and field. It "
                  "cannot change once the campaign starts.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

        offered = rulesets.all_rulesets()
        cast(forms.ChoiceField, self.fields["ruleset"]).choices = [
            (r.name, r.title) for r in offered]
        self.fields["ruleset"].initial = rulesets.DEFAULT


@login_required
@require_http_methods(["GET", "POST"])
def campaign_new(request: HttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # No seed given: a random one (issue 17: an empty seed gave every campaign the
        # same map), said in the confirmation so the umpire can make the map again.
        seed = data["seed"] if data["seed"] is not None else secrets.randbelow(10**9) + 1
        outcome = attempt(request, lambda: campaign_create(
            umpire=signed_in(request.user), name=data["name"], seed=seed,
            map_spec={"generator": data["generator"], "territories": data["territories"],
                      "seed": seed}, options={"ruleset": data["ruleset"] or rulesets.DEFAULT}),
            success=f"Campaign created with map seed {seed}. Share the invitation link with "
                    "your players.")
        if outcome.ok:
            return redirect("campaign-dashboard", outcome.value.pk)
    return render(request, "pages/campaign_new.html", {"form": form})


class JoinForm(forms.Form):
    campaign = forms.IntegerField(label="Campaign number", min_value=1,
                                  help_text="The number in the invitation link the umpire sent.")


@login_required
@require_http_methods(["GET", "POST"])
def join_lookup(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        return redirect("campaign-join", form.cleaned_data["campaign"])
    return render(request, "pages/join_lookup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The invitation page. Only a campaign in set-up can be joined; any other
    campaign the caller is not in is a 404 (no leak of running campaigns)."""
    campaign = Campaign.objects.filter(pk=campaign_id).select_related("umpire").first()
    if campaign is None:
        raise Http404("No such campaign.")
    is_member = campaign.umpire_id == request.user.pk or Player.objects.filter(
        campaign=campaign, user=signed_in(request.user)).exists()
    if is_member:
        return redirect("campaign-dashboard", campaign.pk)
    if campaign.status != Campaign.Status.SETUP:
        raise Http404("No such campaign.")
    invite = request.POST.get("invite") or request.GET.get("invite") or ""
    faction = request.POST.get("faction") or ""
    if request.method == "POST":
        outcome = attempt(request, lambda: campaign_join(
            campaign_id=campaign.pk, user=signed_in(request.user), invite=invite, faction=faction),
            success=f"You joined {campaign.name}.")
        if outcome.ok:
            return redirect("campaign-dashboard", campaign.pk)
    info = rulesets.get(campaign.settings.ruleset)
    return render(request, "pages/join.html", {
        "target": campaign, "invite": invite, "faction": faction,
        "ruleset_title": info.title if info is not None else campaign.settings.ruleset,
        "factions": list(info.factions) if info is not None else [],
        "needs_code": bool(campaign.settings.invite_only)})


dashboard_alerts: Hook[[Membership], list[dict[str, str]]] = Hook("dashboard_alerts", """What
needs attention on a campaign's dashboard.

Called by `campaign.pages.campaigns` (the dashboard of a started campaign, not a
spectator's) with the membership; a receiver returns alerts `{"level", "text", "url"?}`,
shown by `order` (orders, 0: no move order yet; the core's claims, 5; economy, 10: trade
offers; battles, 20: the turn's battles).""")


def _alerts(member: Membership) -> list[dict[str, str]]:
    """What needs the caller's attention, as short sentences with a link."""
    campaign = member.campaign
    alerts: list[dict[str, str]] = []
    if campaign.status == Campaign.Status.SETUP:
        return alerts
    if campaign.paused:
        alerts.append({"level": "warn", "text": "The campaign is paused: the clock is stopped."})
    player = member.player
    if player is not None and player.missed_turns:
        alerts.append({"level": "warn",
                       "text": f"You missed the deadline {player.missed_turns} "
                               f"time(s) in a row."})
    for found in dashboard_alerts.call(member):
        alerts.extend(found)
    if member.is_umpire:
        limit = campaign.settings.missed_turns_alert
        absent = [p.user.username for p in Player.objects.filter(
            campaign=campaign, missed_turns__gte=limit).select_related("user")]
        if absent:
            alerts.append({"level": "warn",
                           "text": f"Missed {limit}+ deadlines in a row: {', '.join(absent)}. "
                                   "Consider handing the seat over."})
    return alerts


def maybe_url(name: str, cid: int) -> str:
    try:
        return reverse(name, args=[cid])
    except NoReverseMatch:
        return ""


def _status_context(member: Membership) -> dict[str, Any]:
    players = list(Player.objects.filter(campaign=member.campaign).select_related("user"))
    current = (PhaseSeed.objects.filter(campaign=member.campaign, turn=member.campaign.turn,
                                        phase=member.campaign.phase)
               .values_list("commitment", flat=True).first())
    # A spectator of a public league (issue 26) reads the turn, the players and the dice;
    # alerts are the members' own business.
    alerts = [] if member.spectator else _alerts(member)
    return {"players": players, "alerts": alerts, "dice_commitment": current}


@public_page
def dashboard(request: HttpRequest, member: Membership) -> HttpResponse:
    ctx = _status_context(member)
    if is_htmx(request):
        return render_campaign(request, member, "pages/_dashboard_status.html", ctx)
    link = reverse("campaign-join", args=[member.campaign.pk])
    if member.is_umpire and member.campaign.settings.invite_only:
        link += "?" + urlencode({"invite": member.campaign.invite_code})
    ctx["invite_url"] = request.build_absolute_uri(link) if member.is_umpire else ""

    ctx.update(away_context(member))
    ctx["news"] = _latest_news(member)
    return render_campaign(request, member, "pages/dashboard.html", ctx)


#: how many of the newest journal entries the dashboard reads out
NEWS = 5


def _latest_news(member: Membership) -> list[Any]:
    """The newest entries the member may read, in the journal's own sentences (the
    dice's bookkeeping left to the history page)."""
    events = list(events_visible_to(member).exclude(
        kind__in=("dice_committed", "dice_revealed")).order_by("-id")[:NEWS])
    read_entries(member.campaign.pk, events)
    return events


@require_POST
@campaign_page
def ready(request: HttpRequest, member: Membership) -> HttpResponse:
    player = member.player
    if player is None:
        raise Http404("Only players mark themselves ready.")
    attempt(request, lambda: clock.mark_ready(player=player),
            success="You are marked ready for this phase.")
    return back(request, reverse("campaign-dashboard", args=[member.campaign.pk]))


@require_POST
@campaign_page
def start(request: HttpRequest, member: Membership) -> HttpResponse:
    if not member.is_umpire:
        raise Http404("Only the umpire starts a campaign.")
    attempt(request, lambda: campaign_start(campaign_id=member.campaign.pk),
            success="The campaign has started: turn 1, commercial phase.")
    return redirect("campaign-dashboard", member.campaign.pk)
