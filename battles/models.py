"""Battle records. The rules engines live in battles/rulesets/<name>/ (no Django)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from campaign.rulesets import DEFAULT as DEFAULT_RULESET


class Battle(models.Model):
    class Mode(models.TextChoices):
        """How a battle is resolved: the campaign option `battle_mode` names one."""

        ENGINE = "engine", "Resolved by the rules engine"
        TABLETOP = "tabletop", "Played on the table, result entered"

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
    ruleset_name = models.CharField(
        max_length=30, default=DEFAULT_RULESET,
        help_text="The tactical ruleset this battle was opened with (its input, replay and "
        "odds use it forever).")
    ruleset_version = models.CharField(max_length=20, default="1")
    input = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    log = models.JSONField(default=list, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    claim = models.CharField(
        max_length=64, blank=True, default="",
        help_text="The job (Celery task id) holding the running claim: the same job "
        "delivered again (a retry after a database error, a redelivery after its worker "
        "died) takes its claim back at once instead of waiting out the lease.")
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="When its job was last committed to be sent (the "
        "sweeper sends it again when no worker claimed it within the lease).")
    finished_at = models.DateTimeField(null=True, blank=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.ENGINE,
                            help_text="engine (a Celery job) or tabletop (results entered).")
    quarantined = models.BooleanField(
        default=False, help_text="The job failed battle_max_attempts times; only an umpire "
        "retry runs it again.")
    proposed_result = models.JSONField(
        null=True, blank=True, help_text="Tabletop: the result entered, awaiting confirmation.")
    proposed_by = models.ForeignKey("campaign.Player", null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    confirmations = models.JSONField(
        default=list, blank=True, help_text="Tabletop: ids of the players who confirmed.")

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


class BattleParticipant(models.Model):
    """A unit (and its pilot) fighting in one battle. The unique keys make the seed's
    "one character can only participate in one battle each strategic turn" a database
    invariant."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="participants")
    turn = models.PositiveIntegerField()
    unit = models.ForeignKey("economy.Unit", on_delete=models.CASCADE,
                             related_name="battle_participations")
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE, related_name="+")
    pilot = models.ForeignKey("economy.Operative", null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="battle_participations")
    origin = models.ForeignKey("territories.Territory", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+",
                               help_text="Where a command-center reinforcement came from.")
    reinforcement = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["unit", "turn"], name="one_battle_per_unit_per_turn"),
            models.UniqueConstraint(fields=["pilot", "turn"], condition=Q(pilot__isnull=False),
                                    name="one_battle_per_character_per_turn"),
        ]

    def __str__(self) -> str:
        return f"unit {self.unit_id} in battle {self.battle_id}"


class OddsRequest(models.Model):
    """A player's Monte Carlo estimate of a battle they could fight (one background job)."""

    Status = Battle.Status  # the same job life cycle as a battle's

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE,
                                 related_name="odds_requests")
    player = models.ForeignKey("campaign.Player", on_delete=models.CASCADE,
                               related_name="odds_requests")
    territory = models.ForeignKey("territories.Territory", on_delete=models.CASCADE,
                                  related_name="+")
    units = models.JSONField(default=list, blank=True)
    simulations = models.PositiveIntegerField(default=200)
    seed = models.BigIntegerField(default=0)
    input = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    # While its chunk jobs run on the worker pool: each finished chunk's whole counts,
    # by its first simulation (`battles.services.odds.run_odds_chunk`).
    partials = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"odds {self.pk} for player {self.player_id}"
