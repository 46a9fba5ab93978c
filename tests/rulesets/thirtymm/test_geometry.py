"""The hex geometry 30 Minute Missions builds with its engine (so a compiled engine does
not call into the source) is hexgrid's, hex for hex: distance, offsets and every line of
sight between two board hexes (and hexes just off the board)."""

from __future__ import annotations

from battles.rulesets.thirtymm import engine as E
from campaign.rules import hexgrid as H


def test_the_engines_geometry_is_hexgrids_on_every_pair_of_hexes():
    hexes = [*sorted(E.BOARD), (-3, 2), (20, 5), (0, -1)]
    for a in hexes:
        assert E.offset_of(a) == H.to_offset(a)
        assert E.axial(*H.to_offset(a)) == H.to_axial(*H.to_offset(a))
        for b in hexes:
            assert E.hex_distance(a, b) == H.distance(a, b)
            assert E._line(a, b) == H.line(a, b), (a, b)


def test_a_board_hex_is_one_tuple():
    h = next(iter(E.BOARD))
    assert E.canonical((h[0], h[1])) is E.canonical(h)
    assert E.canonical((99, 99)) == (99, 99)
