"""Battle pages: the list (polled by htmx while jobs run) and the report with the
dice and action log, replayed turn by turn. A battle is public to the campaign's
members (as in the API); the job error is shown to the umpire only."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from battles.models import Battle
from campaign.access import Membership
from campaign.models import Player
from campaign.pages.common import (
    attempt,
    campaign_page,
    is_htmx,
    render_campaign,
    require_umpire_page,
)

LIST_FIELDS = ("id", "turn", "territory__name", "status", "sides", "winner_id", "order",
               "mode", "defender_id", "attempts", "quarantined")


def _names(campaign_id: int) -> dict[int, str]:
    return dict(Player.objects.filter(campaign_id=campaign_id)
                .values_list("pk", "user__username"))


def _side_names(sides: list[Any], names: dict[int, str]) -> str:
    out = []
    for side in sides or []:
        pid = side.get("player") if isinstance(side, dict) else side
        out.append(names.get(pid, f"player {pid}") if isinstance(pid, int) else str(pid))
    return " vs ".join(out)


@campaign_page
def battle_list(request: HttpRequest, member: Membership) -> HttpResponse:
    battles = list(Battle.objects.filter(campaign=member.campaign)
                   .select_related("territory").order_by("-turn", "order", "id")[:200])
    names = _names(member.campaign.pk)
    for b in battles:
        b.side_text = _side_names(b.sides, names)
        b.winner_name = names.get(b.winner_id, "")
    running = any(b.status in (Battle.Status.QUEUED, Battle.Status.RUNNING) for b in battles)
    ctx = {"battles": battles, "running": running}
    if is_htmx(request):
        return render_campaign(request, member, "pages/_battle_rows.html", ctx)
    return render_campaign(request, member, "pages/battles.html", ctx)


def _describe(entry: dict[str, Any]) -> str:
    skip = {"turn", "round", "event"}
    parts = []
    for key, value in entry.items():
        if key in skip:
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts)


@campaign_page
def battle_report(request: HttpRequest, member: Membership, battle_id: int) -> HttpResponse:
    battle = (Battle.objects.filter(campaign=member.campaign, pk=battle_id)
              .select_related("territory").first())
    if battle is None:
        raise Http404("No such battle.")
    names = _names(member.campaign.pk)
    finished = battle.status == Battle.Status.FINISHED
    turns: OrderedDict[Any, list[dict[str, Any]]] = OrderedDict()
    if finished:
        for entry in battle.log or []:
            if not isinstance(entry, dict):
                continue
            turns.setdefault(entry.get("turn", 0), []).append(
                {"round": entry.get("round"), "event": str(entry.get("event", "")),
                 "text": _describe(entry)})
    keys = list(turns)
    step = request.GET.get("turn")
    try:
        current = keys.index(int(step)) if step is not None else None
    except ValueError:
        current = None
    ctx = {"battle": battle, "side_text": _side_names(battle.sides, names),
           "winner_name": names.get(battle.winner_id, ""), "finished": finished,
           "turns": list(turns.items()), "show_error": member.is_umpire
           and not member.umpire_plays, "result": battle.result if finished else None}
    if current is not None:
        ctx["step"] = {"turn": keys[current], "entries": turns[keys[current]],
                       "prev": keys[current - 1] if current > 0 else None,
                       "next": keys[current + 1] if current + 1 < len(keys) else None}
    elif keys:
        ctx["step"] = {"turn": keys[0], "entries": turns[keys[0]], "prev": None,
                       "next": keys[1] if len(keys) > 1 else None}
    if is_htmx(request):
        return render_campaign(request, member, "pages/_replay.html", ctx)
    return render_campaign(request, member, "pages/battle.html", ctx)


@require_POST
@campaign_page
def battle_retry(request: HttpRequest, member: Membership, battle_id: int) -> HttpResponse:
    from battles.services.jobs import retry_battle

    require_umpire_page(member)
    attempt(request, lambda: retry_battle(campaign=member.campaign, battle_id=battle_id),
            success="The battle's job was queued again.")
    target = "umpire" if request.POST.get("back") == "umpire" else "battles"
    return redirect(target, member.campaign.pk)
