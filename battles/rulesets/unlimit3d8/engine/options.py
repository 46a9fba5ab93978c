"""Engine options: the rulings an umpire may set per battle (`BattleInput.options`).

Each option names the ruling (docs/RULINGS.md, "Battles") that it makes adjustable.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    # R-BAT-3: safety limit; when reached the defender holds and attackers retreat.
    "max_rounds": 200,
    # R-BAT-32: the battle ends (attackers withdraw, the defender holds) after this many
    # consecutive rounds without damage, attack roll or a unit closing in; 0: never.
    "stalemate_rounds": 6,
    # R-BAT-4: who plays first: "initiative" (best Init, ties to the defender),
    # "defender" or "attacker".
    "first_player": "initiative",
    # R-BAT-16: fight skill of an automated turret (it has no pilot).
    "turret_fight_skill": 10,
    # R-BAT-2: centres within this many inches are "in contact".
    "contact_distance": 1.0,
    # R-BAT-5: DefaultPolicy retreats when its side's share of hit points falls below this.
    "retreat_threshold": 0.25,
    # R-BAT-12: a misfire also puts this many extra CDT on the firing unit.
    "misfire_extra_cdt": 0,
    # R-BAT-11: a projectile aimed into another force field: "refused" (an illegal action:
    # no roll, no CDT) or "wasted" (fired and stopped at the field, CDT taken).
    "force_field_projectile": "refused",
    # R-BAT-30: Tech score a piracy on a laboratory needs when the campaign gives no
    # `technology_cost` for it (the seed's "Research Points necessary to get the
    # technology"; 20 as for a turret).
    "lab_piracy_difficulty": 20,
}


def merged(options: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with the battle's options; an unknown key is refused."""
    result = dict(DEFAULTS)
    for key, value in (options or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown engine option {key!r}")
        result[key] = value
    return result
