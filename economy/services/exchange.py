"""The move-phase equipment exchange (seed, "Move Phase": "In this phase, any two pilots
in the same group of territories can exchange equipment"). Weapons and units are the
economy's rows; the phase check is the core's clock."""

from __future__ import annotations

import networkx as nx
from django.db import transaction

from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Phase, Player
from campaign.rules.formulas import validate_loadout, vehicle_slots
from campaign.rules.tables import RuleViolation, weapon_size
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from campaign.services.phase_lock import lock_campaign_in_phase
from economy.models import Unit, Weapon
from territories.services import movement

NO_SUCH_UNIT = "No such unit."


def _group_of(player: Player, territory_id: int | None) -> set[int]:
    """The connected group of the player's controlled territories (owned, or held by a
    right of passage) holding `territory_id` (R-ORD-5); empty if not controlled (or off
    the map)."""
    controlled = movement.passable_territories(player)
    if territory_id is None or territory_id not in controlled:
        return set()
    graph = movement.movement_graph(player.campaign)
    return set(nx.node_connected_component(graph.subgraph(controlled), territory_id))


def _own_unit(player: Player, unit_id: int) -> Unit:
    unit = Unit.objects.select_for_update().filter(pk=unit_id, player=player).first()
    if unit is None:
        raise NotFound(NO_SUCH_UNIT)
    return unit


@retry_on_conflict
def equipment_exchange(*, player: Player, from_unit_id: int, to_unit_id: int,
                       weapon_id: int) -> Weapon:
    """Move one weapon from one piloted unit to another of the same player, both in the
    same connected group of controlled territories ("In this phase, any two pilots in
    the same group of territories can exchange equipment."). Returns the weapon."""
    with transaction.atomic():
        campaign = lock_campaign_in_phase(player.campaign_id, Phase.MOVE,
                                          "Equipment is exchanged between pilots")
        giver = _own_unit(player, from_unit_id)
        taker = _own_unit(player, to_unit_id)
        weapon = Weapon.objects.select_for_update().filter(pk=weapon_id, player=player).first()
        if weapon is None:
            raise NotFound("No such weapon.")
        if giver.pk == taker.pk:
            raise InvalidInput("Choose two different units.", code="same_unit")
        if weapon.unit_id != giver.pk:
            raise InvalidInput("That weapon is not fitted to the giving unit.",
                               code="not_fitted")
        for unit in (giver, taker):
            if unit.locked_until_turn > campaign.turn:  # R-ECO-14: 409 even off the map
                raise Conflict(f"{unit} cannot change equipment before turn "
                               f"{unit.locked_until_turn}.", code="unit_locked")
            if unit.status != Unit.Status.READY or unit.territory_id is None:
                raise InvalidInput(f"{unit} is not on the map.", code="unit_unavailable")
            if unit.pilot_id is None:
                raise InvalidInput(f"{unit} has no pilot: equipment is exchanged between "
                                   "two pilots.", code="no_pilot")
            if unit.locked_until_turn > campaign.turn:
                raise Conflict(f"{unit} cannot change equipment before turn "
                               f"{unit.locked_until_turn}.", code="unit_locked")
        if taker.territory_id not in _group_of(player, giver.territory_id):
            raise InvalidInput("The two pilots are not in the same group of territories.",
                               code="not_same_group")
        sizes = [weapon_size(w.weapon, w.templates) for w in taker.weapons.all()]
        try:
            validate_loadout(taker.model, [*sizes, weapon_size(weapon.weapon, weapon.templates)],
                             extension=taker.extension)
            slots = vehicle_slots(taker.model, extension=taker.extension)
        except RuleViolation as exc:
            raise InvalidInput(str(exc), code="does_not_fit") from exc
        used = set(taker.weapons.exclude(slot=None).values_list("slot", flat=True))
        free = [i for i in range(len(slots)) if i not in used]
        weapon.unit = taker
        weapon.slot = free[0] if free else None
        weapon.territory_id = taker.territory_id
        weapon.save(update_fields=["unit", "slot", "territory"])
        record_private(player=player, kind="equipment_exchanged",
                       data={"weapon": weapon.pk, "from_unit": giver.pk, "to_unit": taker.pk})
    return weapon
