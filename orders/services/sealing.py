"""Sealed move orders: sealed, replaced and withdrawn in the move phase.

Seed, "Move Phase": "any of your units can move to any territory you control, or any
territory adjacent to a territory you control. The only restriction being that the
unit has to travel through territories you control." -- "The moves you decide are to
be kept secret from your opponent, and only revealed at the beginning of the
Tactical phase." -- "In this phase, any two pilots in the same group of territories
can exchange equipment."

Secrecy (R-ORD-1..3): every refusal a player can provoke depends only on their own
units, the public map and the public phase; another player's unit or order id is
answered exactly like an id that does not exist. Submitting or withdrawing an order
writes nothing to the journal (event ids are sequential: a hidden entry would show as
a gap); the orders are journaled, privately and sealed, at the reveal.
"""

from __future__ import annotations

import functools

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from campaign import sql
from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Campaign, Phase, Player
from campaign.services.locking import retry_on_conflict
from campaign.services.phase_lock import share_lock_in_phase
from economy.services.moves import OrderedUnit, unit_to_order
from orders.models import Order
from orders.services import receipts
from territories.selectors import territory_for_order
from territories.services.movement import legal_destinations

NO_SUCH_UNIT = "No such unit."
NO_SUCH_ORDER = "No such order."


def _legal_destinations(*, player: Player, origin_id: int) -> set[int]:
    """The one place orders ask the movement graph where a unit may go."""
    return set(legal_destinations(player, origin_id)) - {origin_id}


def _destination(campaign: Campaign, destination_id: int) -> tuple[int | None, str]:
    destination = territory_for_order(campaign, destination_id)
    if destination is None:
        raise InvalidInput("No such territory in this campaign.",
                           fields={"destination": ["No such territory."]})
    return destination


def _own_unit(player: Player, unit_id: int) -> OrderedUnit:
    unit = unit_to_order(player, unit_id)
    if unit is None:
        raise NotFound(NO_SUCH_UNIT)
    return unit


@retry_on_conflict
def order_submit(*, player: Player, unit_id: int, destination_id: int) -> Order:
    """Seal (or replace) the order for one of the player's units this turn."""
    with transaction.atomic():
        campaign = share_lock_in_phase(player, Phase.MOVE, "Orders are given")
        unit = _own_unit(player, unit_id)
        if unit.status == "destroyed":
            raise InvalidInput("This unit is destroyed.", code="unit_destroyed")
        if unit.status == "off_map":
            # "they are removed from the map and reappear at the beginning of the next
            # Movement phase on any territory that unit's player controls" (R-ORD-4).
            origin_id = None
            destination = _destination(campaign, destination_id)
            if destination[0] != player.pk:
                raise InvalidInput("A unit coming back onto the map must reappear on a "
                                   "territory you control.", code="unreachable")
        else:
            origin_id = unit.territory_id
            if origin_id is None:
                raise InvalidInput("This unit is not on the map.", code="unreachable")
            if destination_id == origin_id:
                raise InvalidInput("The unit is already there; withdraw its order to keep "
                                   "it in place.", code="already_there")
            # The map is read from the shared graph: the destination is looked up (its
            # name, for the refusal) only when it cannot be reached.
            if destination_id not in _legal_destinations(player=player, origin_id=origin_id):
                _owner_id, destination_name = _destination(campaign, destination_id)
                raise InvalidInput(
                    f"{unit.label} cannot reach {destination_name}: a unit travels only through "
                    "territories you control and may end on one of them or next to one.",
                    code="unreachable")
        order = _replace_order(campaign, unit.id, origin_id, destination_id)
        if order is None:
            try:
                with transaction.atomic():
                    order = Order.objects.create(
                        campaign=campaign, turn=campaign.turn, player=player,
                        unit_id=unit.id, origin_id=origin_id, destination_id=destination_id)
            except IntegrityError:  # a public_id collision: astronomically rare, retry once
                order = Order.objects.create(
                    campaign=campaign, turn=campaign.turn, player=player, unit_id=unit.id,
                    origin_id=origin_id, destination_id=destination_id)
        order.receipt = receipts.reseal(campaign=campaign, player=player)
    return order


@functools.cache
def _replace_statement(vendor: str) -> str:
    """`_replace_order`'s statement, built once per database vendor."""
    return (f"UPDATE {sql.table(Order)} SET origin_id = %s, destination_id = %s, "
            "updated_at = %s WHERE campaign_id = %s AND turn = %s AND unit_id = %s "
            f"RETURNING {sql.columns(Order)}")


def _replace_order(campaign: Campaign, unit_id: int, origin_id: int | None,
                   destination_id: int) -> Order | None:
    """The unit's order of this turn, given its new move in one statement (`UPDATE ...
    RETURNING`: PostgreSQL, and SQLite from 3.35), sent as text (`campaign.sql`); None
    when it has none yet. The caller holds the unit's row lock, so nobody else writes
    this order meanwhile."""
    row = sql.fetch_one(_replace_statement(connection.vendor), [
        origin_id, destination_id, timezone.now(), campaign.pk, campaign.turn, unit_id])
    return sql.instance(Order, row) if row is not None else None


@retry_on_conflict
def order_withdraw(*, player: Player, order_id: int) -> str:
    """Withdraw one of the player's sealed orders (the unit stays put); answers the
    receipt of the order set without it."""
    with transaction.atomic():
        campaign = share_lock_in_phase(player, Phase.MOVE, "Orders are withdrawn")
        order = Order.objects.select_for_update().filter(campaign=campaign, player=player,
                                     public_id=order_id).first()
        if order is None:
            raise NotFound(NO_SUCH_ORDER)
        if order.turn != campaign.turn or order.status != Order.Status.OPEN:
            raise Conflict("This order was already carried out.", code="order_closed")
        order.delete()
        return receipts.reseal(campaign=campaign, player=player)
