"""The order receipts page (issue 30): once a turn's orders are revealed, every player's
last receipt, its salt and what it sealed, in names, with "matches what was revealed";
and a box where a player pastes the receipt they kept to check it. Here, beside the
orders page: it names units (economy) and territories, which the orders app sees."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from campaign.access import Membership
from campaign.errors import GameError
from campaign.pages.common import campaign_page, optional_int, render_campaign
from campaign.selectors import turn_revealed
from economy.models import Unit
from orders.services.receipts import published_receipts
from territories.models import Territory


def _revealed_turns(member: Membership) -> list[int]:
    campaign = member.campaign
    if not campaign.turn:
        return []
    return [t for t in range(campaign.turn, 0, -1) if turn_revealed(campaign, t)]


@campaign_page
def receipts(request: HttpRequest, member: Membership) -> HttpResponse:
    turns = _revealed_turns(member)
    turn = optional_int(request.GET.get("turn"))
    if turn not in turns:
        turn = turns[0] if turns else None
    rows: list[dict[str, Any]] = []
    if turn is not None and not member.spectator:
        try:
            published = published_receipts(campaign=member.campaign, turn=turn)
        except GameError:
            published = []
        unit_ids = {o["unit"] for r in published for o in r.orders}
        units = {u.pk: str(u) for u in Unit.objects.filter(pk__in=unit_ids)}
        places = dict(Territory.objects.filter(campaign=member.campaign)
                      .values_list("pk", "name"))
        for r in published:
            rows.append({
                "username": r.username, "receipt": r.receipt, "salt": r.salt,
                "matches": r.matches,
                "moves": [f"{units.get(o['unit'], 'a unit')} to "
                          f"{places.get(o['destination'], 'a territory')}"
                          for o in r.orders]})
    kept = (request.GET.get("receipt") or "").strip().lower()[:64]
    found = next((r for r in rows if r["receipt"] == kept), None) if kept else None
    return render_campaign(request, member, "pages/receipts.html", {
        "turns": turns, "turn": turn, "rows": rows, "kept": kept, "found": found})
