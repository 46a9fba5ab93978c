"""The campaign's handlers for the battle effects Unlimit3d 8 declares (`Ruleset.effects`:
`missiles_spent`, `cargo`, `lab_piracy`), one per kind, each handed to the app that owns
the rows it changes: silo missiles spent (R-BJ-11) and containers carried off (R-BJ-12)
to the economy, laboratories robbed (R-BJ-13) to the core's research points. Recording
calls them through the hook point `battles.services.effects.effect_applied` (connected in
`battles/connections.py`) after the units' fates are saved."""

from __future__ import annotations

from typing import Any

from battles.services.effects import Recording
from campaign.services.research import laboratories_robbed
from economy.services import battle_effects


def spend_missiles(rec: Recording, data: dict[str, Any]) -> list[dict[str, Any]]:
    return battle_effects.missiles_spent(listed=(rec.battle.input or {}).get("missiles") or {},
                                         used=data.get("used") or {})


def move_cargo(rec: Recording, data: dict[str, Any]) -> list[dict[str, Any]]:
    territory = rec.battle.territory
    return battle_effects.cargo_carried(battlefield_id=territory.pk,
                                        holder_id=territory.owner_id, sides=rec.sides,
                                        units=rec.units, cargo=data.get("cargo") or ())


def rob_laboratories(rec: Recording, data: dict[str, Any]) -> list[dict[str, Any]]:
    return laboratories_robbed(owner_id=rec.battle.defender_id, sides=rec.sides,
                               piracies=data.get("piracies") or ())
