"""Replay a finished battle's log on the territorial map, one engine turn at a time.

Pure Python (no Django), read by the battle report page. The engine's log already
holds every position: the `deploy` entry gives each unit's and building's starting
point (inches; the 32"x32" map of 16x16 two-inch squares, with the 4" retreat corridor
around it, see the engine's `geometry`), `move`, `assault` and `warp` carry the
destination, `ram` the distance run toward its target; `retreat`/`withdraw` take a unit
off the field and `damage` says when a unit or building is destroyed. A failed warp
(its roll's effects hold `no_warp`) leaves the unit where it was.

`frames(log)` folds the log into one frame per engine turn (frame 0 is the deployment);
`battlefield_svg(frame, ...)` draws one frame as an accessible SVG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from battles.rulesets.unlimit3d8.engine.geometry import CORRIDOR, MAP_SIZE, SQUARE

Point = tuple[float, float]
MOVES_WITH_TO = ("move", "assault", "warp")
ATTACKS = ("ranged_attack", "close_combat", "ram", "tackle", "piracy", "repair")


@dataclass
class Marker:
    id: str
    pos: Point
    side: str = ""
    state: str = "active"  # active, destroyed, retreated
    hp: int | None = None  # hit points left, once the unit has taken damage


@dataclass
class Frame:
    turn: int
    round: int
    side: str
    units: dict[str, Marker]
    buildings: dict[str, Marker]
    moves: list[tuple[str, Point, Point]] = field(default_factory=list)
    attacks: list[tuple[Point, Point]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    #: Who acted and who was attacked in this turn (highlighted on the map).
    actors: set[str] = field(default_factory=set)
    targets: set[str] = field(default_factory=set)


def _pt(value: Any) -> Point | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        try:
            return (float(value[0]), float(value[1]))
        except (TypeError, ValueError):
            return None
    return None


def _toward(a: Point, b: Point, dist: float) -> Point:
    d = math.hypot(b[0] - a[0], b[1] - a[1])
    if d <= dist or d == 0:
        return b
    f = dist / d
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def _copy(markers: dict[str, Marker]) -> dict[str, Marker]:
    return {k: Marker(m.id, m.pos, m.side, m.state, m.hp) for k, m in markers.items()}


def frames(log: list[Any], unit_sides: dict[str, str] | None = None) -> list[Frame]:
    """One frame per engine turn, each holding the positions at the end of that turn,
    the moves and attacks made in it and its log entries. `unit_sides` maps unit ids (as
    strings) to their side when the deploy entry alone does not say."""
    sides = unit_sides or {}
    units: dict[str, Marker] = {}
    buildings: dict[str, Marker] = {}
    out: list[Frame] = []
    current: Frame | None = None
    warping: tuple[str, Point] | None = None
    target_kind = "unit"
    for entry in log or []:
        if not isinstance(entry, dict):
            continue
        turn = int(entry.get("turn") or 0)
        event = entry.get("event")
        if event == "deploy":
            for uid, pos in (entry.get("units") or {}).items():
                p = _pt(pos)
                if p is not None:
                    units[str(uid)] = Marker(str(uid), p, sides.get(str(uid), ""))
            for bid, pos in (entry.get("buildings") or {}).items():
                p = _pt(pos)
                if p is not None:
                    buildings[str(bid)] = Marker(str(bid), p)
        if current is None or current.turn != turn:
            if current is not None:
                current.units, current.buildings = _copy(units), _copy(buildings)
                out.append(current)
            current = Frame(turn=turn, round=int(entry.get("round") or 0), side="",
                            units={}, buildings={})
        current.entries.append(entry)
        if event in ("action", "pass") and entry.get("side") is not None:
            current.side = current.side or str(entry["side"])
            target_kind = str(entry.get("target_kind") or "unit")
        uid = str(entry.get("unit")) if entry.get("unit") is not None else None
        marker = units.get(uid) if uid is not None else None
        if event in MOVES_WITH_TO and marker is not None:
            to = _pt(entry.get("to"))
            if to is not None:
                current.moves.append((marker.id, marker.pos, to))
                if event == "warp":
                    warping = (marker.id, marker.pos)
                marker.pos = to
        elif event == "ram" and marker is not None:
            target = units.get(str(entry.get("target")))
            if target is not None:
                to = _toward(marker.pos, target.pos, float(entry.get("distance") or 0))
                current.moves.append((marker.id, marker.pos, to))
                marker.pos = to
        elif event == "roll" and entry.get("purpose") == "warp" and warping is not None:
            if "no_warp" in (entry.get("effects") or []):
                wid, back = warping
                units[wid].pos = back
                current.moves = [m for m in current.moves if m[0] != wid]
            warping = None
        elif event in ("retreat", "withdraw") and marker is not None:
            marker.state = "retreated"
        elif event == "damage":
            if entry.get("building") is not None:
                hit = buildings.get(str(entry["building"]))
            else:
                hit = units.get(str(entry.get("target")))
            if hit is not None and entry.get("hp_left") is not None:
                hit.hp = int(entry["hp_left"])
            if hit is not None and entry.get("destroyed"):
                hit.state = "destroyed"
        if event in ATTACKS or event == "assault" or event == "turret_fire":
            source = (buildings.get(str(entry.get("turret"))) if event == "turret_fire"
                      else marker)
            pool = buildings if (target_kind == "building" and event != "turret_fire") \
                else units
            target = pool.get(str(entry.get("target")))
            if source is not None and target is not None:
                current.attacks.append((source.pos, target.pos))
                if pool is units:
                    current.targets.add(target.id)
            if marker is not None:
                current.actors.add(marker.id)
        elif event in MOVES_WITH_TO and marker is not None:
            current.actors.add(marker.id)
    if current is not None:
        current.units, current.buildings = _copy(units), _copy(buildings)
        out.append(current)
    return out


SCALE = 10  # SVG units per inch


def _xy(p: Point) -> tuple[float, float]:
    """Engine inches (y grows northward) to SVG units (y grows downward)."""
    return (p[0] * SCALE, (MAP_SIZE - p[1]) * SCALE)


def battlefield_svg(frame: Frame, *, title: str, side_colors: dict[str, str],
                    unit_labels: dict[str, str], building_labels: dict[str, str]) -> str:
    """The 32"x32" map with its 4" corridor, the units and buildings of one frame, this
    turn's moves (arrows) and attacks (dashed lines). Every marker has a <title>."""
    lo = -CORRIDOR * SCALE
    span = (MAP_SIZE + 2 * CORRIDOR) * SCALE
    size = MAP_SIZE * SCALE
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{lo:.0f} {lo:.0f} {span:.0f} '
        f'{span:.0f}" role="img" aria-labelledby="field-title" class="battlefield" '
        f'font-family="sans-serif">',
        f'<title id="field-title">{escape(title)}</title>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#111"/></marker></defs>',
        f'<rect x="{lo:.0f}" y="{lo:.0f}" width="{span:.0f}" height="{span:.0f}" '
        'fill="#d9d4c7"/>',
        f'<rect x="0" y="0" width="{size:.0f}" height="{size:.0f}" fill="#f6f4ee" '
        'stroke="#555" stroke-width="1.5"/>',
        '<g stroke="#d0ccc0" stroke-width="0.6" aria-hidden="true">',
    ]
    step = SQUARE * SCALE
    for i in range(1, int(MAP_SIZE / SQUARE)):
        out.append(f'<line x1="{i * step:.0f}" y1="0" x2="{i * step:.0f}" y2="{size:.0f}"/>'
                   f'<line x1="0" y1="{i * step:.0f}" x2="{size:.0f}" y2="{i * step:.0f}"/>')
    out.append("</g>")
    out.append(f'<text x="{size / 2:.0f}" y="{size + CORRIDOR * SCALE * 0.7:.0f}" '
               'font-size="11" text-anchor="middle" fill="#333" aria-hidden="true">'
               'retreat corridor (south)</text>')
    for bid, b in frame.buildings.items():
        x, y = _xy(b.pos)
        label = building_labels.get(bid, f"building {bid}")
        state = " (destroyed)" if b.state == "destroyed" else ""
        fill = "#bbb" if b.state == "destroyed" else "#6b6b6b"
        out.append(f'<g class="building"><title>{escape(label + state)}</title>'
                   f'<rect x="{x - step / 2:.1f}" y="{y - step / 2:.1f}" width="{step:.0f}" '
                   f'height="{step:.0f}" fill="{fill}" stroke="#222"/></g>')
    for _, a, b in frame.moves:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   'stroke="#111" stroke-width="1.5" marker-end="url(#arrow)" '
                   'aria-hidden="true"/>')
    for a, b in frame.attacks:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   'stroke="#b00020" stroke-width="1.5" stroke-dasharray="5 3" '
                   'aria-hidden="true"/>')
    for uid, u in frame.units.items():
        if u.state == "retreated":
            continue
        x, y = _xy(u.pos)
        label = unit_labels.get(uid, f"unit {uid}")
        color = side_colors.get(u.side, "#888")
        if u.state == "destroyed":
            out.append(f'<g class="unit destroyed"><title>{escape(label)} (destroyed)</title>'
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
        out.append(f'<g class={quoteattr(" ".join(["unit", *roles]))} '
                   f'data-unit={quoteattr(uid)}><title>{escape(label)}{escape(hp)} at '
                   f'({u.pos[0]:.1f}", {u.pos[1]:.1f}"){escape(role_words)}</title>{ring}'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill={quoteattr(color)} '
                   'stroke="#111" stroke-width="2"/>'
                   f'<text x="{x:.1f}" y="{y - 11:.1f}" font-size="10" text-anchor="middle" '
                   'fill="#111" stroke="#fff" stroke-width="3" paint-order="stroke">'
                   f'{escape(label + hp)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)
