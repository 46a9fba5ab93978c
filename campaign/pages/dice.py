"""The dice page (issue 18): every phase's commitment, its seed once revealed, and
"verified" per phase, recomputed on request (a phase's battles are replayed, so it is
not done on every page load); which seeds a rollback kept (issue 30, R-DICE-4). Public
leagues show it to anyone (issue 26)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from campaign.access import Membership
from campaign.models import Event, PhaseSeed
from campaign.pages.common import public_page, render_campaign
from campaign.pages.trust import points
from campaign.services.commitments import verify_phase


@public_page
def dice(request: HttpRequest, member: Membership) -> HttpResponse:
    wanted = request.GET.get("verify", "")
    # R-DICE-4: the seeds a rollback kept (committed before it, used again after it).
    kept: dict[tuple[int, str], str] = {}
    for data in (Event.objects.filter(campaign=member.campaign, kind="campaign_rolled_back")
                 .order_by("id").values_list("data", flat=True)):
        for seed in data.get("seeds_kept") or []:
            kept[(seed.get("turn"), seed.get("phase"))] = (
                f"turn {data.get('to_turn')}, {data.get('to_phase')} phase")
    rows: list[dict[str, Any]] = []
    for seed in PhaseSeed.objects.filter(campaign=member.campaign):
        row: dict[str, Any] = {"turn": seed.turn, "phase": seed.phase,
                               "commitment": seed.commitment,
                               "seed": seed.secret if seed.revealed_at else None,
                               "key": f"{seed.turn}:{seed.phase}",
                               "kept": kept.get((seed.turn, seed.phase), "")}
        if seed.revealed_at and wanted in (row["key"], "all"):
            row["check"] = verify_phase(member.campaign, seed.turn, seed.phase)
        rows.append(row)

    return render_campaign(request, member, "pages/dice.html", {
        "rows": rows,
        "points": [] if member.campaign.is_sandbox or member.spectator else points(member)})
