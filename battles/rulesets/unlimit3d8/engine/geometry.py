"""Positions in inches on the battlefield.

Seed, "Territorial maps": "The Territorial Map is divided into 16x16 squares. Its
suggested each square is represented by 2"x2" squares" -> the map is 32" x 32",
x and y in [0, 32]. Seed, "Tactical phase": attackers are placed "within the relevant
section of the retreat corridor": R-BAT-1 models the corridor as a 4"-deep band around
the map; attackers deploy in its southern section (y in [-4, 0)). A unit retreats by
leaving from the outer edge of the corridor.

Line of sight (R-BAT-6): the map has no terrain besides buildings and nothing blocks
sight. A unit in contact with a building has taken cover (+1 range increment); with a
concrete barricade, +2 instead (seed: "two additional range increments").
"""

from __future__ import annotations

import math
from math import hypot
from typing import Final

SQUARE: Final = 2.0
MAP_SIZE: Final = 16 * SQUARE  # 32 inches
CORRIDOR: Final = 4.0
MIN_XY: Final = -CORRIDOR
MAX_XY: Final = MAP_SIZE + CORRIDOR

Point = tuple[float, float]

# R-BAT-7: the eight compass directions a d8 picks for a deviating shot (1 = north).
DIRECTIONS: tuple[Point, ...] = tuple(
    (round(math.sin(math.radians(45 * i)), 6), round(math.cos(math.radians(45 * i)), 6))
    for i in range(8)
)


def distance(a: Point, b: Point) -> float:
    return hypot(a[0] - b[0], a[1] - b[1])


def square_centre(x: int, y: int) -> Point:
    """Centre, in inches, of square (x, y) of the 16x16 territorial map."""
    return (x * SQUARE + SQUARE / 2, y * SQUARE + SQUARE / 2)


def clamp(p: Point) -> Point:
    return (min(max(p[0], MIN_XY), MAX_XY), min(max(p[1], MIN_XY), MAX_XY))


#: `toward`'s rounded answers, kept once worked out (policies ask the same of units that
#: have not moved, every turn; `round` to 4 places formats a string). Not kept when a
#: coordinate or the distance is zero: 0.0 and -0.0 are equal keys, and the sign could
#: show in the answer.
_TOWARD: Final[dict[tuple[Point, Point, float], Point]] = {}
_TOWARD_MAX: Final = 65536


def toward(a: Point, b: Point, dist: float) -> Point:
    """The point `dist` inches from a toward b (never past b)."""
    d = distance(a, b)
    if d <= dist or d == 0:
        return b
    if a[0] == 0.0 or a[1] == 0.0 or b[0] == 0.0 or b[1] == 0.0 or dist == 0.0:
        f = dist / d
        return (round(a[0] + (b[0] - a[0]) * f, 4), round(a[1] + (b[1] - a[1]) * f, 4))
    key = (a, b, dist)
    found = _TOWARD.get(key)
    if found is None:
        f = dist / d
        found = (round(a[0] + (b[0] - a[0]) * f, 4), round(a[1] + (b[1] - a[1]) * f, 4))
        if len(_TOWARD) >= _TOWARD_MAX:
            _TOWARD.clear()
        _TOWARD[key] = found
    return found


def stop_short(a: Point, b: Point, max_dist: float, keep: float) -> Point:
    """Move from a toward b at most max_dist inches, stopping `keep` inches short of b."""
    d = distance(a, b)
    travel = max(0.0, min(max_dist, d - keep))
    return toward(a, b, travel)


def increments(dist: float, step: float) -> int:
    """Complete `step`-inch increments in a distance ("every complete 4 inches")."""
    return int(dist // step + 1e-9)


def edge_distance(p: Point) -> float:
    """Inches to the outer edge of the retreat corridor (where units leave the battle)."""
    # min() of the four, written out (the first of equal ones, as min gives)
    best = p[0] - MIN_XY
    other = MAX_XY - p[0]
    if other < best:
        best = other
    other = p[1] - MIN_XY
    if other < best:
        best = other
    other = MAX_XY - p[1]
    if other < best:
        best = other
    return best


def nearest_exit(p: Point) -> Point:
    """The nearest point of the corridor's outer edge."""
    options = [
        (p[0] - MIN_XY, (MIN_XY, p[1])),
        (MAX_XY - p[0], (MAX_XY, p[1])),
        (p[1] - MIN_XY, (p[0], MIN_XY)),
        (MAX_XY - p[1], (p[0], MAX_XY)),
    ]
    return min(options, key=lambda o: o[0])[1]


def deviate(p: Point, direction: int, dist: float) -> Point:
    """Point p moved `dist` inches in compass direction 1..8 (R-BAT-7)."""
    dx, dy = DIRECTIONS[direction - 1]
    return clamp((round(p[0] + dx * dist, 4), round(p[1] + dy * dist, 4)))


def in_square(p: Point, centre: Point, half: float) -> bool:
    """Inside the axis-aligned square of half-side `half` around centre."""
    return abs(p[0] - centre[0]) <= half and abs(p[1] - centre[1]) <= half


def defender_slots(n: int) -> list[Point]:
    """R-BAT-1: default deployment of defenders, in a line 20" into the map, 4" apart."""
    return _line(n, 20.0)


def attacker_slots(n: int, band: int = 0) -> list[Point]:
    """R-BAT-1: default deployment of attackers in the southern retreat corridor (y=-2)."""
    return _line(n, -2.0 - (band % 2) * 1.0)


def _line(n: int, y: float) -> list[Point]:
    spacing = 4.0 if n <= 8 else MAP_SIZE / n
    start = MAP_SIZE / 2 - spacing * (n - 1) / 2
    return [(round(start + spacing * i, 4), y) for i in range(n)]
