"""Draw any ruleset's board replay: one frame of a `Board` as an accessible SVG.

Pure Python (no Django), read by the battle report page. Each ruleset folds its own
battle log into a `Board` (`Ruleset.board`: the battlefield's shape, a frame per step,
every unit's position in the board's own units); this module draws every ruleset's
board the same way, whatever its grid: squares, hexes or an axis between the lines.

Labels are placed so no two overlap: each label tries the places around its unit
(above, below, right, left, then further out) and takes the first whose box (its width
estimated from the text, generously) crosses no label already placed; a label put away
from its unit gets a thin line back to it. The page's script checks the measured boxes
once more in the browser.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

from battles.rulesets.base import Board, Frame, Marker, Point

__all__ = ["Frame", "Marker", "board_svg"]

#: SVG units the longer side of a board is drawn in.
BOARD_SPAN = 320.0
FONT = 10.0
#: Estimated width of one character of the label font, in font sizes (generous: the
#: widest sans-serif fonts run near 0.6; the box must hold the real text).
CHAR_EM = 0.66
RADIUS = 8.0

TERRAIN_FILL = {
    "woods": "#b9d3a8", "green": "#c6dcb4", "ruins": "#d4c5b5", "building": "#b8b0a6",
    "hill": "#e0cf9e", "tan": "#e8d9b5", "white": "#fafafa", "red": "#e9b9b0",
    "blue": "#b9d2e9", "water": "#b9d2e9", "black": "#9a9a9a", "grey": "#efede6",
    "soft": "#e3dcc8", "hard": "#cfc8b4", "moderate": "#e3dcc8", "open": "#f6f4ee",
}

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Canvas:
    """Board units to SVG units: one scale, y flipped for boards whose y runs north."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.scale = BOARD_SPAN / max(board.width, board.height, 1e-6)
        self.lo = -board.margin * self.scale
        self.w = (board.width + 2 * board.margin) * self.scale
        self.h = (board.height + 2 * board.margin) * self.scale

    def xy(self, p: Point) -> tuple[float, float]:
        b = self.board
        x = min(max(p[0], -b.margin), b.width + b.margin)
        y = min(max(p[1], -b.margin), b.height + b.margin)
        return (x * self.scale, ((b.height - y) if b.y_up else y) * self.scale)


def _ground(c: _Canvas, out: list[str]) -> None:
    b, s = c.board, c.scale
    size_w, size_h = b.width * s, b.height * s
    out.append(f'<rect x="{c.lo:.0f}" y="{c.lo:.0f}" width="{c.w:.0f}" height="{c.h:.0f}" '
               'fill="#d9d4c7"/>')
    out.append(f'<rect x="0" y="0" width="{size_w:.0f}" height="{size_h:.0f}" '
               'fill="#f6f4ee" stroke="#555" stroke-width="1.5"/>')
    if b.grid == "square" and b.cell:
        step = b.cell * s
        out.append('<g stroke="#d0ccc0" stroke-width="0.6" aria-hidden="true">')
        for i in range(1, round(b.width / b.cell)):
            out.append(f'<line x1="{i * step:.0f}" y1="0" x2="{i * step:.0f}" '
                       f'y2="{size_h:.0f}"/>')
        for i in range(1, round(b.height / b.cell)):
            out.append(f'<line x1="0" y1="{i * step:.0f}" x2="{size_w:.0f}" '
                       f'y2="{i * step:.0f}"/>')
        out.append("</g>")
    elif b.grid == "hex":
        r = b.cell * s
        out.append('<g class="cells" stroke="#c9c4b6" stroke-width="0.8" aria-hidden="true">')
        for cell in b.cells:
            x, y = c.xy((cell.x, cell.y))
            pts = " ".join(f"{x + r * math.cos(math.radians(30 + 60 * k)):.1f},"
                           f"{y + r * math.sin(math.radians(30 + 60 * k)):.1f}"
                           for k in range(6))
            fill = TERRAIN_FILL.get(cell.terrain, "#f6f4ee")
            out.append(f'<polygon points="{pts}" fill="{fill}"/>')
        out.append("</g>")
    elif b.grid == "axis":
        out.append('<g stroke="#555" stroke-width="1" aria-hidden="true">')
        for x in (0.0, b.width):
            out.append(f'<line x1="{x * s:.1f}" y1="0" x2="{x * s:.1f}" y2="{size_h:.0f}" '
                       'stroke-width="2"/>')
        tick = 6.0
        for i in range(1, int(b.width // tick) + 1):
            if i * tick < b.width:
                out.append(f'<line x1="{i * tick * s:.1f}" y1="0" x2="{i * tick * s:.1f}" '
                           f'y2="{size_h:.0f}" stroke="#d0ccc0" stroke-dasharray="3 3"/>')
        out.append("</g>")


def _caption(c: _Canvas, out: list[str]) -> Box | None:
    """The name of the strip around the board (or of the axis), in the strip's bottom
    left corner; its box, so no unit's label is put over it."""
    b = c.board
    caption = b.margin_label or b.axis_label
    if not caption:
        return None
    x, y = c.lo + 3, c.lo + c.h - 4
    out.append(f'<text class="label caption" x="{x:.0f}" y="{y:.0f}" font-size="{FONT:.0f}" '
               f'fill="#333" aria-hidden="true">{escape(caption)}</text>')
    return (x, y - FONT * 1.05, x + len(caption) * FONT * CHAR_EM + 4, y - FONT * 1.05
            + FONT * 1.3)


def _place(text: str, x: float, y: float, placed: list[Box], dots: list[Box],
           bounds: Box) -> tuple[float, float, Box]:
    """Where the label of the unit at (x, y) goes: its text anchor (middle, baseline)
    and its box, clear of every label in `placed` (and of the units, if it can be)."""
    w = len(text) * FONT * CHAR_EM + 4
    h = FONT * 1.3
    around = [(0.0, -11.0), (0.0, 20.0), (w / 2 + 11, 4.0), (-(w / 2 + 11), 4.0)]
    for k in range(1, 12):
        step = k * (h + 1)
        around += [(0.0, -11.0 - step), (0.0, 20.0 + step),
                   (w / 2 + 11, 4.0 - step), (-(w / 2 + 11), 4.0 + step)]

    def box(dx: float, dy: float) -> Box:
        cx = min(max(x + dx, bounds[0] + w / 2), bounds[2] - w / 2)
        base = min(max(y + dy, bounds[1] + h), bounds[3])
        return (cx - w / 2, base - FONT * 1.05, cx + w / 2, base - FONT * 1.05 + h)

    for avoid_units in (True, False):
        for dx, dy in around:
            b = box(dx, dy)
            if any(_overlaps(b, p) for p in placed):
                continue
            if avoid_units and any(_overlaps(b, d) for d in dots):
                continue
            return (b[0] + b[2]) / 2, b[1] + FONT * 1.05, b
    b = box(*around[-1])
    return (b[0] + b[2]) / 2, b[1] + FONT * 1.05, b


def board_svg(board: Board, frame: Frame, *, title: str, side_colors: Mapping[str, str],
              unit_labels: Mapping[str, str], building_labels: Mapping[str, str]) -> str:
    """One frame of `board`: its ground (squares, hexes or the axis), the buildings, the
    step's moves (arrows) and attacks (dashed lines), every unit still on the field with
    its label. Every marker has a <title>."""
    c = _Canvas(board)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{c.lo:.0f} {c.lo:.0f} {c.w:.0f} '
        f'{c.h:.0f}" role="img" aria-labelledby="field-title" class="battlefield" '
        f'data-grid="{board.grid}" font-family="sans-serif">',
        f'<title id="field-title">{escape(title)}</title>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#111"/></marker></defs>',
    ]
    _ground(c, out)
    cell = (board.cell or 2.0) * c.scale
    for bid, b in frame.buildings.items():
        x, y = c.xy(b.pos)
        label = building_labels.get(bid, f"building {bid}")
        state = " (destroyed)" if b.state == "destroyed" else ""
        fill = "#bbb" if b.state == "destroyed" else "#6b6b6b"
        out.append(f'<g class="building"><title>{escape(label + state)}</title>'
                   f'<rect x="{x - cell / 2:.1f}" y="{y - cell / 2:.1f}" width="{cell:.0f}" '
                   f'height="{cell:.0f}" fill="{fill}" stroke="#222"/></g>')
    for _, a, to in frame.moves:
        (x1, y1), (x2, y2) = c.xy(a), c.xy(to)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   'stroke="#111" stroke-width="1.5" marker-end="url(#arrow)" '
                   'aria-hidden="true"/>')
    for a, to in frame.attacks:
        (x1, y1), (x2, y2) = c.xy(a), c.xy(to)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   'stroke="#b00020" stroke-width="1.5" stroke-dasharray="5 3" '
                   'aria-hidden="true"/>')
    shown = [(uid, u) for uid, u in frame.units.items() if u.state != "retreated"]
    spots = {uid: c.xy(u.pos) for uid, u in shown}
    dots = [(x - RADIUS - 1, y - RADIUS - 1, x + RADIUS + 1, y + RADIUS + 1)
            for x, y in spots.values()]
    bounds = (c.lo, c.lo, c.lo + c.w, c.lo + c.h)
    caption = _caption(c, out)
    placed: list[Box] = [caption] if caption else []
    for uid, u in shown:
        x, y = spots[uid]
        label = unit_labels.get(uid, f"unit {uid}")
        color = side_colors.get(u.side, "#888")
        if u.state == "destroyed":
            out.append(f'<g class="unit destroyed" data-unit={quoteattr(uid)}><title>'
                       f'{escape(label)} (destroyed)</title>'
                       f'<path d="M{x - 6:.1f},{y - 6:.1f} L{x + 6:.1f},{y + 6:.1f} '
                       f'M{x - 6:.1f},{y + 6:.1f} L{x + 6:.1f},{y - 6:.1f}" stroke="#111" '
                       'stroke-width="3"/></g>')
            continue
        roles = [r for r, ids in (("actor", frame.actors), ("target", frame.targets))
                 if uid in ids]
        hp = f" · {u.hp} HP" if u.hp is not None else ""
        ring = ""
        if "actor" in roles:  # the unit acting this turn: a thick gold ring
            ring += (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="none" '
                     'stroke="#c98a00" stroke-width="3"/>')
        if "target" in roles:  # the unit attacked: a dashed red ring
            ring += (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="15" fill="none" '
                     'stroke="#b00020" stroke-width="2" stroke-dasharray="4 2"/>')
        role_words = "".join(f", {r}" for r in roles)
        where = (f"{u.pos[0]:g} {board.unit} along the table" if board.grid == "axis"
                 else f'({u.pos[0]:.1f}", {u.pos[1]:.1f}")' if board.unit == "inch"
                 else f"({u.pos[0]:.1f}, {u.pos[1]:.1f})")
        text = label + hp
        tx, ty, box = _place(text, x, y, placed, dots, bounds)
        placed.append(box)
        leader = ""
        if math.hypot(tx - x, (box[1] + box[3]) / 2 - y) > 24:  # away from its unit
            ex = min(max(x, box[0]), box[2])
            ey = box[3] if box[3] < y else box[1]
            leader = (f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
                      'stroke="#555" stroke-width="0.8" aria-hidden="true"/>')
        out.append(f'<g class={quoteattr(" ".join(["unit", *roles]))} '
                   f'data-unit={quoteattr(uid)}><title>{escape(label)}{escape(hp)} at '
                   f'{escape(where)}{escape(role_words)}</title>{ring}{leader}'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS:.0f}" '
                   f'fill={quoteattr(color)} stroke="#111" stroke-width="2"/>'
                   f'<text class="label" x="{tx:.1f}" y="{ty:.1f}" font-size="{FONT:.0f}" '
                   'text-anchor="middle" fill="#111" stroke="#fff" stroke-width="3" '
                   f'paint-order="stroke">{escape(text)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)

