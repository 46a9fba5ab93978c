"""Territorial maps: "The Territorial Map is divided into 16x16 squares." Each building
occupies one square; placement is validated here (inside the grid, square free). The
squares are the economy's (its buildings stand on them), so the grid lives here."""

from __future__ import annotations

from campaign.errors import InvalidInput
from campaign.rules import GRID_SIZE
from economy.models import Building
from territories.models import Territory

# Where the starting buildings stand (ruling R-MAP-2): a compact block near the centre.
STARTING_SQUARES: dict[str, tuple[int, int]] = {
    "station": (7, 7),
    "command_center": (8, 7),
    "power_plant": (7, 8),
    "radar": (8, 8),
    "landing_pad": (9, 8),
}


def taken_squares(territory: Territory) -> set[tuple[int, int]]:
    return set(Building.objects.filter(territory=territory).values_list("x", "y"))


def validate_square(territory: Territory, x: object, y: object) -> tuple[int, int]:
    """Refuse a square outside the 16x16 grid (code ``outside_grid``) or already built on
    (code ``square_taken``); return it as integers."""
    if (not isinstance(x, int) or isinstance(x, bool) or not isinstance(y, int)
            or isinstance(y, bool) or not (0 <= x < GRID_SIZE and 0 <= y < GRID_SIZE)):
        raise InvalidInput(
            f"A building stands on a square of the {GRID_SIZE}x{GRID_SIZE} territorial map: "
            f"x and y are whole numbers from 0 to {GRID_SIZE - 1}, not ({x}, {y}).",
            code="outside_grid", fields={"x": ["0..15"], "y": ["0..15"]},
        )
    if (x, y) in taken_squares(territory):
        raise InvalidInput(f"The square ({x}, {y}) of {territory} already has a building.",
                           code="square_taken")
    return x, y


def free_squares(territory: Territory) -> list[tuple[int, int]]:
    """Every free square of the territory's map, row by row."""
    taken = taken_squares(territory)
    return [(x, y) for y in range(GRID_SIZE) for x in range(GRID_SIZE) if (x, y) not in taken]
