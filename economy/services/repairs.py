"""Repairing a unit of a ruleset that restores units for credits (`RulesetInfo.repairs`;
R-OP-12 and the like; not Unlimit3d 8, whose damage stays on the unit card): the
ruleset prices what restoring it costs (lost figures, lasting vehicle damage) and the
state it comes back to; the economy takes the credits through the ledger. Commercial
phase, on a territory of the player's with a landing pad (where replacements arrive)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign import rulesets
from campaign.errors import Conflict, NotFound
from campaign.models import Player
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from economy.models import Building, Unit
from economy.services import ledger
from economy.services.common import as_id, require_phase


@retry_on_conflict
def repair_unit(*, player: Player, unit_id: object) -> dict[str, Any]:
    require_phase(player.campaign, "commercial")
    info = rulesets.get(player.campaign.settings.ruleset)
    if info is None or not info.repairs:
        title = info.title if info is not None else "This ruleset's"
        raise Conflict(f"{title} vehicles are not repaired this way: their damage is "
                       "recorded on the unit card.", code="no_repairs")
    pk = as_id(unit_id, "unit")
    with transaction.atomic():
        ledger.lock_player(player.pk)
        unit = Unit.objects.select_for_update().filter(pk=pk, player=player).first()
        if unit is None:
            raise NotFound("No such unit among yours.")
        if unit.status != Unit.Status.READY or unit.territory_id is None:
            raise Conflict("Only a unit standing on the map can be repaired.",
                           code="unit_not_ready")
        if not Building.objects.filter(territory_id=unit.territory_id, kind="landing_pad",
                                       hit_points__gt=0).exists():
            raise Conflict("Replacements arrive by a landing pad: repair the unit on a "
                           "territory with one.", code="no_landing_pad")
        cost, state = info.repair(dict(unit.profile or {}), dict(unit.state or {}))
        if cost <= 0:
            raise Conflict(f"{unit.name or unit.model} needs no repair.",
                           code="nothing_to_repair")
        ledger.spend(player=player, amount=cost, reason="repair",
                     detail=f"repair of {unit.name or unit.model}", related_kind="unit",
                     related_id=unit.pk)
        unit.state = state
        unit.save(update_fields=["state"])
        record_private(player=player, kind="repair",
                       data={"unit": unit.pk, "cost": cost, "state": state})
    return {"unit": unit.pk, "cost": cost, "state": state}
