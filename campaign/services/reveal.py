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

`reveal_and_move` is the first hook of ("enter", "tactical"); the battles app hooks
after it and finds the units already relocated.
"""

from __future__ import annotations

from collections import defaultdict

from campaign.models import Campaign, Order, Player
from campaign.services.journal import record_event, record_private


def reveal_and_move(*, campaign: Campaign) -> None:
    """Announce moves onto territories the mover does not own, relocate every ordered
    unit, bring back off-map units, close the turn's orders. Runs inside the advancing
    transaction (the campaign row is locked)."""
    from economy.models import Unit
    from territories.models import Territory

    owner_of = dict(Territory.objects.filter(campaign=campaign).values_list("pk", "owner_id"))
    names = dict(Territory.objects.filter(campaign=campaign).values_list("pk", "name"))
    orders = list(Order.objects.select_for_update()
                  .filter(campaign=campaign, turn=campaign.turn, status=Order.Status.OPEN)
                  .select_related("unit"))
    announced: set[tuple[int, int]] = set()
    moves: dict[int, list[dict]] = defaultdict(list)
    # Ownership is read once, before anything moves: all moves are simultaneous.
    for order in orders:
        unit = order.unit
        valid = unit.player_id == order.player_id and (
            (unit.status == Unit.Status.READY and unit.territory_id == order.origin_id)
            or (unit.status == Unit.Status.OFF_MAP
                and owner_of.get(order.destination_id) == order.player_id)
        )
        if not valid:
            order.status = Order.Status.VOID
            order.save(update_fields=["status"])
            continue
        order.announced = owner_of.get(order.destination_id) != order.player_id
        order.status = Order.Status.EXECUTED
        order.save(update_fields=["status", "announced"])
        if order.announced:
            announced.add((order.destination_id, order.player_id))
        moves[order.player_id].append({"order": order.public_id, "unit": unit.pk,
                                       "from": order.origin_id, "to": order.destination_id})
        unit.territory_id = order.destination_id
        unit.status = Unit.Status.READY
        unit.save(update_fields=["territory", "status"])

    players = list(Player.objects.filter(campaign=campaign))
    # Off-map units nobody ordered come back on their player's first territory.
    first_owned: dict[int, int] = {}
    for pk, owner in sorted(owner_of.items()):
        if owner is not None:
            first_owned.setdefault(owner, pk)
    for unit in Unit.objects.select_for_update().filter(player__campaign=campaign,
                                                        status=Unit.Status.OFF_MAP):
        home = first_owned.get(unit.player_id)
        if home is None:
            continue  # no territory left: the unit stays off the map
        unit.territory_id = home
        unit.status = Unit.Status.READY
        unit.save(update_fields=["territory", "status"])
        moves[unit.player_id].append({"order": None, "unit": unit.pk, "from": None,
                                      "to": home})

    record_event(campaign=campaign, kind="moves_revealed", data={
        "announcements": [
            {"territory": t, "territory_name": names.get(t, ""), "player": p}
            for t, p in sorted(announced)
        ],
    })
    # One sealed entry for EVERY player (even with no move), so the number of hidden
    # journal entries says nothing about who gave orders.
    for player in players:
        record_private(player=player, kind="moves_carried_out", sealed=True, data={
            "moves": moves.get(player.pk, []),
            "missed_turns": player.missed_turns,
        })
