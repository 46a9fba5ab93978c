"""The history page: the journal by turn, filtered by turn and kind, showing only
what the viewer may read (`campaign.selectors.events_visible_to`, the one place that
decides it)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from campaign.access import Membership
from campaign.pages.common import campaign_page, is_htmx, render_campaign

PAGE_SIZE = 300


def _summary(data: dict[str, Any]) -> str:
    """Up to eight scalar fields, by key name: PostgreSQL's jsonb does not keep the order
    the data was written in, so the order is made, not inherited."""
    parts = []
    for key, value in sorted((data or {}).items()):
        if isinstance(value, dict | list):
            continue
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts[:8])


@campaign_page
def history(request: HttpRequest, member: Membership) -> HttpResponse:
    from campaign.journal_labels import PHASE_WORDS, label, sentence
    from campaign.models import Player
    from campaign.selectors import events_visible_to

    visible = events_visible_to(member)
    kinds = [(k, label(k)) for k in sorted(set(visible.values_list("kind", flat=True)),
                                           key=label)]
    names = dict(Player.objects.filter(campaign=member.campaign)
                 .values_list("pk", "user__username"))
    qs = visible
    turn = request.GET.get("turn", "")
    kind = request.GET.get("kind", "")
    if turn.isdigit():
        qs = qs.filter(turn=int(turn))
    if kind:
        qs = qs.filter(kind=kind)
    events = list(qs.order_by("-id")[:PAGE_SIZE])
    groups: dict[tuple[int, str], list[Any]] = {}
    for e in events:
        e.summary = sentence(e.kind, e.data or {}, names) or _summary(e.data)
        e.label = label(e.kind)
        e.phase_words = PHASE_WORDS.get(e.phase or "", e.phase)
        groups.setdefault((e.turn, e.phase or ""), []).append(e)
    headed = [{"turn": turn, "phase": PHASE_WORDS.get(phase, phase), "events": items,
               "count": f"{len(items)} entr{'y' if len(items) == 1 else 'ies'}"}
              for (turn, phase), items in groups.items()]
    ctx = {"groups": headed, "kinds": kinds,
           "turns": range(member.campaign.turn, -1, -1), "turn": turn, "kind": kind,
           "truncated": len(events) == PAGE_SIZE}
    if is_htmx(request):
        return render_campaign(request, member, "pages/_history_list.html", ctx)
    from campaign.pages.charts import history_charts

    ctx["charts"] = history_charts(member)
    return render_campaign(request, member, "pages/history.html", ctx)
