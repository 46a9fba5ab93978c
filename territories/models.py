"""The meta-map (territories, adjacency, ownership, passage) and exploration."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q


class Territory(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="territories")
    name = models.CharField(max_length=80)
    owner = models.ForeignKey("campaign.Player", null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="territories")
    ever_owned = models.BooleanField(default=False,
                                     help_text="Explored: someone has owned it before.")
    x = models.FloatField(default=0.0, help_text="Stored layout position (0..1).")
    y = models.FloatField(default=0.0, help_text="Stored layout position (0..1).")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="territory_name_unique"),
        ]
        verbose_name_plural = "territories"

    def __str__(self) -> str:
        return self.name


class Adjacency(models.Model):
    """An undirected edge of the meta-map, stored once with a < b."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="adjacencies")
    a = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="adjacency_unique"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="adjacency_ordered"),
        ]
        verbose_name_plural = "adjacencies"

    def __str__(self) -> str:
        return f"{self.a_id}-{self.b_id}"


class Passage(models.Model):
    """Right of passage: `grantee` may treat `territory` (owned by `grantor`) as its own
    for movement."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="passages")
    grantor = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                                related_name="passages_granted")
    grantee = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                                related_name="passages_received")
    territory = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="passages")
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["grantee", "territory"], name="passage_unique"),
            models.CheckConstraint(condition=~Q(grantor=F("grantee")), name="passage_not_self"),
        ]

    def __str__(self) -> str:
        return f"passage {self.grantor_id}->{self.grantee_id} over {self.territory_id}"


class Exploration(models.Model):
    """The exploration roll of a territory (3d8) and everything it decided."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="explorations")
    territory = models.OneToOneField(Territory, on_delete=models.CASCADE,
                                     related_name="exploration")
    player = models.ForeignKey("campaign.Player", null=True, on_delete=models.SET_NULL,
                               related_name="explorations")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10, blank=True, default="",
                             help_text="The phase whose dice rolled it (verifiable dice).")
    active_die = models.PositiveSmallIntegerField()
    passive_die = models.PositiveSmallIntegerField()
    nemesis_die = models.PositiveSmallIntegerField()
    resource = models.CharField(max_length=30)
    units_per_shaft = models.PositiveSmallIntegerField()
    pure = models.BooleanField(default=False)
    unstable = models.BooleanField(default=False)
    discovery = models.CharField(max_length=20, blank=True, default="",
                                 help_text="shipwreck, xenotech, artifact, xeno_craft or empty")
    discovery_die = models.PositiveSmallIntegerField(null=True, blank=True)
    value_die = models.PositiveSmallIntegerField(null=True, blank=True)
    credits_awarded = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(active_die__gte=1, active_die__lte=8)
                                   & Q(passive_die__gte=1, passive_die__lte=8)
                                   & Q(nemesis_die__gte=1, nemesis_die__lte=8),
                                   name="exploration_dice_are_d8"),
            # "There can only be one craft in a campaign."
            models.UniqueConstraint(fields=["campaign"], condition=Q(discovery="xeno_craft"),
                                    name="one_xeno_craft_per_campaign"),
        ]

    def __str__(self) -> str:
        return f"exploration of {self.territory_id}: {self.resource}"
