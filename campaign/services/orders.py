"""Sealed move orders, the move-phase equipment exchange, missed turns and seat handover.

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

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from campaign import sql
from campaign.bulk import bulk_set
from campaign.errors import Conflict, InvalidInput, NotFound, WrongPhase
from campaign.models import Campaign, Event, Order, Phase, Player
from campaign.services import receipts
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict

log = logging.getLogger(__name__)

NO_SUCH_UNIT = "No such unit."
NO_SUCH_ORDER = "No such order."


# ---------------------------------------------------------------------------
# What orders ask the apps that own units and the map (registered in their ready(): the
# core imports neither). Territories: "territory" (campaign, territory id) -> (owner id or
# None, name) or None, and "legal_destinations" (player, origin id) -> territory ids.
# Economy: "unit" (player, unit id) -> OrderedUnit or None, the unit's row locked.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderedUnit:
    id: int
    status: str  # "ready", "off_map" or "destroyed"
    territory_id: int | None
    label: str


_providers: dict[str, Callable[..., Any]] = {}


def register_order_provider(name: str, provider: Callable[..., Any]) -> None:
    if name not in ("territory", "legal_destinations", "unit"):
        raise ValueError(f"no order provider called {name!r}")
    _providers[name] = provider


def _legal_destinations(*, player: Player, origin_id: int) -> set[int]:
    """The one place orders ask the movement graph where a unit may go."""
    return set(_providers["legal_destinations"](player, origin_id)) - {origin_id}


# ---------------------------------------------------------------------------
# Orders
# ---------------------------------------------------------------------------


def lock_campaign_in_phase(campaign_id: int, phase: str, what: str) -> Campaign:
    """The campaign row locked (`FOR UPDATE`), refused unless it is running in `phase`."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    _require_phase(campaign, phase, what)
    return campaign


def share_lock_in_phase(player: Player, phase: str, what: str) -> Campaign:
    """The player's campaign with its row share-locked (`FOR SHARE`): players' orders do
    not queue behind each other, but the advance's exclusive lock waits for every order
    in flight, and they for it (ARCHITECTURE.md, "Locks"). Refused unless it is running
    in `phase`. The campaign the player was read with (`access.seat`) is reused: only
    what an advance changes (status, phase, turn) is read again, under the lock, in one
    short statement (`campaign.sql`)."""
    campaign = player.campaign
    row = sql.fetch_one(f"SELECT status, phase, turn FROM {sql.table(Campaign)} "
                        f"WHERE id = %s{sql.lock_clause(shared=True)}", [campaign.pk])
    if row is None:
        raise Campaign.DoesNotExist(f"Campaign {campaign.pk} does not exist")
    campaign.status, campaign.phase, campaign.turn = row
    _require_phase(campaign, phase, what)
    return campaign


def _require_phase(campaign: Campaign, phase: str, what: str) -> None:
    if campaign.status != Campaign.Status.RUNNING or campaign.phase != phase:
        now = f"in the {campaign.phase} phase" if campaign.phase else campaign.status
        raise WrongPhase(f"{what} only in the {phase} phase; the campaign is {now}.")


def _destination(campaign: Campaign, destination_id: int) -> tuple[int | None, str]:
    destination: tuple[int | None, str] | None = _providers["territory"](campaign, destination_id)
    if destination is None:
        raise InvalidInput("No such territory in this campaign.",
                           fields={"destination": ["No such territory."]})
    return destination


def _own_unit(player: Player, unit_id: int) -> OrderedUnit:
    unit: OrderedUnit | None = _providers["unit"](player, unit_id)
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


def _replace_order(campaign: Campaign, unit_id: int, origin_id: int | None,
                   destination_id: int) -> Order | None:
    """The unit's order of this turn, given its new move in one statement (`UPDATE ...
    RETURNING`: PostgreSQL, and SQLite from 3.35); None when it has none yet. The
    caller holds the unit's row lock, so nobody else writes this order meanwhile."""
    table = connection.ops.quote_name(Order._meta.db_table)
    rows = list(Order.objects.raw(
        f"UPDATE {table} SET origin_id = %s, destination_id = %s, updated_at = %s "
        "WHERE campaign_id = %s AND turn = %s AND unit_id = %s RETURNING *",
        [origin_id, destination_id, timezone.now(), campaign.pk, campaign.turn, unit_id]))
    return rows[0] if rows else None


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


# ---------------------------------------------------------------------------
# Missed turns and seat handover
# ---------------------------------------------------------------------------


def record_missed_turns(*, campaign: Campaign) -> None:
    """Hook ("leave", "move"): a player who gave no order and did not mark ready missed
    the turn; the count resets otherwise. One umpire entry lists the misses and who
    reached the alert threshold (R-ORD-6); each player reads their own count in the
    sealed journal entry the reveal writes for them. A sandbox has one person at every
    seat and no deadlines: nobody misses anything there."""
    if campaign.is_sandbox:
        return
    ordered = set(Order.objects.filter(campaign=campaign, turn=campaign.turn)
                  .values_list("player_id", flat=True))
    alert_at = campaign.settings.missed_turns_alert
    missed: list[dict[str, Any]] = []
    alerts: list[dict[str, Any]] = []
    changed: list[Player] = []
    # An unclaimed (imported) seat has nobody to miss a turn (docs/RULINGS.md).
    for player in (Player.objects.select_for_update(of=("self",))
                   .filter(campaign=campaign, claim_code="").select_related("user")):
        if player.ready or player.pk in ordered:
            if player.missed_turns:
                player.missed_turns = 0
                changed.append(player)
            continue
        count = player.missed_turns + 1
        player.missed_turns = count
        changed.append(player)
        entry = {"player": player.pk, "username": player.user.get_username(),
                 "missed_turns": count}
        missed.append(entry)
        if count >= alert_at:
            alerts.append(entry)
    if changed:  # one statement for every seat
        bulk_set(changed, ["missed_turns"])
    record_event(campaign=campaign, kind="missed_turns",
                 data={"missed": missed, "alert": alerts, "alert_at": alert_at},
                 visibility=Event.Visibility.UMPIRE)


def seat_handover(*, campaign: Campaign, player_id: int, username: str) -> Player:
    """The umpire hands a seat (its territories, units, credits and orders) to another
    user (R-ORD-7)."""
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        player = Player.objects.select_for_update().filter(pk=player_id,
                                                           campaign=locked).first()
        if player is None:
            raise NotFound("No such player.")
        if user is None or not user.is_active:  # an imported seat's placeholder is none
            raise InvalidInput("No user with that name.", code="unknown_user",
                               fields={"username": ["No user with that name."]})
        if player.claim_code:  # R-SEC-3: nobody is seated without claiming
            raise Conflict("This imported seat waits for its claim code: send the code "
                           "on the umpire console to its player, who claims it.",
                           code="seat_unclaimed")
        held = Player.objects.filter(campaign=locked, user=user).first()
        # a removed player may be given their own seat back (R-ORD-11)
        if held is not None and not (held.pk == player.pk and player.removed_at is not None):
            raise Conflict("That user already has a seat in this campaign.",
                           code="already_joined")
        previous = player.user.get_username()
        player.user = user
        player.missed_turns = 0
        player.ready = False
        update = ["user", "missed_turns", "ready"]
        if player.removed_at is not None:  # a removed seat is played again (R-ORD-11)
            player.removed_at = None
            player.notifications = True
            update += ["removed_at", "notifications"]
        player.save(update_fields=update)
        record_event(campaign=locked, kind="seat_handed_over",
                     data={"player": player.pk, "from": previous,
                           "to": user.get_username()})
    return player

