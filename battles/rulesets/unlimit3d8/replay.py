"""Unlimit3d 8's board replay, folded from the engine's log one engine turn at a time.

The engine's log already holds every position: the `deploy` entry gives each unit's and
building's starting point (inches; the 32"x32" map of 16x16 two-inch squares, with the 4"
retreat corridor around it, see `geometry`), `move`, `assault` and `warp` carry the
destination, `ram` the distance run toward its target; `retreat`/`withdraw` take a unit
off the field and `damage` says when a unit or building is destroyed. A failed warp
(its roll's effects hold `no_warp`) leaves the unit where it was. Engine turns alternate
the sides, so a round holds several frames (`Board.step` is "turn").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from battles.rulesets.base import Board, Frame, Json, Marker, Point
from battles.rulesets.unlimit3d8.engine.geometry import CORRIDOR, MAP_SIZE, SQUARE

MOVES_WITH_TO = ("move", "assault", "warp")
ATTACKS = ("ranged_attack", "close_combat", "ram", "tackle", "piracy", "repair")


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


def board(log: Sequence[Json], unit_sides: dict[str, str], rounds: int) -> Board:
    """The 32"x32" map (y northward) with its corridor, and a frame per engine turn."""
    return board_of(frames(list(log), unit_sides), rounds)


def board_of(folded: list[Frame], rounds: int = 0) -> Board:
    return Board(width=MAP_SIZE, height=MAP_SIZE, frames=folded,
                 rounds=rounds or max((f.round for f in folded), default=0),
                 grid="square", cell=SQUARE, unit="inch", y_up=True, margin=CORRIDOR,
                 margin_label="retreat corridor (south)", step="turn")
