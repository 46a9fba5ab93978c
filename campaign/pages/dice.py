"""The dice page (issue 18): every phase's commitment, its seed once revealed, and
"verified" per phase, recomputed on request (a phase's battles are replayed, so it is
not done on every page load). Public leagues show it to anyone (issue 26)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from campaign.access import Membership
from campaign.models import PhaseSeed
from campaign.pages.common import public_page, render_campaign
from campaign.services.commitments import verify_phase


@public_page
def dice(request: HttpRequest, member: Membership) -> HttpResponse:
    wanted = request.GET.get("verify", "")
    rows: list[dict[str, Any]] = []
    for seed in PhaseSeed.objects.filter(campaign=member.campaign):
        row: dict[str, Any] = {"turn": seed.turn, "phase": seed.phase,
                               "commitment": seed.commitment,
                               "seed": seed.secret if seed.revealed_at else None,
                               "key": f"{seed.turn}:{seed.phase}"}
        if seed.revealed_at and wanted in (row["key"], "all"):
            row["check"] = verify_phase(member.campaign, seed.turn, seed.phase)
        rows.append(row)
    from campaign.pages.trust import points

    return render_campaign(request, member, "pages/dice.html", {
        "rows": rows,
        "points": [] if member.campaign.is_sandbox or member.spectator else points(member)})
