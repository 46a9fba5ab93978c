"""The meta-map as a PNG picture, for a league's forum or Discord (which show a PNG
inline but not an SVG). Drawn with Pillow from the same rows as `territories.svg`
(`territories.selectors.territories_for`, or the owners of a past phase), so it shows
exactly what the reader may see and costs no extra query.

Pillow rather than rasterising the SVG: cairosvg needs the system's cairo library, which
`make run` cannot install; Pillow's wheels carry everything they need (FreeType included).
"""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from territories.svg import UNOWNED

#: pixels of the square map area; the legend is drawn below it
SIZE = 1000
MARGIN = 24
LEGEND_ROW = 26
#: the legend's entries in one column up to this many, else in up to LEGEND_COLUMNS columns
LEGEND_SHORT = 12
LEGEND_COLUMNS = 4
BACKGROUND = "#fbfbf8"


TOP = MARGIN + 40  # below the title


def disc_radius(count: int) -> float:
    """The radius of a territory's disc on a map of `count` territories (as the SVG's)."""
    return max(3.0, min(26.0, 320 / math.sqrt(max(1, count))))


def centre(territory: dict[str, Any], count: int) -> tuple[float, float]:
    """Where a territory's disc is drawn (its stored layout, kept inside the picture with
    room for its name)."""
    pad = disc_radius(count) + 14
    inner = SIZE - 2 * pad
    return (MARGIN + pad + territory["x"] * inner, TOP + pad + territory["y"] * inner)


def legend_rows(entries: int) -> int:
    """Rows of the legend: one column up to `LEGEND_SHORT` entries, then up to
    `LEGEND_COLUMNS` side by side, so a 125-player league's picture stays about as tall as
    its map (and a web worker does not hold a 4,000-pixel-tall image to draw it)."""
    if entries <= LEGEND_SHORT:
        return entries
    return max(LEGEND_SHORT, -(-entries // LEGEND_COLUMNS))


def _fit(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, room: float) -> str:
    """`text`, its name cut short with an ellipsis when it is wider than `room` pixels
    (the count in brackets at its end is kept)."""
    if font.getlength(text) <= room:
        return text
    name, _, count = text.rpartition(" (")
    while name and font.getlength(f"{name}… ({count}") > room:
        name = name[:-1]
    return f"{name}… ({count}"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def meta_map_png(*, campaign_name: str, caption: str, territories: list[dict[str, Any]],
                 players: dict[int, dict[str, str]]) -> bytes:
    """The meta-map: adjacency lines, one disc per territory in its owner's colour, names
    when the map is small enough to read them, a title (`campaign_name`, `caption`) and a
    legend of the players' colours with how many territories each holds in the picture."""
    n = len(territories)
    radius = disc_radius(n)
    labels = n <= 150
    held: dict[int, int] = {}
    for t in territories:
        if t["owner"]:
            held[t["owner"]] = held.get(t["owner"], 0) + 1
    legend = [(players[p], held.get(p, 0)) for p in sorted(players)]
    per_column = legend_rows(1 + len(legend))  # the "unclaimed" entry first
    height = TOP + SIZE + MARGIN + per_column * LEGEND_ROW + MARGIN
    image = Image.new("RGB", (SIZE + 2 * MARGIN, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), f"{campaign_name} - {caption}", fill="#111", font=_font(22))

    pos = {t["id"]: centre(t, n) for t in territories}
    for t in territories:
        for other in t["neighbors"]:
            if other > t["id"] and other in pos:
                draw.line([pos[t["id"]], pos[other]], fill="#9a9a9a", width=2)
    name_font = _font(12)
    for t in territories:
        x, y = pos[t["id"]]
        owner = players.get(t["owner"]) if t["owner"] else None
        fill = owner["color"] if owner else UNOWNED
        outline = "#111" if t.get("mine") else "#555"
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=fill,
                     outline=outline, width=3 if t.get("mine") else 1)
        if labels:
            draw.text((x, y + radius + 2), t["name"], fill="#111", font=name_font, anchor="ma",
                      stroke_width=2, stroke_fill="#ffffff")
    legend_font = _font(16)
    unclaimed = len(territories) - sum(held.values())
    entries = [(UNOWNED, f"unclaimed ({unclaimed})")] + [
        (p["color"], f"{p['username']} ({count})") for p, count in legend]
    width = SIZE // LEGEND_COLUMNS if len(entries) > per_column else SIZE
    for index, (colour, text) in enumerate(entries):
        x = MARGIN + (index // per_column) * width
        y = TOP + SIZE + MARGIN + (index % per_column) * LEGEND_ROW
        draw.rectangle([x, y + 3, x + 18, y + 21], fill=colour, outline="#555")
        draw.text((x + 28, y + 3), _fit(text, legend_font, width - 36), fill="#111",
                  font=legend_font)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
