"""Input and output shapes of the core API (API.md: accounts and campaigns)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaign import rulesets
from campaign.api.fields import TextField, WholeNumberField
from campaign.models import Campaign, Player
from campaign.services.absence import stood_in


class UserCreateSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+$", max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("This username is taken.")
        return value

    def validate(self, attrs: dict) -> dict:
        user = get_user_model()(username=attrs["username"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class MapSpecSerializer(serializers.Serializer):
    """Either a generator or an explicit list of nodes and edges (checked in depth by
    territories.services.maps.clean_map_spec)."""

    generator = serializers.ChoiceField(choices=["hex", "random"], required=False)
    territories = serializers.IntegerField(required=False)
    seed = serializers.IntegerField(required=False)
    nodes = serializers.ListField(child=serializers.CharField(max_length=80), required=False)
    edges = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=80)), required=False
    )


class CampaignCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    map = serializers.DictField()
    settings = serializers.DictField(required=False, default=dict)


@extend_schema_field({"type": "string", "nullable": True})
class KeyTextField(serializers.Field):
    """A key the service compares (an invite code, a faction) as sent: text stays text;
    any other JSON value becomes its JSON text, which is never a valid key, so the service
    refuses it in its own words and code (403 `invite_required`, 400 `unknown_faction`
    naming the choices) as it does a mistyped one."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, allow_null=True, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        return data if isinstance(data, str) else json.dumps(data)[:40]

    def to_representation(self, value: Any) -> Any:
        return value


class JoinSerializer(serializers.Serializer):
    """The join body (API.md): the invite code when the campaign is invite-only; the
    faction in a campaign whose ruleset has factions (`GET /api/rulesets/`). Checked by
    the service (`campaign_join`); their types here."""

    invite = KeyTextField()
    faction = KeyTextField(
        help_text="One of the ruleset's `factions`; required when it has factions, "
        "refused when it has none.")


class DeadlineRecordSerializer(serializers.Serializer):
    met = serializers.IntegerField(source="deadlines_met")
    missed = serializers.IntegerField(source="deadlines_missed")


class PlayerSummarySerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    faction = serializers.CharField(
        read_only=True, help_text="The seat's faction (empty for rulesets without "
        "factions).")
    stand_in = serializers.SerializerMethodField(
        help_text="The stand-in plays the seat (its player is away, or missed "
        "`stand_in_after` deadlines in a row).")
    away_until = serializers.DateTimeField(read_only=True, allow_null=True)
    deadlines = DeadlineRecordSerializer(source="*", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "username", "ready", "color", "faction", "stand_in", "away_until",
                  "deadlines"]

    def get_stand_in(self, player: Player) -> bool:
        return stood_in(player)


class CampaignSerializer(serializers.ModelSerializer):
    players = PlayerSummarySerializer(many=True, read_only=True)
    umpire = serializers.CharField(source="umpire.username")
    umpire_id = serializers.IntegerField(read_only=True)
    settings = serializers.SerializerMethodField()
    territory_count = serializers.SerializerMethodField()
    ruleset = serializers.SerializerMethodField()
    sandbox = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["id", "name", "status", "turn", "phase", "phase_deadline", "paused",
                  "players", "umpire", "umpire_id", "settings", "territory_count", "created_at",
                  "ruleset", "sandbox"]

    @extend_schema_field({"type": "object", "nullable": True, "properties": {
        "of": {"type": "integer", "nullable": True},
        "seat": {"type": "integer", "nullable": True}}})
    def get_sandbox(self, obj: Campaign) -> dict | None:
        """Issue 18: a private "what if" copy (of which campaign; the seat played now)."""
        if not obj.is_sandbox:
            return None
        return {"of": obj.sandbox_of_id, "seat": obj.sandbox_seat_id}

    @extend_schema_field({"type": "object", "properties": {
        "name": {"type": "string"}, "version": {"type": "string"}}})
    def get_ruleset(self, obj: Campaign) -> dict:
        """API.md, "Rulesets": the tactical ruleset the campaign's battles use."""
        name = obj.settings.ruleset
        info = rulesets.get(name)
        return {"name": name, "version": info.version if info else None}

    def get_settings(self, obj: Campaign) -> dict:
        return obj.settings.as_dict()

    def get_territory_count(self, obj: Campaign) -> int:
        annotated = getattr(obj, "territory_count", None)
        return annotated if annotated is not None else obj.territories.count()


#: The phases a request may name, in the clock's order (`AdvancePhaseEnum` in the schema).
REQUEST_PHASES = ["commercial", "activity", "move", "tactical"]


class AdvanceSerializer(serializers.Serializer):
    """The (turn, phase) the caller advances from: a repeated or stale request (a double
    click, a retry, two umpire tabs) then changes nothing."""

    turn = serializers.IntegerField(min_value=0, max_value=1_000_000)
    phase = serializers.ChoiceField(choices=REQUEST_PHASES)


class PhaseStartIn(AdvanceSerializer):
    """A phase start kept for rolling back or cloning: the current phase's or the previous
    one's (the service says which are kept)."""


class RollbackIn(PhaseStartIn):
    reason = serializers.CharField(required=False, allow_blank=True, default="",
                                   max_length=500)


class SeatIn(serializers.Serializer):
    player = serializers.IntegerField(help_text="The seat (player id) to play from now on.")


class ClaimIn(serializers.Serializer):
    code = TextField(max_length=64, help_text="The claim code the umpire gave.")


class MessageIn(serializers.Serializer):
    to = WholeNumberField(allow_null=True, required=False,
                          help_text="a player id, or null for everyone")
    # Blank and too long are the service's refusals (code invalid_text), as on the page.
    text = TextField(allow_blank=True, trim_whitespace=False,
                     help_text="1 to 2000 characters.")


class TurnPhaseSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    changed = serializers.BooleanField()
    jobs_waiting = serializers.IntegerField(
        required=False, help_text="Jobs committed but not yet sent (the job queue was "
        "unreachable); they are sent when it is back.")
    detail = serializers.CharField(required=False)
