"""The history page: the journal by turn, filtered by turn and kind, showing only
what the viewer may read (`campaign.selectors.events_visible_to`, the one place that
decides it)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse

from campaign.access import Membership
from campaign.errors import InvalidInput
from campaign.journal_labels import PHASE_WORDS, label, read_entries
from campaign.models import Player
from campaign.pages.charts import history_charts
from campaign.pages.common import is_htmx, public_page, render_campaign
from campaign.pagination import decode_cursor, encode_cursor
from campaign.selectors import events_visible_to

PAGE_SIZE = 100


@public_page
def history(request: HttpRequest, member: Membership) -> HttpResponse:
    visible = events_visible_to(member)
    kinds = [(k, label(k)) for k in sorted(set(visible.values_list("kind", flat=True)),
                                           key=label)]
    names = dict(Player.objects.filter(campaign=member.campaign)
                 .values_list("pk", "user__username"))
    qs = visible
    turn = request.GET.get("turn", "")
    kind = request.GET.get("kind", "")
    phase = request.GET.get("phase", "")
    who = request.GET.get("player", "")
    where = request.GET.get("territory", "")
    page = request.GET.get("page", "")
    number = int(page) if page.isdigit() and len(page) < 6 else 1
    if turn.isdigit():
        qs = qs.filter(turn=int(turn))
    if kind:
        qs = qs.filter(kind=kind)
    if phase and phase in PHASE_WORDS:
        qs = qs.filter(phase=phase)
    if who.isdigit() and int(who) in names:
        # entries about that player: as the actor or a side (the journal's own keys)

        pid = int(who)
        qs = qs.filter(Q(data__player=pid) | Q(data__winner=pid) | Q(data__attacker=pid)
                       | Q(data__defender=pid) | Q(data__from_player=pid)
                       | Q(data__to_player=pid))
    if where.isdigit() and len(where) < 19:
        tid = int(where)
        qs = qs.filter(Q(data__territory=tid) | Q(data__destination=tid)
                       | Q(data__origin=tid))
    # The newest first, a page at a time, from a stable cursor (issue 15): `before` /
    # `after` name an entry by the random id the reader was shown, so entries written
    # meanwhile do not shift the pages. A cursor of an entry the reader may not see is
    # ignored like a made-up one (the first page). `page=N` (older links) still works;
    # its pages count only entries the reader may see (R-SEC-1).
    events, has_older, has_newer = _history_page(request, visible, qs, number)
    groups: dict[tuple[int, str], list[Any]] = {}
    read_entries(member.campaign.pk, events)
    for e in events:
        e.phase_words = PHASE_WORDS.get(e.phase or "", e.phase)
        groups.setdefault((e.turn, e.phase or ""), []).append(e)
    headed = [{"turn": turn, "phase": PHASE_WORDS.get(phase, phase), "events": items,
               "count": f"{len(items)} entr{'y' if len(items) == 1 else 'ies'}"}
              for (turn, phase), items in groups.items()]
    query = request.GET.copy()
    for key in ("page", "before", "after"):
        query.pop(key, None)
    prefix = query.urlencode() + "&" if query else ""
    ctx = {"groups": headed, "kinds": kinds,
           "turns": range(member.campaign.turn, -1, -1), "turn": turn, "kind": kind,
           "phase": phase, "phases": [(k, v) for k, v in PHASE_WORDS.items() if k],
           "who": who,
           "names": sorted(names.items(), key=lambda kv: kv[1]),
           "older": (f"?{prefix}before={encode_cursor('event', events[-1].public_id)}"
                     if has_older and events else None),
           "newer": (f"?{prefix}after={encode_cursor('event', events[0].public_id)}"
                     if has_newer and events else None)}
    if is_htmx(request):
        return render_campaign(request, member, "pages/_history_list.html", ctx)

    ctx["charts"] = history_charts(member)
    return render_campaign(request, member, "pages/history.html", ctx)


def _history_page(request: HttpRequest, visible: Any, qs: Any, number: int
                  ) -> tuple[list[Any], bool, bool]:
    """(the page's entries, newest first; are there older ones; newer ones)."""
    for direction in ("before", "after"):
        cursor = request.GET.get(direction)
        if not cursor:
            continue
        try:
            key = decode_cursor("event", cursor)
        except InvalidInput:
            break
        row = visible.filter(public_id=key).only("id").first()
        if row is None:
            break
        if direction == "before":
            page = list(qs.filter(id__lt=row.id).order_by("-id")[:PAGE_SIZE + 1])
            return page[:PAGE_SIZE], len(page) > PAGE_SIZE, True
        page = list(qs.filter(id__gt=row.id).order_by("id")[:PAGE_SIZE + 1])
        return list(reversed(page[:PAGE_SIZE])), True, len(page) > PAGE_SIZE
    start = (max(1, number) - 1) * PAGE_SIZE
    page = list(qs.order_by("-id")[start:start + PAGE_SIZE + 1])
    return page[:PAGE_SIZE], len(page) > PAGE_SIZE, number > 1


@public_page
def turn_markdown(request: HttpRequest, member: Membership, turn: int) -> HttpResponse:
    """One turn of the journal as Markdown a league pastes into its forum or Discord
    (issue 16): phase by phase, in sentences with names, only what the reader may see."""
    events = list(events_visible_to(member).filter(turn=turn).exclude(
        kind__in=("dice_committed", "dice_revealed")))
    if not events:
        raise Http404("Nothing recorded in that turn.")
    lines = [f"## {member.campaign.name}, turn {turn}", ""]
    phase = None
    for e, read in zip(events, read_entries(member.campaign.pk, events), strict=True):
        if e.phase != phase:
            phase = e.phase
            lines += ["", f"### {PHASE_WORDS.get(phase or '', phase).capitalize()}", ""]
        lines.append(f"- **{read.label}**: {read.summary}")
    body = "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"
    return HttpResponse(body, content_type="text/markdown; charset=utf-8")
