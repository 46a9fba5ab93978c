"""Everything a player owns and spends: credits, buildings, goods, units, operatives."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import F, Q

from campaign.rules.tables import BUILDINGS, PILOT_CLASSES, WEAPONS

#: Model choices read from the seed's tables (written once, in campaign/rules/): the
#: admin, forms and the schema offer exactly the kinds the rules know.
BUILDING_KINDS = [(key, spec.name) for key, spec in BUILDINGS.items()]
PILOT_CLASS_KINDS = [(key, spec.name) for key, spec in PILOT_CLASSES.items()]
WEAPON_KINDS = [(key, spec.name) for key, spec in WEAPONS.items()]


def random_id() -> int:
    """A random 53-bit id (R-SEC-1): with sequential ids a player who buys, hires or
    trades twice could count what the others did in between."""
    return secrets.randbelow(2**53 - 1) + 1


class RandomIds:
    """`random_id` for many rows at once (the clock's production makes thousands): the
    same uniform draw from [1, 2**53 - 1], read from the system's randomness 256 ids at
    a time instead of one read per id."""

    BATCH = 256

    def __init__(self) -> None:
        self._ready: list[int] = []

    def __next__(self) -> int:
        while not self._ready:
            raw = secrets.token_bytes(7 * self.BATCH)
            for i in range(self.BATCH):
                value = int.from_bytes(raw[7 * i:7 * i + 7], "big") >> 3  # 53 bits
                if value:  # 0 is not an id; every other 53-bit value is
                    self._ready.append(value)
        return self._ready.pop()

    def __iter__(self) -> RandomIds:
        return self


def RandomId() -> models.BigIntegerField:
    """The primary key of rows whose count is another player's secret."""
    return models.BigIntegerField(primary_key=True, default=random_id, editable=False)

class LedgerEntry(models.Model):
    """One movement of Stellar Credits. A player's balance is the sum of its entries;
    `Player.credits` caches it and the database refuses a negative cache."""

    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                               related_name="ledger")
    amount = models.BigIntegerField(help_text="Positive: credits in; negative: credits out.")
    reason = models.CharField(max_length=40)
    detail = models.CharField(max_length=200, blank=True, default="")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10, blank=True, default="")
    balance_after = models.BigIntegerField()
    related_kind = models.CharField(max_length=40, blank=True, default="")
    related_id = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=Q(balance_after__gte=0),
                                   name="ledger_balance_never_negative"),
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} SC {self.reason}"


class Building(models.Model):
    """A building on one square of a territory's 16x16 map."""

    territory = models.ForeignKey("territories.Territory", on_delete=models.CASCADE,
                                  related_name="buildings")
    kind = models.CharField(max_length=30, choices=BUILDING_KINDS)
    x = models.PositiveSmallIntegerField()
    y = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=False)
    hit_points = models.PositiveIntegerField()
    upgrades = models.JSONField(default=list, blank=True)
    product = models.JSONField(
        default=list, blank=True, help_text="Factory product line: its items' codes "
        "(\"vehicle:golem\", \"weapon:cannon:heavy\", \"building:turret\"); empty when none "
        "is chosen.")
    next_product = models.JSONField(
        default=list, blank=True, help_text="Factory: the line it is being refitted to "
        "(item codes), empty when no refit is under way.")
    missiles = models.PositiveSmallIntegerField(default=0, help_text="Missile silo stock.")
    built_turn = models.PositiveIntegerField(default=0)
    refit_turn = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="Factory: the turn whose activity phase is spent refitting (no output).")
    weapon = models.OneToOneField(
        "economy.Weapon", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="turret",
        help_text="Turret (or turret mount): the one weapon it is fitted with (R-ECO-17).")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["territory", "x", "y"], name="one_building_per_square"),
            models.CheckConstraint(condition=Q(x__lt=16, y__lt=16), name="building_inside_grid"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} at ({self.x},{self.y})"


class Stock(models.Model):
    """Resource units held in the warehouses of one territory."""

    territory = models.ForeignKey("territories.Territory", on_delete=models.CASCADE,
                                  related_name="stock")
    resource = models.CharField(max_length=30)
    refined = models.BooleanField(default=False)
    pure = models.BooleanField(default=False)
    units = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["territory", "resource", "refined", "pure"],
                                    name="one_stock_row_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.units} {self.resource}"


class Operative(models.Model):
    """A hired pilot of one of the four classes."""

    id = RandomId()
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                               related_name="operatives")
    territory = models.ForeignKey("territories.Territory", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="operatives")
    klass = models.CharField("class", max_length=20, choices=PILOT_CLASS_KINDS)
    name = models.CharField(max_length=60, blank=True, default="")
    level = models.PositiveSmallIntegerField(default=1)
    xp = models.PositiveIntegerField(default=0)
    alive = models.BooleanField(default=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        from economy.labels import pilot_label  # noqa: PLC0415 (cycle: economy.models -> economy.labels -> economy.models)

        return pilot_label(self)


class Unit(models.Model):
    """A unit a player fields: an Unlimit3d 8 vehicle or exo armour (with its pilot, fitted
    weapons and damage), or a unit of the campaign's tactical ruleset (`model` is its
    catalogue key, `profile` what it was bought as, `state` its campaign state in that
    ruleset's terms: figures left, training, vehicle damage...)."""

    class Status(models.TextChoices):
        READY = "ready", "Ready"
        OFF_MAP = "off_map", "Off the map after a failed retreat"
        DESTROYED = "destroyed", "Destroyed"

    id = RandomId()
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE, related_name="units")
    territory = models.ForeignKey("territories.Territory", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="units")
    model = models.CharField(max_length=60)
    name = models.CharField(max_length=60, blank=True, default="")
    profile = models.JSONField(default=dict, blank=True)
    state = models.JSONField(default=dict, blank=True)
    pilot = models.OneToOneField(Operative, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="unit")
    damage_repairable = models.PositiveIntegerField(default=0)
    damage_unrepairable = models.PositiveIntegerField(default=0)
    extension = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    locked_until_turn = models.PositiveIntegerField(
        default=0, help_text="No change of equipment or pilot before this turn.")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        from economy.labels import unit_label  # noqa: PLC0415 (cycle: economy.models -> economy.labels -> economy.models)

        return unit_label(self)


class Weapon(models.Model):
    """A weapon or piece of equipment: fitted to a unit's slot, or stored in a container."""

    id = RandomId()
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                               related_name="weapons")
    territory = models.ForeignKey("territories.Territory", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="weapons")
    weapon = models.CharField(max_length=30, choices=WEAPON_KINDS)
    name = models.CharField(max_length=60, blank=True, default="",
                            help_text="Given by its owner; blank: known by its model.")
    templates = models.JSONField(default=list, blank=True)
    unit = models.ForeignKey(Unit, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="weapons")
    slot = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["unit", "slot"], condition=Q(unit__isnull=False),
                                    name="one_weapon_per_slot"),
        ]

    def __str__(self) -> str:
        from economy.labels import weapon_label  # noqa: PLC0415 (cycle: economy.models -> economy.labels -> economy.models)

        return weapon_label(self)


class Shipment(models.Model):
    """Containers shipped to the mining cooperatives from one territory in one turn
    (seed, "Landing pad": five containers each commercial turn for each landing pad)."""

    id = RandomId()
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                               related_name="shipments")
    territory = models.ForeignKey("territories.Territory", on_delete=models.CASCADE,
                                  related_name="shipments")
    turn = models.PositiveIntegerField()
    containers = models.PositiveSmallIntegerField()
    value = models.PositiveIntegerField()
    cargo = models.JSONField(default=list)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["territory", "turn"])]

    def __str__(self) -> str:
        return f"shipment of {self.containers} containers ({self.value} SC)"


class Trade(models.Model):
    """An offer between two players: `give` from the proposer against `receive` from the
    recipient. Settled all at once on acceptance, or not at all."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    id = RandomId()
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="trades")
    from_player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                                    related_name="trades_offered")
    to_player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                                  related_name="trades_received")
    give = models.JSONField(default=dict)
    receive = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    turn = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(from_player=F("to_player")),
                                   name="trade_between_two_players"),
        ]

    def __str__(self) -> str:
        return f"trade {self.pk} ({self.status})"


class BuildingKit(models.Model):
    """The elements of one building, made by a factory whose product line is that
    building (seed, "Factory": "elements for either one building, ..."); placed for free
    in the commercial phase (R-ECO-18)."""

    id = RandomId()
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                               related_name="building_kits")
    territory = models.ForeignKey("territories.Territory", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="building_kits",
                                  help_text="Where the factory made it.")
    kind = models.CharField(max_length=30, choices=BUILDING_KINDS)
    made_turn = models.PositiveIntegerField(default=0)
    used_turn = models.PositiveIntegerField(null=True, blank=True)
    building = models.OneToOneField(Building, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="kit",
                                    help_text="The building it became.")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind.replace('_', ' ')} kit"


class Artifact(models.Model):
    """A xenotechnologic artifact found by an exploration (seed, exploration table, 7:
    "You can either sell it for 200 credits or house it in a laboratory, allowing it to
    produce twice as many research points / turn"). R-ECO-19."""

    class Status(models.TextChoices):
        KEPT = "kept", "Kept (housed in a laboratory when there is one)"
        SOLD = "sold", "Sold"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="artifacts")
    exploration = models.OneToOneField("territories.Exploration", on_delete=models.CASCADE,
                                       related_name="artifact")
    territory = models.ForeignKey("territories.Territory", on_delete=models.CASCADE,
                                  related_name="artifacts",
                                  help_text="Where it was found.")
    laboratory = models.ForeignKey(Building, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="artifacts",
                                   help_text="The laboratory chosen to house it.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.KEPT)
    sold_turn = models.PositiveIntegerField(null=True, blank=True)
    sold_by = models.ForeignKey("campaign.Player", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"artifact of {self.territory_id} ({self.status})"
