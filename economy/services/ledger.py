"""The Stellar Credits ledger: the only way credits are created, moved or destroyed.

Every change locks the player's row (SELECT ... FOR NO KEY UPDATE on PostgreSQL; SQLite
serialises writers anyway), checks the balance, writes an entry and updates the cached
balance in the same transaction. The database refuses a negative balance as well
(`credits_never_negative`, `ledger_balance_never_negative`), so a race that slipped
past the check would fail instead of overspending.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Sum

from campaign.bulk import update_rows
from campaign.errors import InvalidInput
from campaign.models import Player
from economy.models import LedgerEntry

# Reasons that create credits (from outside the players' economy) or destroy them.
CREATING_REASONS = frozenset({"starting_credits", "shipping", "discovery", "umpire_grant",
                              "artifact_sale"})
DESTROYING_REASONS = frozenset({"purchase", "umpire_take", "upgrade", "building"})
TRANSFER_REASONS = frozenset({"trade"})

MAX_AMOUNT = 10**12


class NotEnoughCredits(InvalidInput):
    code = "insufficient_credits"


def lock_player(player_id: int) -> Player:
    """Load the player row and its campaign's under row locks; call inside
    `transaction.atomic()`.

    FOR NO KEY UPDATE (a balance and a campaign's phase are not keys), not FOR UPDATE:
    it still queues two postings of one player, and a posting behind an advance (which
    locks the campaign FOR UPDATE), but no longer conflicts with the KEY SHARE lock a
    foreign key takes. Every battle recording's journal entries hold KEY SHARE on the
    campaign row (and on their viewers' player rows) until it commits; a recording that
    then credited a discovery asked for the campaign FOR UPDATE, and two such
    recordings waited for each other: a deadlock that held a tactical phase for a
    lease (issue 32; tests/integration/test_recording_deadlock.py)."""
    return (Player.objects.select_for_update(of=("self", "campaign"), no_key=True)
            .select_related("campaign").get(pk=player_id))


def post(
    *,
    player: Player,
    amount: int,
    reason: str,
    detail: str = "",
    related_kind: str = "",
    related_id: int | None = None,
) -> LedgerEntry:
    """Add `amount` (negative to spend) to the player's balance.

    Must run inside a transaction; locks the player's row. Raises NotEnoughCredits
    (and changes nothing) when the balance would go below zero.
    """
    if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
        raise InvalidInput("An amount of credits must be a non-zero whole number.")
    if abs(amount) > MAX_AMOUNT:
        raise InvalidInput(f"An amount of credits must be at most {MAX_AMOUNT}.")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("ledger.post must be called inside transaction.atomic()")
    locked = lock_player(player.pk)
    new_balance = locked.credits + amount
    if new_balance < 0:
        raise NotEnoughCredits(
            f"This costs {-amount} SC but you have {locked.credits} SC."
        )
    campaign = locked.campaign
    entry = LedgerEntry.objects.create(
        player=locked,
        amount=amount,
        reason=reason,
        detail=detail[:200],
        turn=campaign.turn,
        phase=campaign.phase,
        balance_after=new_balance,
        related_kind=related_kind,
        related_id=related_id,
    )
    Player.objects.filter(pk=locked.pk).update(credits=new_balance)
    player.credits = new_balance
    return entry


def spend(*, player: Player, amount: int, reason: str = "purchase", **kwargs: Any) -> LedgerEntry:
    """Take `amount` (> 0) credits from the player, or refuse with NotEnoughCredits."""
    if amount < 0:
        raise InvalidInput("A price cannot be negative.")
    return post(player=player, amount=-amount, reason=reason, **kwargs)


def balance_from_ledger(player: Player) -> int:
    """The balance recomputed from the entries (for audits and tests)."""
    return player.ledger.aggregate(total=Sum("amount"))["total"] or 0


class CreditBook:
    """Spending by many players at once (the clock's production): each spend is checked
    against the balance as it stands in memory, from player rows the caller read under
    row locks, and `flush` writes every entry and balance in two statements. The
    entries are the ones `post` would have written one by one, in the same order."""

    def __init__(self, players: list[Player], *, turn: int, phase: str) -> None:
        self.players = {p.pk: p for p in players}
        self.turn = turn
        self.phase = phase
        self.entries: list[LedgerEntry] = []
        self.changed: set[int] = set()

    def spend(self, *, player_id: int, amount: int, reason: str = "purchase",
              detail: str = "", related_kind: str = "", related_id: int | None = None
              ) -> LedgerEntry:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidInput("A price must be a positive whole number of credits.")
        player = self.players[player_id]
        new_balance = player.credits - amount
        if new_balance < 0:
            raise NotEnoughCredits(f"This costs {amount} SC but you have {player.credits} SC.")
        entry = LedgerEntry(player_id=player.pk, amount=-amount, reason=reason,
                            detail=detail[:200], turn=self.turn, phase=self.phase,
                            balance_after=new_balance, related_kind=related_kind,
                            related_id=related_id)
        self.entries.append(entry)
        player.credits = new_balance
        self.changed.add(player.pk)
        return entry

    def credit(self, *, player_id: int, amount: int, reason: str, detail: str = "",
               related_kind: str = "", related_id: int | None = None) -> LedgerEntry:
        """Credits created (a discovery's): `post` with a positive amount."""
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidInput("An amount of credits must be a positive whole number.")
        player = self.players[player_id]
        player.credits += amount
        entry = LedgerEntry(player_id=player.pk, amount=amount, reason=reason,
                            detail=detail[:200], turn=self.turn, phase=self.phase,
                            balance_after=player.credits, related_kind=related_kind,
                            related_id=related_id)
        self.entries.append(entry)
        self.changed.add(player.pk)
        return entry

    def flush(self) -> None:
        if self.entries:
            LedgerEntry.objects.bulk_create(self.entries)
        update_rows(Player, ["credits"], [(pk, self.players[pk].credits)
                                          for pk in sorted(self.changed)])
        self.entries, self.changed = [], set()
