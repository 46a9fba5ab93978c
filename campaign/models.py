"""The core of a league: campaigns, their players, the clock and the journal (sealed
orders are the `orders` app's, above the economy and the map they order)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.options import CampaignOptions


class Phase(models.TextChoices):
    COMMERCIAL = "commercial", "Commercial"
    ACTIVITY = "activity", "Activity"
    MOVE = "move", "Move"
    TACTICAL = "tactical", "Tactical"


PHASE_ORDER: tuple[str, ...] = tuple(Phase.values)


class Profile(models.Model):
    """Per-user preferences: time zone for showing deadlines, notification opt-outs."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    time_zone = models.CharField(max_length=64, default="UTC")
    email_notifications = models.BooleanField(default=True)
    #: The address the user proved they read (the link mailed to it was opened): mail
    #: goes to `user.email` only while it equals this (issue 17).
    email_verified = models.EmailField(blank=True, default="")
    #: Notification kinds the user does not want by email (issue 17: per-kind choices).
    muted_kinds = models.JSONField(default=list, blank=True)
    #: One email a day instead of one per event (reminders still go at once), and what
    #: waits for it.
    digest = models.BooleanField(default=False)
    digest_pending = models.JSONField(default=list, blank=True)
    digest_sent_at = models.DateTimeField(null=True, blank=True)
    #: The secret in the user's calendar feed address (`GET /api/users/me/`).
    calendar_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


def new_invite_code() -> str:
    """An unguessable invitation code (a campaign's number alone admits nobody)."""
    return secrets.token_urlsafe(12)


class Campaign(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Set-up"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    umpire = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="umpired_campaigns")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    turn = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=10, choices=Phase.choices, blank=True, default="")
    phase_started_at = models.DateTimeField(null=True, blank=True)
    phase_deadline = models.DateTimeField(null=True, blank=True)
    invite_code = models.CharField(max_length=32, default=new_invite_code,
                                   help_text="Players join with it (setting invite_only).")
    paused = models.BooleanField(default=False)
    paused_remaining = models.DurationField(null=True, blank=True)
    seed = models.BigIntegerField(default=0, help_text="Seeds every die of this campaign.")
    options = models.JSONField(default=dict, blank=True,
                               help_text="Per-campaign settings that differ from the defaults.")
    map_spec = models.JSONField(default=dict, blank=True,
                                help_text="How the meta-map was made (generator or import).")
    reminder_key = models.CharField(
        max_length=40, blank=True, default="",
        help_text="'turn:phase' whose deadline reminder was sent (sent once per phase).")
    created_at = models.DateTimeField(auto_now_add=True)
    #: A private "what if" copy of another campaign (issue 18): it never notifies, and its
    #: umpire (the member who cloned it) plays every seat in turn (`sandbox_seat`).
    is_sandbox = models.BooleanField(default=False)
    sandbox_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="sandboxes")
    sandbox_seat = models.ForeignKey("Player", null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+",
                                     help_text="The seat the sandbox's owner plays now.")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "phase_deadline"])]

    def __str__(self) -> str:
        return self.name

    @property
    def settings(self) -> CampaignOptions:
        return CampaignOptions(self.options)


class Player(models.Model):
    """A seat in a campaign. The user may change when the umpire hands the seat over."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="seats")
    color = models.CharField(max_length=7, default="#888888")
    credits = models.BigIntegerField(default=0, help_text="Cached sum of the ledger.")
    research_points = models.PositiveIntegerField(default=0)
    ready = models.BooleanField(default=False)
    missed_turns = models.PositiveIntegerField(default=0)
    notifications = models.BooleanField(
        default=True, help_text="Send this seat's notifications (email and mentions).")
    joined_at = models.DateTimeField(auto_now_add=True)
    #: False while the umpire has not approved the seat (setting `approve_joins`).
    approved = models.BooleanField(default=True)
    #: The faction chosen when joining a campaign whose ruleset has factions (one of its
    #: `factions` keys); blank otherwise. It belongs to the seat: a handover keeps it.
    faction = models.CharField(max_length=40, blank=True, default="")
    #: Absence and the stand-in (`campaign.services.absence`, API.md "Reach and absence").
    #: Administration, not game state: a rollback keeps them.
    away_from = models.DateTimeField(null=True, blank=True)
    away_until = models.DateTimeField(null=True, blank=True,
                                      help_text="Declared absence: the stand-in plays the "
                                      "seat until then.")
    away_days_used = models.PositiveIntegerField(
        default=0, help_text="Days of absence this seat has used up (ended absences).")
    stand_in = models.BooleanField(
        default=False, help_text="The stand-in plays the seat: it missed `stand_in_after` "
        "deadlines in a row. The player's first action takes the seat back.")
    deadlines_met = models.PositiveIntegerField(default=0)
    deadlines_missed = models.PositiveIntegerField(default=0)
    missed_in_row = models.PositiveIntegerField(default=0)
    #: Set when the umpire removed the seat's player while the campaign ran (R-ORD-11):
    #: the seat stays with everything it holds, nobody plays it, and the removed user no
    #: longer sees the campaign, until the umpire hands the seat to someone else.
    removed_at = models.DateTimeField(null=True, blank=True)
    #: An imported seat nobody has claimed yet (API.md "Trust (wave 3)"): its `user` is a
    #: placeholder account that cannot sign in, and whoever gives the umpire's code here
    #: takes the seat (`campaign.services.claims`). Empty once claimed, and for every seat
    #: taken by joining.
    claim_code = models.CharField(max_length=32, blank=True, default="", db_index=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_seat_per_user"),
            models.CheckConstraint(condition=Q(credits__gte=0), name="credits_never_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}"


class PhaseChange(models.Model):
    """One row per (campaign, turn, phase) ever opened: makes a double advance impossible."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="phase_changes")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10, choices=Phase.choices)
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.CharField(max_length=40, help_text="umpire, deadline, all_ready, start")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "turn", "phase"],
                                    name="one_opening_per_phase"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} turn {self.turn} {self.phase}"


def new_order_public_id() -> int:
    """A random id for the API: sequential ids would tell how many orders others made."""
    return secrets.randbelow(2**53 - 1) + 1


#: Journal entries too: a player's own private entries must not count everyone else's.
new_event_public_id = new_order_public_id


class Event(models.Model):
    """The journal. Who may read an entry is stored with it and filtered in one place
    (`campaign.selectors.events_visible_to`)."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Everybody in the campaign"
        UMPIRE = "umpire", "The umpire only"
        PRIVATE = "private", "The listed players (and the umpire unless sealed)"

    public_id = models.BigIntegerField(unique=True, default=new_event_public_id,
                                       editable=False,
                                       help_text="The id clients see (random: see R-SEC-1).")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10, blank=True, default="")
    kind = models.CharField(max_length=60)
    at = models.DateTimeField(auto_now_add=True)
    data = models.JSONField(default=dict, blank=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    viewers = models.ManyToManyField(Player, blank=True, related_name="private_events")
    sealed = models.BooleanField(
        default=False,
        help_text="Holds sealed-order information: hidden from the umpire unless the "
        "campaign lets the umpire read orders (and the umpire does not play).",
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["campaign", "turn", "id"])]

    def __str__(self) -> str:
        return f"{self.kind} (turn {self.turn} {self.phase})"


class TurnSnapshot(models.Model):
    """Each player's counts at the end of a strategic turn (written when the tactical
    phase is left), for the history charts. Territories are public (the map shows
    owners); credits and units are the player's own and shown only to that player and
    to an umpire who does not play (`campaign.pages.charts` decides)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshots")
    turn = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="snapshots")
    territories = models.PositiveIntegerField(default=0)
    credits = models.IntegerField(default=0)
    units = models.PositiveIntegerField(default=0)
    research_points = models.IntegerField(default=0)

    class Meta:
        ordering = ["turn", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "turn", "player"],
                                    name="one_snapshot_per_player_per_turn"),
        ]

    def __str__(self) -> str:
        return f"turn {self.turn} of player {self.player_id}"


class Notification(models.Model):
    """One notification sent (or being sent) to one recipient: a seat's email, or the
    campaign's webhook. The unique key makes a redelivered `campaign.tasks.notify` send
    each message once."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="notifications_sent")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10)
    kind = models.CharField(max_length=20)
    recipient = models.CharField(max_length=40, help_text="player:<id> or webhook")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "turn", "phase", "kind", "recipient"],
                                    name="one_notification_per_recipient"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient} (turn {self.turn} {self.phase})"


class OutboxMessage(models.Model):
    """A background job committed with the change that causes it (a transactional outbox).

    Written in the same transaction as the battle, notification or odds request it runs
    for; sent to the broker after commit, and by `campaign.tasks.drain_outbox` (beat) if
    the broker was unreachable then. A job is never lost with a Redis outage: it waits
    here until it is sent. Tasks are idempotent, so a job sent twice does its work once.
    """

    task = models.CharField(max_length=100, help_text="Celery task name.")
    args = models.JSONField(default=list, blank=True)
    countdown = models.FloatField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker finished the job (a job sent but "
        "never finished, e.g. lost with a Redis restart, is sent again).")
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["sent_at", "id"], name="outbox_unsent")]

    def __str__(self) -> str:
        state = "sent" if self.sent_at else "waiting"
        return f"{self.task}{tuple(self.args)} ({state})"


class RequestKey(models.Model):
    """A client's key for one umpire action whose repeat would apply twice (a correction of
    credits or goods): claimed in the same transaction as the action, so a double click, a
    retried request or two tabs apply it once."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "key"],
                                               name="one_action_per_request_key")]

    def __str__(self) -> str:
        return f"request {self.key}"


class Message(models.Model):
    """A message between players (API.md "History, spectators, people"): to one player,
    or to everyone (`recipient` empty). Random ids, so their count says nothing of the
    private messages between others (R-SEC-1)."""

    id = models.BigIntegerField(primary_key=True, default=new_order_public_id, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="messages")
    sender = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sent_messages")
    recipient = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="received_messages")
    text = models.TextField(max_length=2000)
    turn = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=10, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["campaign", "created_at"])]

    def __str__(self) -> str:
        return f"message {self.pk} in campaign {self.campaign_id}"


class MessageRead(models.Model):
    """How far one reader has read one thread of a campaign's messages: the thread with
    one correspondent, or the table's channel (`correspondent` empty). Messages of the
    thread written after `read_until` are unread. Keyed by the user, so the umpire who
    reads the table's channel has a marker too."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE,
                                 related_name="message_reads")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="message_reads")
    correspondent = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                                      related_name="+")
    read_until = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user", "correspondent"],
                                    condition=models.Q(correspondent__isnull=False),
                                    name="one_read_marker_per_private_thread"),
            models.UniqueConstraint(fields=["campaign", "user"],
                                    condition=models.Q(correspondent__isnull=True),
                                    name="one_read_marker_per_table_channel"),
        ]

    def __str__(self) -> str:
        return f"read marker of user {self.user_id} in campaign {self.campaign_id}"


class PhaseSeed(models.Model):
    """The secret seed of one phase's dice and its public commitment (issue 18): the
    SHA-256 of the seed is published when the phase opens; the seed itself once the
    phase is over, so anyone can recompute every roll of it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seeds")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10)
    secret = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["turn", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "turn", "phase"],
                                               name="one_seed_per_phase")]

    def __str__(self) -> str:
        return f"dice of {self.campaign_id} turn {self.turn} {self.phase}"


class PhaseStart(models.Model):
    """The whole campaign as it stood when a phase opened (after the clock's work), kept
    so the umpire can roll back to it (issue 18). Internal: it holds sealed orders and
    secret seeds, and no route ever shows it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="starts")
    turn = models.PositiveIntegerField()
    phase = models.CharField(max_length=10)
    #: The document as kept (the column "document"): a complete export, except that a
    #: start kept since issue 32 names its journal by its last entry's id
    #: (`JOURNAL_THROUGH`) instead of copying every entry, so keeping one costs the same
    #: however old the campaign is. The journal is append-only (entries are never changed
    #: and only a rollback deletes, and only entries made after its point), so the entries
    #: up to that id are the journal as it stood.
    stored = models.JSONField(db_column="document")
    created_at = models.DateTimeField(auto_now_add=True)

    JOURNAL_THROUGH = "journal_through"

    class Meta:
        ordering = ["turn", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "turn", "phase"],
                                               name="one_start_per_phase")]

    def __str__(self) -> str:
        return f"start of turn {self.turn} {self.phase} of {self.campaign_id}"

    @property
    def journal_through(self) -> int | None:
        """The last journal entry the start holds (None: the start copies its journal)."""
        stored = self.stored
        if isinstance(stored, dict) and self.JOURNAL_THROUGH in stored:
            return int(stored[self.JOURNAL_THROUGH])
        return None

    @property
    def document(self) -> Any:
        """The complete export as it stood, journal included (read from the journal's
        rows when the start names it by id)."""
        through = self.journal_through
        if through is None:
            return self.stored
        from campaign.services.export import journal_until  # noqa: PLC0415 (cycle: campaign.models -> campaign.services.export -> campaign.models)

        document = {k: v for k, v in self.stored.items() if k != self.JOURNAL_THROUGH}
        document["journal"] = journal_until(self.campaign_id, through)
        return document

    @document.setter
    def document(self, value: Any) -> None:
        self.stored = value


class Channel(models.Model):
    """A chat or push address (Discord, Matrix, Slack, Telegram, ntfy...) that
    notifications are also posted to: a user's own (`user`, their notifications of the
    kinds they chose) or a campaign's (`campaign`, public events only). The address is
    a secret (it carries the webhook's token): kept encrypted (`campaign.channels`),
    shown back only as `service` and the last characters in `hint`, never exported."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="channels", null=True, blank=True)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="channels",
                                 null=True, blank=True)
    service = models.CharField(max_length=20, help_text="The transport's scheme key.")
    address_encrypted = models.TextField()
    hint = models.CharField(max_length=8, help_text="The address's last characters.")
    created_at = models.DateTimeField(auto_now_add=True)
    #: A "send a test" waiting for its job (the job sends only while this matches).
    test_token = models.CharField(max_length=32, blank=True, default="")
    #: What happened to the last message posted, in a sentence, and when.
    last_outcome = models.CharField(max_length=200, blank=True, default="")
    last_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(
            condition=Q(user__isnull=False, campaign__isnull=True)
            | Q(user__isnull=True, campaign__isnull=False), name="channel_has_one_owner")]

    def __str__(self) -> str:
        return f"{self.service} channel …{self.hint}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the push service's endpoint and the
    browser's keys), saved when its user pressed "enable push on this device"; deleted
    when they turn it off or the push service says it is gone (404/410)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"push subscription of {self.user_id}"


class VapidKey(models.Model):
    """The site's VAPID key pair when the settings give none (development): generated
    once, on first use, and kept here so every process signs with the same key."""

    private_pem = models.TextField()
    public_key = models.CharField(max_length=200, help_text="base64url, uncompressed point")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return "VAPID key pair"
