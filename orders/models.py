"""Sealed move orders and their receipts: the `orders` app sits above the economy and the
map (import-linter's layers), so an order names its unit and territories by foreign key
and its services import what they order.

The tables keep the names they had in the core (`campaign_order`,
`campaign_orderreceipt`): the models moved without their rows moving
(`orders/migrations/0001_initial.py`)."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from campaign.models import Campaign, Player, new_order_public_id
from economy.models import Unit
from territories.models import Territory


class Order(models.Model):
    """A sealed move order: where `unit` will be at the end of the move phase.

    Read only through `orders.selectors.orders_visible_to`. The API shows
    `public_id` as the order's id (random, so ids do not count other players' orders).
    """

    class Status(models.TextChoices):
        OPEN = "open", "Sealed, may still change"
        EXECUTED = "executed", "Revealed and carried out"
        VOID = "void", "Could not be carried out"

    public_id = models.BigIntegerField(unique=True, default=new_order_public_id,
                                       editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="orders")
    turn = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="orders")
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="orders")
    origin = models.ForeignKey(Territory, null=True, blank=True,
                               on_delete=models.CASCADE, related_name="+",
                               help_text="Null: the unit comes back from off the map.")
    destination = models.ForeignKey(Territory, on_delete=models.CASCADE,
                                    related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    announced = models.BooleanField(
        default=False, help_text="Set at the reveal: the move ended on a territory the "
        "mover did not own, so (territory, player) was announced.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: Not stored here: the receipt `order_submit` answered (`orders.services.receipts`).
    receipt: str = ""

    class Meta:
        db_table = "campaign_order"
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "unit"], name="one_order_per_unit_per_turn"),
            models.CheckConstraint(condition=~Q(origin=F("destination")),
                                   name="order_moves_somewhere"),
        ]

    def __str__(self) -> str:
        return f"order {self.pk} (turn {self.turn})"


class OrderReceipt(models.Model):
    """The last receipt a player was given for their sealed orders of one turn (issue 30,
    API.md "Trust (wave 3)"): SHA-256 over the canonical form of the whole sealed order
    set and a secret salt of this player and turn (`orders.services.receipts`). The
    salt and what was sealed are shown to the campaign once the turn's tactical phase has
    begun; before that only the player reads their own receipt."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="receipts")
    turn = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="receipts")
    salt = models.CharField(max_length=64)
    receipt = models.CharField(max_length=64, blank=True)
    sealed = models.TextField(blank=True, help_text="The canonical order set the receipt "
                              "hashes (JSON without spaces, sorted by unit).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_orderreceipt"
        ordering = ["turn", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "turn"],
                                    name="one_receipt_per_player_per_turn"),
        ]

    def __str__(self) -> str:
        return f"receipt of turn {self.turn}"
