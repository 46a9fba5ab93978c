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


#: CPython's own, for the magnitudes `hypot` leaves to it.
_MATH_HYPOT: Final = math.hypot


def distance(a: Point, b: Point) -> float:
    return hypot(a[0] - b[0], a[1] - b[1])


def hypot(dx: float, dy: float) -> float:
    """`math.hypot(dx, dy)`, bit for bit, in compiled floats (no boxed call): CPython's
    `vector_norm` for two coordinates. Scaled by the power of two that brings the larger
    into [0.5, 1) (lossless), the squares are summed exactly from 1.0 (products split by
    Veltkamp, Dekker's exact error; a fast two-sum), the root corrected once by the
    residual. Magnitudes this map never has (and 0, inf, nan) go to `math.hypot`."""
    x = abs(dx)
    y = abs(dy)
    big = x if x > y else y
    if not 1e-300 < big < 1e300:
        return _MATH_HYPOT(dx, dy)
    scale = 1.0
    m = big
    while m >= 1.0:
        m *= 0.5
        scale *= 0.5
    while m < 0.5:
        m *= 2.0
        scale *= 2.0
    x *= scale
    y *= scale
    split = 134217729.0 * x  # 2**27 + 1
    high = split - (split - x)
    low = x - high
    square = x * x
    error = ((high * high - square) + high * low + low * high) + low * low
    csum = 1.0 + square
    frac1 = 0.0 + error
    frac2 = 0.0 + ((1.0 - csum) + square)
    split = 134217729.0 * y
    high = split - (split - y)
    low = y - high
    square = y * y
    error = ((high * high - square) + high * low + low * high) + low * low
    total = csum + square
    frac1 += error
    frac2 += (csum - total) + square
    csum = total
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    split = 134217729.0 * h
    high = split - (split - h)
    low = h - high
    square = -h * h
    error = ((-high * high - square) + -high * low + -low * high) + -low * low
    total = csum + square
    frac1 += error
    frac2 += (csum - total) + square
    csum = total
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return h / scale


def round_places(value: float, scale: float, places: int) -> float:
    """`round(value, places)`, bit for bit, without the string `round` formats (`scale` is
    10**places, 1e4 or 1e6): `round` gives the float nearest to n / 10**places, n the
    integer nearest to the exact value x 10**places (an exact tie to the even one), and so
    does n / scale (scale and n are exact, the division is correctly rounded).
    `value * scale` is off by at most one part in 2**53, so n is read from it wherever its
    fraction is not within 1e-3 of one half, or is one half and the product exact (a
    probability in 512ths often makes one); `round` settles the rest."""
    if value == 0.0:
        return value  # round keeps the sign of a zero; so does this
    scaled = value * scale
    if -1e12 < scaled < 1e12:
        whole = math.floor(scaled)
        fraction = scaled - whole
        if abs(fraction - 0.5) > 1e-3:
            n = whole + 1 if fraction > 0.5 else whole
            return n / scale if n != 0 else math.copysign(0.0, value)
        if fraction == 0.5 and _times_scale_error(value, scaled, scale) == 0.0:
            return (whole if whole % 2 == 0 else whole + 1) / scale
    return round(value, places)


def _times_scale_error(value: float, product: float, scale: float) -> float:
    """value x scale - product, exactly (Dekker's product with Veltkamp's split; 1e4 and
    1e6 have 10 and 14 significant bits, so their own split has no low part)."""
    spread = 134217729.0 * value  # 2**27 + 1
    high = spread - (spread - value)
    low = value - high
    return (high * scale - product) + low * scale


def square_centre(x: int, y: int) -> Point:
    """Centre, in inches, of square (x, y) of the 16x16 territorial map."""
    return (x * SQUARE + SQUARE / 2, y * SQUARE + SQUARE / 2)


def clamp(p: Point) -> Point:
    return (min(max(p[0], MIN_XY), MAX_XY), min(max(p[1], MIN_XY), MAX_XY))


def toward(a: Point, b: Point, dist: float) -> Point:
    """The point `dist` inches from a toward b (never past b), its coordinates rounded to
    4 places."""
    d = distance(a, b)
    if d <= dist or d == 0:
        return b
    f = dist / d
    return (round_places(a[0] + (b[0] - a[0]) * f, 1e4, 4),
            round_places(a[1] + (b[1] - a[1]) * f, 1e4, 4))


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
