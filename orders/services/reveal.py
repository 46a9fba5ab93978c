"""The reveal: when the tactical phase opens, sealed orders are announced and carried out.

Seed, "Move Phase": "The moves you decide are to be kept secret from your opponent,
and only revealed at the beginning of the Tactical phase." -- "You only have to
announce which territories you move if your units finish their move on a territory
that isn't yours, and don't have to reveal which of the units was moved until they
meet with enemy units."

Seed, "Tactical phase": units that could not retreat "are removed from the map and
reappear at the beginning of the next Movement phase on any territory that unit's
player controls" (R-ORD-4: the player picks the territory with an order; without one,
their first territory).

`reveal_and_move` is the first hook of ("enter", "tactical") (connected in
orders/connections.py: the clock's phase hooks are the one way the core calls it); the
battles app hooks after it and finds the units already relocated.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from campaign.bulk import bulk_set
from campaign.models import Campaign, Player
from campaign.services.journal import record_event, record_private_many
from economy.services.moves import move_units, off_map_units, unit_states
from orders.models import Order
from territories.selectors import owners_and_names


def reveal_and_move(*, campaign: Campaign) -> None:
    """Announce moves onto territories the mover does not own, relocate every ordered
    unit, bring back off-map units, close the turn's orders. Runs inside the advancing
    transaction (the campaign row is locked)."""
    orders = list(Order.objects.select_for_update()
                  .filter(campaign=campaign, turn=campaign.turn, status=Order.Status.OPEN))
    # The owned territories (first territories of the players) and the destinations:
    # an unowned territory no order names is nobody's concern here.
    territories: dict[int, tuple[int | None, str]] = owners_and_names(
        campaign, also={o.destination_id for o in orders})
    owner_of = {pk: owner for pk, (owner, _name) in territories.items()}
    names = {pk: name for pk, (_owner, name) in territories.items()}
    units = unit_states(campaign, [o.unit_id for o in orders])
    announced: set[tuple[int, int]] = set()
    moves: dict[int, list[dict[str, Any]]] = defaultdict(list)
    relocate: dict[int, int] = {}
    # Ownership is read once, before anything moves: all moves are simultaneous.
    for order in orders:
        player_id, status, territory_id = units.get(order.unit_id, (None, None, None))
        valid = player_id == order.player_id and (
            (status == "ready" and territory_id == order.origin_id)
            or (status == "off_map" and owner_of.get(order.destination_id) == order.player_id)
        )
        if not valid:
            order.status = Order.Status.VOID
            continue
        order.announced = owner_of.get(order.destination_id) != order.player_id
        order.status = Order.Status.EXECUTED
        if order.announced:
            announced.add((order.destination_id, order.player_id))
        moves[order.player_id].append({"order": order.public_id, "unit": order.unit_id,
                                       "from": order.origin_id, "to": order.destination_id})
        relocate[order.unit_id] = order.destination_id
    if orders:  # one statement for them all
        bulk_set(orders, ["status", "announced"])
    move_units(campaign, relocate)

    players = list(Player.objects.filter(campaign=campaign))
    # Off-map units nobody ordered come back on their player's first territory.
    first_owned: dict[int, int] = {}
    for pk, owner in sorted(owner_of.items()):
        if owner is not None:
            first_owned.setdefault(owner, pk)
    returning: dict[int, int] = {}
    for unit_id, player_id in off_map_units(campaign):
        home = first_owned.get(player_id)
        if home is None:
            continue  # no territory left: the unit stays off the map
        returning[unit_id] = home
        moves[player_id].append({"order": None, "unit": unit_id, "from": None, "to": home})
    move_units(campaign, returning)

    record_event(campaign=campaign, kind="moves_revealed", data={
        "announcements": [
            {"territory": t, "territory_name": names.get(t, ""), "player": p}
            for t, p in sorted(announced)
        ],
    })
    # One sealed entry for EVERY player (even with no move), so the number of hidden
    # journal entries says nothing about who gave orders.
    record_private_many(campaign=campaign, sealed=True, entries=[
        (player, "moves_carried_out", {"moves": moves.get(player.pk, []),
                                       "missed_turns": player.missed_turns})
        for player in players])
