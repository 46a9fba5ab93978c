"""Hex geometry of tactical battlefields (axial coordinates q, r): distance, neighbours,
the hexes a line of sight crosses, the hex "directly away" from a unit, and the odd-row
offset coordinates (column, row) boards are written in. Pure Python, shared by the hex
rulesets (battle dice, 30 Minute Missions) so no ruleset imports another."""

from __future__ import annotations

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def to_axial(col: int, row: int) -> Hex:
    """Odd-row offset (column, row) -> axial."""
    return col - (row - (row & 1)) // 2, row


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial -> odd-row offset (column, row)."""
    q, r = h
    return q + (r - (r & 1)) // 2, r


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]


def _round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Every hex from a to b inclusive (nudged off the edges, so a line along an edge
    is read the same way each time)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a[0] + 1e-6, a[1] + 1e-6
    return [_round(aq + (b[0] - aq) * i / n, ar + (b[1] - ar) * i / n) for i in range(n + 1)]


def away(source: Hex, unit: Hex) -> Hex:
    """The neighbour of `unit` directly away from `source`: one more hex along the line
    from `source` through `unit` (R-BD-5)."""
    n = distance(source, unit)
    if n == 0:
        return unit
    t = (n + 1) / n
    sq, sr = source[0] + 1e-6, source[1] + 1e-6
    return _round(sq + (unit[0] - sq) * t, sr + (unit[1] - sr) * t)
