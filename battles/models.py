"""Battle records. The rules engine itself lives in battles/engine/ (no Django)."""

from __future__ import annotations

from django.db import models


class Battle(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="battles")
    turn = models.PositiveIntegerField()
    territory = models.ForeignKey("territories.Territory", on_delete=models.CASCADE,
                                  related_name="battles")
    order = models.PositiveSmallIntegerField(default=0, help_text="Order of play this turn.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    sides = models.JSONField(default=list, blank=True)
    defender = models.ForeignKey("campaign.Player", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    winner = models.ForeignKey("campaign.Player", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    seed = models.BigIntegerField(default=0)
    input = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    log = models.JSONField(default=list, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["turn", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "turn", "territory"],
                                    name="one_battle_per_territory_per_turn"),
        ]

    def __str__(self) -> str:
        return f"battle {self.pk} (turn {self.turn})"


class BattleRecord(models.Model):
    """Proof that a battle's result was written into the campaign. Its one-to-one key
    makes recording idempotent: a job delivered twice cannot record twice."""

    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, related_name="record")
    recorded_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=20, default="engine", help_text="engine or tabletop")

    def __str__(self) -> str:
        return f"record of battle {self.battle_id}"
