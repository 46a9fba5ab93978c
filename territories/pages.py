"""Pages of the meta-map: the map picture (the same SVG the API serves, and a PNG),
now or as it stood after any phase, and the umpire's ownership correction. One
territory's page (its 16x16 map, buildings, energy, stock) is the economy's
(`economy.territory_pages`): buildings are its rows, and this app imports none above it.

Reads go through `territories.selectors.territories_for` (what the caller may see).
"""

from __future__ import annotations

import hashlib
import json
from operator import itemgetter
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from campaign.access import Membership
from campaign.models import Player
from campaign.pages.charts import history_charts
from campaign.pages.common import (
    attempt,
    campaign_page,
    optional_int,
    public_page,
    render_campaign,
    require_umpire_page,
)
from campaign.templatetags.pages import label
from territories.models import Territory
from territories.png import meta_map_png
from territories.selectors import static_map, territories_for
from territories.services.corrections import correct_owner
from territories.services.history import moments, owners_at
from territories.svg import geometry_layer_svg, meta_map_page_svg, meta_map_svg

#: The territories table shows this many rows a page (the viewer's own first).
TABLE_ROWS = 100
#: The geometry layers' URLs name the map's version, so a browser keeps them for good.
GEOMETRY_CACHE = "private, max-age=31536000, immutable"
GEOMETRY_LAYERS = ("lines", "labels")


def player_colours(campaign_id: int) -> dict[int, dict[str, str]]:
    return {p.pk: {"color": p.color, "username": p.user.username}
            for p in Player.objects.filter(campaign_id=campaign_id).select_related("user")}


def _map_state(member: Membership, wanted: Any) -> tuple[
        list[dict[str, Any]], dict[int, Any], dict[str, Any] | None, str, int | None]:
    """(territories, players, the history step shown or None, the SVG, the last step)."""
    rows, players, history, last = _map_rows(member, wanted)
    svg = meta_map_svg(campaign_id=member.campaign.pk, campaign_name=member.campaign.name,
                       territories=rows, players=players,
                       viewer=member.player.pk if member.player else None)
    return rows, players, history, svg, last


def _map_rows(member: Membership, wanted: Any) -> tuple[
        list[dict[str, Any]], dict[int, Any], dict[str, Any] | None, int | None]:
    """(territories, players, the history step shown or None, the last step): the map now,
    or (`wanted`, the N-th phase opened) as it stood then."""
    rows = territories_for(member)
    players = player_colours(member.campaign.pk)
    steps = moments(member.campaign)
    at = optional_int(wanted)
    history: dict[str, Any] | None = None
    if at is not None and steps:
        at = max(0, min(at, len(steps) - 1))
        turn, phase = steps[at]
        owners = owners_at(member.campaign, turn, phase)
        viewer = member.player.pk if member.player else None
        for row in rows:  # the past: who held what, nothing of today's holdings
            row["owner"] = owners.get(row["id"])
            row["mine"] = viewer is not None and row["owner"] == viewer
            row["units"] = 0
            row.pop("buildings", None)
        history = {"turn": turn, "phase": phase, "index": at, "count": len(steps),
                   "prev": at - 1 if at > 0 else None,
                   "next": at + 1 if at + 1 < len(steps) else None}
    return rows, players, history, len(steps) - 1 if steps else None


def geometry_version(rows: list[dict[str, Any]]) -> str:
    """A short hash of what the geometry layers draw (names, layout, neighbours): it
    changes when the umpire renames a territory, and so does the layers' URL."""
    text = json.dumps([[t["id"], t["name"], t["x"], t["y"], t["neighbors"]]  # sorted
                       for t in sorted(rows, key=itemgetter("id"))], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _compressed(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """gzip, as a server in front would (with Django's random padding against BREACH)."""
    compressed = GZipMiddleware(lambda r: response).process_response(request, response)
    assert isinstance(compressed, HttpResponse)
    return compressed


@public_page
def meta_map(request: HttpRequest, member: Membership) -> HttpResponse:
    """The meta-map now, or (`?at=N`, the N-th phase opened) as it stood then: owners
    rebuilt from the journal, with previous/next steps through the campaign's history.
    What never changes in play (the lines, and the names of a large map) is drawn from
    geometry layers the browser keeps (`meta_map_geometry`); the table shows a page of
    territories, the viewer's own first, or those whose name holds `?q=`."""
    rows, players, history, last = _map_rows(member, request.GET.get("at"))
    cid = member.campaign.pk
    version = geometry_version(rows)
    layer = reverse("map-geometry", args=[cid, version, "lines"]).removesuffix("lines.svg")
    svg = meta_map_page_svg(campaign_name=member.campaign.name, territories=rows,
                            players=players,
                            viewer=member.player.pk if member.player else None,
                            lines_url=f"{layer}lines.svg", labels_url=f"{layer}labels.svg")
    # One reversal for the page, not one per row (a 5,000-territory map: issue 15).
    base = reverse("territory", args=[cid, 0]).removesuffix("0/")
    query = (request.GET.get("q") or "").strip()[:100]
    shown = [r for r in rows if query.casefold() in r["name"].casefold()] if query else rows
    shown.sort(key=lambda r: (not r["mine"], r["name"]))
    start = max(0, min(optional_int(request.GET.get("from")) or 0,
                       max(0, len(shown) - 1)))
    start -= start % TABLE_ROWS
    page_rows = shown[start:start + TABLE_ROWS]
    for row in page_rows:
        row["owner_info"] = players.get(row["owner"]) if row["owner"] else None
        row["href"] = f"{base}{row['id']}/"

    def link(at: int) -> str:
        keep = {k: v for k, v in (("at", request.GET.get("at")), ("q", query)) if v}
        return "?" + urlencode({**keep, "from": at} if at else keep)

    response = render_campaign(request, member, "pages/map.html", {
        "svg": mark_safe(svg),  # built by territories.svg with every text escaped
        "table_rows": _table_rows(page_rows, linked=not member.spectator),
        "table": {"query": query, "size": TABLE_ROWS, "first": start + 1 if page_rows else 0,
                  "last": start + len(page_rows), "count": len(shown), "all": len(rows),
                  "prev": link(max(0, start - TABLE_ROWS)) if start else None,
                  "next": link(start + TABLE_ROWS)
                  if start + TABLE_ROWS < len(shown) else None},
        "players": players, "history": history, "last_step": last,
        # the history charts beside the map as it stood then (issue 16)
        "charts": _charts(member) if history else []})
    if query:
        # A page reflecting what the URL typed is not compressed: its size must say
        # nothing of the secrets beside it (BREACH). Every other parameter is a number.
        return response
    return _compressed(request, response)


@public_page
def meta_map_geometry(request: HttpRequest, member: Membership, version: str,
                      layer: str) -> HttpResponse:
    """A layer of the meta-map that never changes in play (issue 32): `lines` or `labels`,
    the same for every reader, kept by the browser for good (its URL names the map's
    version; an older version redirects to the current one)."""
    if layer not in GEOMETRY_LAYERS:
        raise Http404("The map has no such layer.")
    rows = static_map(member.campaign)
    current = geometry_version(rows)
    if version != current:
        response: HttpResponse = redirect("map-geometry", member.campaign.pk, current, layer)
        response["Cache-Control"] = "no-cache"
        return response
    etag = f'"{current}-{layer}"'
    if etag in [t.strip().removeprefix("W/")
                for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(geometry_layer_svg(layer=layer, territories=rows),
                                content_type="image/svg+xml; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = GEOMETRY_CACHE
    patch_vary_headers(response, ["Cookie"])
    return _compressed(request, response)


def _table_rows(rows: list[dict[str, Any]], *, linked: bool) -> str:
    """The territories table's rows, every text escaped. Written here rather than in the
    template: a 5,000-territory map's 5,000 rows render in a few milliseconds instead of
    most of the page's time (issue 15)."""
    out = []
    for t in rows:
        name = escape(t["name"])
        cell = f'<a href="{escape(t["href"])}">{name}</a>' if linked else name
        owner = t["owner_info"]
        held = (f'<span class="swatch" style="background:{escape(owner["color"])}" '
                f'aria-hidden="true"></span> {escape(owner["username"])}'
                f'{" (you)" if t["mine"] else ""}' if owner
                else '<span class="muted">unclaimed</span>')
        deposit = t.get("deposit")
        found = (escape(label(deposit["resource"])) + (" (pure)" if deposit.get("pure") else "")
                 if deposit else '<span class="muted">unknown</span>')
        out.append(f'<tr><td>{cell}</td>\n      <td>{held}</td>\n      '
                   f'<td class="num">{t["units"] or ""}</td>\n      <td>{found}</td></tr>')
    return mark_safe("\n".join(out))  # every text above is escaped


def _charts(member: Membership) -> list[Any]:
    return history_charts(member)


@public_page
def meta_map_svg_file(request: HttpRequest, member: Membership) -> HttpResponse:
    """The meta-map (now, or `?at=N`) as an SVG file to keep or post (issue 16)."""
    _rows, _players, history, svg, _last = _map_state(member, request.GET.get("at"))
    when = f"turn-{history['turn']}-{history['phase']}" if history else "now"
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="campaign-{member.campaign.pk}-map-{when}.svg"')
    return response


@public_page
def meta_map_png_file(request: HttpRequest, member: Membership) -> HttpResponse:
    """The meta-map (now, or `?at=N`) as a PNG picture, which forums and Discord show
    inline (issue 16): the same rows as the SVG, so the same secrecy."""
    rows, players, history, _last = _map_rows(member, request.GET.get("at"))
    if history:
        caption = f"turn {history['turn']}, {history['phase']} phase"
        when = f"turn-{history['turn']}-{history['phase']}"
    else:
        campaign = member.campaign
        caption = (f"turn {campaign.turn}, {campaign.phase} phase" if campaign.turn
                   else "before the start")
        when = "now"
    png = meta_map_png(campaign_name=member.campaign.name, caption=caption, territories=rows,
                       players=players)
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = (
        f'attachment; filename="campaign-{member.campaign.pk}-map-{when}.png"')
    return response


def ownership_panel(member: Membership) -> dict[str, Any]:
    """Umpire console panel (connected in territories/connections.py): the territories
    whose holder the umpire may correct."""
    return {"ownership_rows": list(Territory.objects.filter(campaign=member.campaign)
                                   .order_by("name").values("pk", "name",
                                                            "owner__user__username"))}


@require_POST
@campaign_page
def ownership(request: HttpRequest, member: Membership) -> HttpResponse:
    """The umpire gives a territory to another player, or to nobody (issue 17)."""
    require_umpire_page(member)
    attempt(request, lambda: correct_owner(
        campaign=member.campaign, territory_id=request.POST.get("territory", ""),
        player_id=request.POST.get("player", ""), reason=request.POST.get("reason", ""),
        by=request.user.get_username()),
        success="Ownership corrected; the journal says who did it and why.")
    return redirect("umpire-correct", member.campaign.pk)
