"""Receipts for sealed orders (issue 30, API.md "Trust (wave 3)").

Every change a player makes to their sealed orders (an order given, replaced or withdrawn)
answers a receipt: the SHA-256 of the player's whole sealed order set of the turn after
that change, in canonical form, followed by a secret salt of that player and turn.

    canonical = JSON of [{"destination": territory id, "unit": unit id}, ...] sorted by
                unit, keys sorted, no spaces (`json.dumps(..., separators=(",", ":"),
                sort_keys=True)`)
    receipt   = sha256((canonical + salt).encode("utf-8")).hexdigest()

The salt keeps the receipt from telling anything about the orders while they are sealed
(without it, a receipt of a small order set could be found by trying every set). Once the
turn's tactical phase has begun, `GET /api/campaigns/{id}/receipts/?turn=N` shows every
player's last receipt, its salt and what it sealed: a player who kept their receipt checks
that what was revealed is what they sealed, and anyone can recompute each receipt. Nobody,
the umpire included, can change a sealed order afterwards without the receipt showing it.

Concurrency: `reseal` runs inside the order transaction, after the order row is written.
It first takes the player's receipt row of the turn (an upsert, which locks the row on
PostgreSQL), so two orders of one player sent at once reseal one after the other, and the
second reads the order set with the first's order in it (READ COMMITTED reads what was
committed before each statement). The receipt row comes last in the lock order.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from campaign import sql
from campaign.errors import Conflict
from campaign.models import Campaign, Phase, Player
from campaign.selectors import turn_revealed
from orders.models import Order, OrderReceipt


def canonical(moves: Iterable[tuple[int, int]]) -> str:
    """The canonical form of a sealed order set: (unit id, destination id) pairs."""
    return json.dumps([{"destination": destination, "unit": unit}
                       for unit, destination in sorted(moves)],
                      separators=(",", ":"), sort_keys=True)


def digest(sealed: str, salt: str) -> str:
    return hashlib.sha256((sealed + salt).encode("utf-8")).hexdigest()


def _salt(campaign: Campaign, player: Player) -> str:
    """The player's secret salt of the turn: an HMAC of the site's secret key, so nobody
    without it can guess it, and the same on every run of the same campaign (a receipt
    depends on the player's own orders and nothing else: the differential secrecy tests
    compare answers across worlds)."""
    message = f"order-receipt:{campaign.pk}:{player.pk}:{campaign.turn}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]


def reseal(*, campaign: Campaign, player: Player) -> str:
    """The player's new receipt for their sealed orders of `campaign.turn` (call inside the
    transaction that changed them, after the change). The receipt row taken (created with
    a new salt the first time), then the order set read and the receipt written: in one
    statement on PostgreSQL (the canonical text and SHA-256 computed there), two
    elsewhere."""
    now = timezone.now()
    receipts = sql.table(OrderReceipt)
    row = sql.fetch_one(
        f"INSERT INTO {receipts} (campaign_id, turn, player_id, salt, receipt, sealed, "
        "updated_at) VALUES (%s, %s, %s, %s, '', '', %s) ON CONFLICT (player_id, turn) "
        "DO UPDATE SET updated_at = EXCLUDED.updated_at RETURNING id, salt",
        [campaign.pk, campaign.turn, player.pk, _salt(campaign, player), now])
    assert row is not None  # an upsert always returns its row
    receipt_id, salt = row
    if connection.vendor == "postgresql":
        # The same canonical text and digest built in the database: one round trip
        # instead of a read and a write. Its snapshot is taken after the row lock above
        # (READ COMMITTED: per statement), so it reads what the read below would.
        found = sql.fetch_one(
            f"UPDATE {receipts} r SET sealed = s.sealed, receipt = encode(sha256("
            "convert_to(s.sealed || r.salt, 'UTF8')), 'hex') FROM (SELECT coalesce("
            "'[' || string_agg('{\"destination\":' || destination_id || ',\"unit\":' || "
            "unit_id || '}', ',' ORDER BY unit_id, destination_id) || ']', '[]') AS sealed "
            f"FROM {sql.table(Order)} WHERE campaign_id = %s AND turn = %s AND player_id = %s"
            ") s WHERE r.id = %s RETURNING r.receipt",
            [campaign.pk, campaign.turn, player.pk, receipt_id])
        assert found is not None  # the row taken above
        return str(found[0])
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT unit_id, destination_id FROM {sql.table(Order)} "
                       "WHERE campaign_id = %s AND turn = %s AND player_id = %s",
                       [campaign.pk, campaign.turn, player.pk])
        sealed = canonical(cursor.fetchall())
        receipt = digest(sealed, salt)
        cursor.execute(f"UPDATE {receipts} SET receipt = %s, sealed = %s WHERE id = %s",
                       [receipt, sealed, receipt_id])
    return receipt


def current_receipt(*, player: Player) -> str | None:
    """The player's last receipt of the campaign's current turn (their own page)."""
    return (OrderReceipt.objects.filter(player=player, turn=player.campaign.turn)
            .values_list("receipt", flat=True).first())


@dataclass(frozen=True)
class PublishedReceipt:
    player: int
    username: str
    receipt: str
    salt: str
    orders: list[dict[str, int]]
    #: what the receipt sealed is what was revealed, and the receipt is its hash
    matches: bool


def published_receipts(*, campaign: Campaign, turn: int) -> list[PublishedReceipt]:
    """Every player's last receipt of `turn` with its salt and what it sealed, once the
    turn is revealed (409 before: a receipt's existence would tell who gave orders). Two
    queries whatever the number of players."""
    if not turn_revealed(campaign, turn):
        raise Conflict(f"The orders of turn {turn} are still sealed: receipts are shown once "
                       "that turn's tactical phase has begun.", code="sealed")
    moves: dict[int, list[tuple[int, int]]] = {}
    for player_id, unit_id, destination_id in (
            Order.objects.filter(campaign=campaign, turn=turn)
            .values_list("player_id", "unit_id", "destination_id")):
        moves.setdefault(player_id, []).append((unit_id, destination_id))
    published = []
    for row in (OrderReceipt.objects.filter(campaign=campaign, turn=turn)
                .select_related("player__user").order_by("player_id")):
        shown = canonical(moves.get(row.player_id, []))
        published.append(PublishedReceipt(
            player=row.player_id, username=row.player.user.get_username(),
            receipt=row.receipt, salt=row.salt, orders=json.loads(row.sealed or "[]"),
            matches=shown == row.sealed and digest(row.sealed, row.salt) == row.receipt))
    return published


def forget_undone(*, campaign: Campaign, turn: int, phase: str) -> None:
    """A rollback to the start of (`turn`, `phase`) undoes the orders sealed since: the
    receipts given for them go too (the rollback itself is journaled for everyone). A
    rollback to a tactical start keeps its turn's receipts: its orders come back as they
    were revealed."""
    undone = OrderReceipt.objects.filter(campaign=campaign, turn__gt=turn)
    if phase != Phase.TACTICAL:
        undone = OrderReceipt.objects.filter(campaign=campaign, turn__gte=turn)
    undone.delete()


def forget_rolled_back(campaign: Campaign) -> None:
    """Rollback hook (`rollback_restored`, inside the rollback's transaction): the
    campaign is back at the start it rolled back to, its turn and phase that start's."""
    forget_undone(campaign=campaign, turn=campaign.turn, phase=campaign.phase)
