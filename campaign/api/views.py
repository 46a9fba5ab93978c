"""Thin API views for accounts and campaigns: authenticate, check, call one service."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db.models import Count, Prefetch
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign import rulesets
from campaign.access import (
    campaigns_of,
    membership,
    reader,
    require_player,
    require_umpire,
    signed_in,
)
from campaign.api import serializers as s
from campaign.api.settings import SettingsIn
from campaign.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    PreconditionRequired,
    first_message,
)
from campaign.models import Campaign, Player
from campaign.schema import OBJECTS
from campaign.services import (
    claims,
    clock,
    commitments,
    export,
    imports,
    messages,
    outbox,
    rollback,
    sandbox,
)
from campaign.services.campaigns import campaign_create, campaign_join, campaign_update_settings
from campaign.services.profiles import send_verification
from campaign.services.setup import campaign_start
from campaign.throttling import ScopedThrottle


def validated(serializer_class: type, data: object, *,
              codes: Mapping[str, str] | None = None, **kwargs: Any) -> dict:
    """The body as `serializer_class` validates it: the one place for an API write's 400
    ({"code": "invalid", "detail", "fields"}). `codes` keeps a game's own error code for a
    field whose refusal has one (e.g. {"turn": "invalid_turn"})."""
    serializer = serializer_class(data=data, **kwargs)
    if serializer.is_valid():
        return serializer.validated_data
    errors = serializer.errors
    first = str(next(iter(errors), "")) if isinstance(errors, dict) else ""
    if codes and first in codes:
        raise InvalidInput(first_message(errors) or "Invalid input.", code=codes[first],
                           fields=dict(errors))
    raise ValidationError(errors)


def int_param(name: str, value: str) -> int:
    """A query parameter that must be a whole number (400 `invalid` otherwise)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"'{name}' must be a whole number.",
                           fields={name: ["A whole number is required."]}) from None


def campaign_queryset():
    return Campaign.objects.select_related("umpire").prefetch_related(
        Prefetch("players", queryset=Player.objects.select_related("user"))
    ).annotate(territory_count=Count("territories", distinct=True))


class UserCreateView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedThrottle]
    throttle_scope = "signup"

    @extend_schema(request=s.UserCreateSerializer, responses={201: s.UserSerializer})
    def post(self, request: Request) -> Response:
        if not settings.ALLOW_SIGNUP:
            raise Forbidden("Sign-up is closed on this site.", code="signup_closed")
        data = validated(s.UserCreateSerializer, request.data)
        user = get_user_model().objects.create_user(username=data["username"],
                                                     password=data["password"],
                                                     email=data.get("email") or "")

        send_verification(user=user, link_for=lambda token: request.build_absolute_uri(
            f"/accounts/verify-email/{token}/"))
        return Response({"id": user.pk, "username": user.username},
                        status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedThrottle]
    throttle_scope = "login"

    @extend_schema(request=s.TokenRequestSerializer, responses={200: s.TokenSerializer})
    def post(self, request: Request) -> Response:
        data = validated(s.TokenRequestSerializer, request.data)
        # The Django request (not DRF's wrapper): django-axes counts failures by it.
        user = authenticate(request._request, username=data["username"],
                            password=data["password"])
        if user is None:
            raise InvalidInput("Wrong username or password.", code="invalid_credentials")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class CampaignListView(APIView):
    @extend_schema(responses={200: s.CampaignSerializer(many=True)})
    def get(self, request: Request) -> Response:
        campaigns = campaign_queryset().filter(
            pk__in=campaigns_of(request.user).values("pk")
        )
        return Response(s.CampaignSerializer(campaigns, many=True).data)

    @extend_schema(request=s.CampaignCreateSerializer, responses={201: s.CampaignSerializer})
    def post(self, request: Request) -> Response:
        data = validated(s.CampaignCreateSerializer, request.data)
        campaign = campaign_create(umpire=signed_in(request.user), name=data["name"],
                                   map_spec=data["map"], options=data["settings"])
        campaign = campaign_queryset().get(pk=campaign.pk)
        return Response(s.CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class CampaignDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.CampaignSerializer})
    def get(self, request: Request, campaign_id: int) -> Response:
        member = reader(request.user, campaign_id)
        campaign = campaign_queryset().get(pk=campaign_id)
        data = s.CampaignSerializer(campaign).data
        if member.spectator:  # a public league's reader: no member's business
            data["settings"] = {k: v for k, v in data["settings"].items()
                                if k not in SPECTATOR_HIDDEN_SETTINGS}
        if member.is_umpire:  # API.md: the umpire reads the invite code
            data["invite_code"] = campaign.invite_code
            # API.md "Trust (wave 3)": and each unclaimed (imported) seat's claim code
            codes = {p.pk: p.claim_code for p in campaign.players.all() if p.claim_code}
            for seat in data["players"]:
                if seat["id"] in codes:
                    seat["claim_code"] = codes[seat["id"]]
        response = Response(data)
        response["ETag"] = campaign_etag(campaign)
        return response


#: Settings a spectator of a public league does not read.
SPECTATOR_HIDDEN_SETTINGS = frozenset({"webhook_url"})


class CampaignSettingsView(APIView):
    @extend_schema(request=SettingsIn, responses={200: s.CampaignSerializer})
    def patch(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        changes = validated(SettingsIn, request.data)
        campaign_update_settings(campaign=member.campaign, changes=dict(changes))
        return Response(s.CampaignSerializer(campaign_queryset().get(pk=campaign_id)).data)


class JoinView(APIView):
    @extend_schema(request=s.JoinSerializer, responses={201: s.PlayerSummarySerializer})
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None or (campaign.status != Campaign.Status.SETUP and not campaigns_of(
                request.user).filter(pk=campaign.pk).exists()):
            # A campaign past set-up is nobody's business but its members' (a 409 here
            # would tell an outsider that a running campaign has this id).
            raise_not_found()
        # Types here; the faction is checked against the campaign's ruleset by the service
        # (its own codes: faction_required, unknown_faction).
        body = validated(s.JoinSerializer, request.data)
        player = campaign_join(campaign_id=campaign.pk, user=signed_in(request.user),
                               invite=body.get("invite"), faction=body.get("faction"))
        return Response(s.PlayerSummarySerializer(player).data, status=status.HTTP_201_CREATED)


def raise_not_found() -> NoReturn:
    raise NotFound("No such campaign.")


class StartView(APIView):
    @extend_schema(request=None, responses={200: s.CampaignSerializer})
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        campaign_start(campaign_id=member.campaign.pk)
        return Response(s.CampaignSerializer(campaign_queryset().get(pk=campaign_id)).data)


def campaign_etag(campaign: Campaign) -> str:
    """The campaign's clock position as an entity tag: `"<turn>-<phase>"`."""
    return f'"{campaign.turn}-{campaign.phase}"'


def _expected_from_if_match(header: str) -> tuple[int, str] | None:
    turn, _, phase = header.strip().removeprefix("W/").strip('"').partition("-")
    return (int(turn), phase) if turn.isdigit() and phase else None


class AdvanceView(APIView):
    @extend_schema(request=s.AdvanceSerializer, responses={200: s.TurnPhaseSerializer})
    def post(self, request: Request, campaign_id: int) -> Response:
        """Advance from the named (turn, phase) — in the body, or as `If-Match:
        "<turn>-<phase>"` (the campaign's ETag). Without either: 428. When the campaign is
        no longer there (a repeated or stale request): 409, and nothing changes."""
        member = membership(request.user, campaign_id)
        require_umpire(member)
        body = request.data if isinstance(request.data, dict) else {}
        if_match = request.headers.get("If-Match", "")
        if "turn" not in body and "phase" not in body and if_match:
            expected = _expected_from_if_match(if_match)
            if expected is None:
                raise InvalidInput('If-Match must be the campaign\'s ETag, "<turn>-<phase>".',
                                   code="invalid")
        elif "turn" not in body and "phase" not in body:
            raise PreconditionRequired(
                "Say which phase you are advancing from: send {\"turn\", \"phase\"} as you "
                "last saw them (or If-Match with the campaign's ETag), so that a repeated "
                "request cannot advance twice.")
        else:
            data = validated(s.AdvanceSerializer, body)
            expected = (data["turn"], data["phase"])
        outbox.reset_request_counter()
        result = clock.advance(campaign_id=member.campaign.pk, by="umpire", expected=expected)
        if not result.changed:
            now = result.campaign
            raise Conflict(f"The campaign is no longer at turn {expected[0]}, {expected[1]} "
                           f"phase (it is at turn {now.turn}, {now.phase} phase); nothing "
                           "changed.", code="phase_moved_on")
        answer: dict[str, object] = {"turn": result.campaign.turn,
                                     "phase": result.campaign.phase, "changed": result.changed}
        waiting = outbox.unsent_in_this_request()
        if waiting:
            # The phase changed and its jobs are committed; the broker was away, so they
            # wait and are sent when it is back (nothing is lost). Say so.
            answer["jobs_waiting"] = waiting
            answer["detail"] = (f"The phase advanced. {waiting} background job(s) (battles, "
                              "notifications) could not reach the job queue yet; they are "
                              "saved and will start as soon as it is back.")
        response = Response(answer)
        response["ETag"] = campaign_etag(result.campaign)
        return response


class MessagesView(APIView):
    @extend_schema(responses={200: OBJECTS}, operation_id="messages_list",
                   description="The messages the caller may read (the latest 200, oldest "
                   "first): to everyone, from or to the caller.")
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(messages.latest(membership(request.user, campaign_id)))

    @extend_schema(request=s.MessageIn, responses={201: dict}, operation_id="messages_create",
                   description="Players: a message to one player or (to: null) to everyone.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        data = validated(s.MessageIn, request.data)
        message = messages.send_message(member=member, to=data.get("to"), text=data["text"])
        return Response(messages.message_data(message), status=status.HTTP_201_CREATED)


class DiceView(APIView):
    @extend_schema(responses={200: OBJECTS}, operation_id="dice_list",
                   description="Members: every phase's dice commitment (SHA-256 of its "
                   "secret seed) and, once the phase is over, the seed itself.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        return Response(commitments.dice_rows(member.campaign))


class VerifyView(APIView):
    @extend_schema(parameters=[OpenApiParameter("turn", int, required=True),
                               OpenApiParameter("phase", str, required=True)],
                   responses={200: dict}, operation_id="dice_verify",
                   description="Members: recompute every roll of a finished phase from its "
                   "revealed seed (explorations, every battle): verified, rolls, mismatches.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        return Response(commitments.verify_phase(member.campaign,
                                                 request.query_params.get("turn"),
                                                 request.query_params.get("phase")))


class RollbackView(APIView):
    @extend_schema(request=s.RollbackIn, responses={200: s.CampaignSerializer},
                   operation_id="campaign_rollback",
                   description="The umpire: roll the campaign back to the start of its current "
                   "or previous phase ({turn, phase, reason}); everything since is undone.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        data = validated(s.RollbackIn, request.data, codes={"turn": "invalid_turn"})
        rollback.rollback(campaign_id=member.campaign.pk, turn=data["turn"],
                          phase=data["phase"], by=request.user.get_username(),
                          reason=data["reason"])
        return Response(s.CampaignSerializer(campaign_queryset().get(pk=campaign_id)).data)


class SandboxView(APIView):
    # Each clone copies the whole campaign: a flood is refused before any work (429).
    throttle_classes = [ScopedThrottle]
    throttle_scope = "sandbox"

    @extend_schema(request=s.PhaseStartIn, responses={201: dict}, operation_id="campaign_sandbox",
                   description="Members: a private copy of the campaign as it stood at the "
                   "start of the current or previous phase ({turn, phase}), holding only "
                   "what the caller could see, with new dice; the caller plays every seat "
                   "(`POST .../sandbox/seat/` {player}). A sandbox never notifies.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        data = validated(s.PhaseStartIn, request.data, codes={"turn": "invalid_turn"})
        copy = sandbox.create_sandbox(member=member, turn=data["turn"], phase=data["phase"])
        return Response({"id": copy.pk}, status=status.HTTP_201_CREATED)


class SandboxSeatView(APIView):
    @extend_schema(request=s.SeatIn, responses={200: dict}, operation_id="sandbox_seat",
                   description="The owner of a sandbox: play the seat {player} from now on.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        data = validated(s.SeatIn, request.data)
        campaign = sandbox.play_as(member=member, player_id=data["player"])
        return Response({"id": campaign.pk, "seat": campaign.sandbox_seat_id})


class ImportView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "import"

    @extend_schema(request=dict, responses={201: dict}, operation_id="campaign_import",
                   description="Any user: a campaign export document (up to 50 MB) -> a "
                   "copy under new ids, whose umpire the caller becomes and only member: "
                   "every seat waits for its claim code (POST claim/). An invalid document "
                   "is a 400 whose `fields` names the first bad path; nothing is written.")
    def post(self, request: Request) -> Response:
        campaign = imports.import_campaign(document=request.data, umpire=signed_in(request.user))
        return Response({"id": campaign.pk}, status=status.HTTP_201_CREATED)


class ClaimView(APIView):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "claim"

    @extend_schema(request=s.ClaimIn, responses={200: s.PlayerSummarySerializer},
        operation_id="campaign_claim",
        description="Take the imported seat whose claim code the umpire gave you (404 "
        "for a code that opens no seat; 409 when you already have a seat).")
    def post(self, request: Request, campaign_id: int) -> Response:
        data = validated(s.ClaimIn, request.data, codes={"code": "invalid_code"})
        player = claims.claim_seat(campaign_id=campaign_id, user=signed_in(request.user),
                                   code=data["code"])
        return Response(s.PlayerSummarySerializer(player).data)


class ExportView(APIView):
    @extend_schema(responses={200: dict}, operation_id="campaign_export",
                   description="The umpire: the whole campaign as one versioned JSON document "
                   "(format unlimit3d-campaign; schema in docs/export.schema.json). Sealed "
                   "orders and the open phase's seed are never in it.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        if not member.sees_private:
            raise Forbidden("An umpire who also plays exports the campaign only when the "
                            "campaign lets them read players' private business (setting "
                            "playing_umpire_sees_private).", code="export_private")
        return Response(export.export_campaign(member.campaign))


class ReadyView(APIView):
    @extend_schema(request=None, responses={200: s.PlayerSummarySerializer})
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        clock.mark_ready(player=player)
        player.refresh_from_db()
        return Response(s.PlayerSummarySerializer(player).data)


class RulesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter(
                       "ruleset", str, required=False,
                       description="A ruleset name from GET /api/rulesets/ (default: "
                       "Unlimit3d 8, the strategic layer's own tables).")],
                   responses={200: dict})
    def get(self, request: Request) -> Response:
        """The rule tables (API.md, "The rules"); `?ruleset=` for a tactical ruleset's."""
        name = request.query_params.get("ruleset") or rulesets.DEFAULT
        info = rulesets.get(name)
        if info is None:
            known = ", ".join(r.name for r in rulesets.all_rulesets())
            raise NotFound(f"No ruleset {name[:40]!r} on this site; the rulesets are: {known}.")
        return Response(info.tables())


class RulesetListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OBJECTS},
                   description="The tactical rulesets this site offers: `[{\"name\", "
                   "\"title\", \"version\", \"seed\", \"dice\", \"factions\"}]`.")
    def get(self, request: Request) -> Response:
        return Response([r.summary() for r in rulesets.all_rulesets()])


class CatalogueView(APIView):
    @extend_schema(responses={200: OBJECTS},
                   description="Players: what they can buy in this campaign's ruleset "
                   "(and their faction), `[{\"key\", \"name\", \"kind\", \"price\", "
                   "...}]`, cheapest first.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        info = rulesets.get(member.campaign.settings.ruleset)
        if info is None:
            raise Conflict("This campaign's ruleset is not offered on this site any more.",
                           code="ruleset_unavailable")
        return Response(info.for_faction(player.faction,
                                         member.campaign.settings.ruleset_options))
