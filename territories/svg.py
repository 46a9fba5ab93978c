"""Pictures of the meta-map and of a territorial map, as SVG text.

They read the stored layout (Territory.x/y) and never lay the map out again; the
caller passes the rows it may see (from `territories.selectors.territories_for`), so
a picture costs the same few queries as the JSON listing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from campaign.rules import BUILDINGS, GRID_SIZE

SIZE = 1000
UNOWNED = "#e4e4e4"
#: The smallest tap target of a territory, in map units (the page draws the map at least
#: SIZE CSS px wide on a phone, so 48 units are 48 px or more: WCAG's 44 px and a margin).
HIT = 48


def meta_map_svg(*, campaign_id: int, campaign_name: str, territories: list[dict[str, Any]],
                 players: dict[int, dict[str, str]], viewer: int | None) -> str:
    """The meta-map: adjacency lines, one circle per territory in its owner's colour,
    the viewer's holdings outlined and its units counted; each territory links to its
    page and carries a <title> for screen readers and tooltips."""
    n = max(1, len(territories))
    radius = dot_radius(n)
    labels = n <= INLINE_LABELS
    pos = {t["id"]: (t["x"] * SIZE, t["y"] * SIZE) for t in territories}
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
        f'role="img" aria-labelledby="map-title" font-family="sans-serif">',
        f'<title id="map-title">Meta-map of {escape(campaign_name)}: {len(territories)} '
        f'territories</title>',
        f'<rect width="{SIZE}" height="{SIZE}" fill="#fbfbf8"/>',
        '<g stroke="#9a9a9a" stroke-width="1.2" aria-hidden="true">',
    ]
    out.extend(_lines(territories, pos))
    out.append("</g>")
    for t in territories:
        x, y = pos[t["id"]]
        owner = players.get(t["owner"]) if t["owner"] else None
        fill = owner["color"] if owner else UNOWNED
        mine = viewer is not None and t["owner"] == viewer
        owner_text = f"held by {owner['username']}" if owner else "unclaimed"
        if mine:
            owner_text = "yours"
        title = f"{t['name']} ({owner_text})"
        if t.get("units"):
            title += f", {t['units']} of your units" if viewer is not None else \
                f", {t['units']} units"
        href = f"/campaigns/{campaign_id}/territories/{t['id']}/"
        stroke = ' stroke="#111" stroke-width="3"' if mine else ' stroke="#555" stroke-width="1"'
        # the tap target: at least HIT units across, however small the dot (a map
        # drawn at least SIZE CSS px wide on a phone: 44 px for a finger)
        hit = max(radius, HIT / 2)
        out.append(f'<a href={quoteattr(href)} class="territory" data-territory="{t["id"]}"'
                   f'{" data-mine" if mine else ""}>'
                   f"<title>{escape(title)}</title>"
                   f'<rect class="hit" x="{x - hit:.1f}" y="{y - hit:.1f}" '
                   f'width="{2 * hit:.1f}" height="{2 * hit:.1f}" rx="{hit:.1f}" '
                   'fill="transparent"/>'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" '
                   f'fill={quoteattr(fill)}{stroke}/>')
        if t.get("units"):
            side = max(15.0, radius * 0.8)  # its count at least 12 units high
            out.append(f'<rect x="{x + radius * 0.5:.1f}" y="{y - radius * 1.2:.1f}" '
                       f'width="{side:.1f}" height="{side:.1f}" fill="#111"/>'
                       f'<text x="{x + radius * 0.5 + side / 2:.1f}" '
                       f'y="{y - radius * 1.2 + side * 0.8:.1f}" font-size="{side * 0.8:.1f}" '
                       f'fill="#fff" text-anchor="middle">{t["units"]}</text>')
        if labels:
            out.append(_label(t["name"], x, y + radius + 12, 12))
        out.append("</a>")
    out.append("</svg>")
    return "\n".join(out)


def _lines(territories: list[dict[str, Any]],
           pos: dict[int, tuple[float, float]]) -> list[str]:
    """One line per adjacency, drawn once (from the territory with the smaller id)."""
    out = []
    for t in territories:
        x1, y1 = pos[t["id"]]
        for other in t["neighbors"]:
            if other > t["id"] and other in pos:
                x2, y2 = pos[other]
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    return out


def _label(name: str, x: float, y: float, size: float) -> str:
    # outlined text: readable over any owner's colour and over the lines
    return (f'<text class="label" x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" '
            f'text-anchor="middle" fill="#111" stroke="#fff" stroke-width="{size / 4:g}" '
            f'paint-order="stroke">{escape(name)}</text>')


def dot_radius(n: int) -> float:
    return max(3.0, min(26.0, 320 / math.sqrt(max(1, n))))


#: Maps up to this many territories write their names on the page itself (readable at
#: every zoom, scripts or not); larger ones in a layer of their own shown by zoom level.
INLINE_LABELS = 150


def label_size(n: int) -> float:
    """The names' font size in map units: 12 on a small map; on a large one as big as the
    space between two territories allows a name of about ten letters (a sixth of it), so
    neighbours' names do not run into each other at any zoom; the page shows them once
    zoomed in enough to read them."""
    return 12.0 if n <= INLINE_LABELS else round(max(1.0, min(12.0, SIZE / math.sqrt(n) / 6)), 1)


def geometry_layer_svg(*, layer: str, territories: list[dict[str, Any]]) -> str:
    """A layer of the meta-map that does not change in play (the same for every reader,
    from `territories.selectors.static_map`): `lines` (adjacencies) or `labels` (names).
    The page shows it as a picture its browser keeps (issue 32)."""
    n = max(1, len(territories))
    pos = {t["id"]: (t["x"] * SIZE, t["y"] * SIZE) for t in territories}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
           f'width="{SIZE}" height="{SIZE}" font-family="sans-serif">']
    if layer == "lines":
        out.append('<g stroke="#9a9a9a" stroke-width="1.2">')
        out.extend(_lines(territories, pos))
        out.append("</g>")
    else:
        radius, size = dot_radius(n), label_size(n)
        out.extend(_label(t["name"], pos[t["id"]][0], pos[t["id"]][1] + radius + size, size)
                   for t in territories)
    out.append("</svg>")
    return "\n".join(out)


def meta_map_page_svg(*, campaign_name: str, territories: list[dict[str, Any]],
                      players: dict[int, dict[str, str]], viewer: int | None,
                      lines_url: str, labels_url: str) -> str:
    """The meta-map as the page draws it (issue 32): the adjacency lines (and, on a large
    map, the names) are pictures the browser keeps (`lines_url`, `labels_url`: immutable
    URLs keyed by the map's version); the page carries only what changes in play, one
    link per territory with its owner's colour and the viewer's units. Links are relative
    to the map page (`../territories/<id>/`)."""
    n = max(1, len(territories))
    radius = dot_radius(n)
    inline_labels = n <= INLINE_LABELS
    hit = max(radius, HIT / 2)
    fills = {pk: quoteattr(p["color"]) for pk, p in players.items()}
    unowned = quoteattr(UNOWNED)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
        f'role="img" aria-labelledby="map-title" font-family="sans-serif" '
        f'data-label-size="{label_size(n):g}">',
        f'<title id="map-title">Meta-map of {escape(campaign_name)}: {len(territories)} '
        f'territories</title>',
        f'<defs><rect id="hit" x="{-hit:.1f}" y="{-hit:.1f}" width="{2 * hit:.1f}" '
        f'height="{2 * hit:.1f}" rx="{hit:.1f}" fill="transparent"/></defs>',
        f'<rect width="{SIZE}" height="{SIZE}" fill="#fbfbf8"/>',
        f'<image href={quoteattr(lines_url)} data-geometry={quoteattr(lines_url)} '
        f'width="{SIZE}" height="{SIZE}" aria-hidden="true"/>',
        '<g stroke="#555" stroke-width="1">',
    ]
    for t in territories:
        x, y = t["x"] * SIZE, t["y"] * SIZE
        owner = players.get(t["owner"]) if t["owner"] else None
        mine = viewer is not None and t["owner"] == viewer
        title = t["name"] + (" (yours)" if mine else f" (held by {owner['username']})"
                             if owner else " (unclaimed)")
        if t.get("units"):
            title += f", {t['units']} of your units" if viewer is not None else \
                f", {t['units']} units"
        stroke = ' stroke="#111" stroke-width="3"' if mine else ""
        out.append(f'<a href="../territories/{t["id"]}/" data-territory="{t["id"]}"'
                   f'{" data-mine" if mine else ""}><title>{escape(title)}</title>'
                   f'<use href="#hit" class="hit" x="{x:.1f}" y="{y:.1f}"/>'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" '
                   f'fill={fills.get(t["owner"], unowned)}{stroke}/>')
        if t.get("units"):
            side = max(15.0, radius * 0.8)
            out.append(f'<rect x="{x + radius * 0.5:.1f}" y="{y - radius * 1.2:.1f}" '
                       f'width="{side:.1f}" height="{side:.1f}" fill="#111" stroke="none"/>'
                       f'<text x="{x + radius * 0.5 + side / 2:.1f}" '
                       f'y="{y - radius * 1.2 + side * 0.8:.1f}" font-size="{side * 0.8:.1f}" '
                       f'fill="#fff" stroke="none" text-anchor="middle">{t["units"]}</text>')
        if inline_labels:
            out.append(_label(t["name"], x, y + radius + 12, 12))
        out.append("</a>")
    out.append("</g>")
    if not inline_labels:
        # the names, shown by the page's script once zoomed in enough to read them
        out.append(f'<image class="map-labels" data-labels={quoteattr(labels_url)} '
                   f'width="{SIZE}" height="{SIZE}" visibility="hidden" aria-hidden="true"/>')
    out.append("</svg>")
    return "\n".join(out)


def territory_map_svg(*, name: str, buildings: Iterable[dict[str, Any]] | None) -> str:
    """The 16x16 territorial map; `buildings` is None when the viewer may not see them."""
    cell = 40
    size = GRID_SIZE * cell
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" '
        f'aria-labelledby="grid-title" font-family="sans-serif">',
        f'<title id="grid-title">Territorial map of {escape(name)}</title>',
        f'<rect width="{size}" height="{size}" fill="#f3f0e6"/>',
        '<g stroke="#c9c3b0" stroke-width="1" aria-hidden="true">',
    ]
    for i in range(GRID_SIZE + 1):
        out.append(f'<line x1="{i * cell}" y1="0" x2="{i * cell}" y2="{size}"/>'
                   f'<line x1="0" y1="{i * cell}" x2="{size}" y2="{i * cell}"/>')
    out.append("</g>")
    if buildings is None:
        out.append(f'<text x="{size / 2}" y="{size / 2}" font-size="20" text-anchor="middle" '
                   'fill="#555">Buildings are known to the owner only</text>')
    else:
        for b in buildings:
            spec = BUILDINGS.get(b["kind"])
            label = spec.name if spec else b["kind"]
            state = "active" if b["active"] else "inactive"
            initials = "".join(w[0] for w in label.split()[:2]).upper()
            fill = "#2563b0" if b["active"] else "#5f6b7a"  # white text >= 4.5:1
            x, y = b["x"] * cell, b["y"] * cell
            out.append(f'<g data-building="{b["id"]}"><title>{escape(label)} at ({b["x"]}, '
                       f'{b["y"]}), {state}, {b["hit_points"]} hit points</title>'
                       f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" '
                       f'rx="4" fill="{fill}"/><text x="{x + cell / 2}" y="{y + cell / 2 + 5}" '
                       f'font-size="14" text-anchor="middle" fill="#fff">{escape(initials)}'
                       "</text></g>")
    out.append("</svg>")
    return "\n".join(out)
