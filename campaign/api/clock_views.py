"""Thin views for the clock, the journal, seats and notifications, under
/api/campaigns/<id>/ (sealed orders and receipts are the `orders` app's:
`orders/api_views.py`).

Every read of events goes through `campaign.selectors` (the one place that decides what
a member may see); every write calls one service.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, require_player, require_umpire
from campaign.api.views import int_param, validated
from campaign.models import Campaign
from campaign.pagination import PAGE_DESCRIPTION, PAGE_PARAMETERS, keyset_page, paged
from campaign.selectors import events_visible_to
from campaign.services import clock, seats

# ---------------------------------------------------------------------------
# Serializers
# ---------------------------------------------------------------------------


class EventSerializer(serializers.Serializer):
    # Random, not the sequential key: a count of ids would betray others' private events.
    id = serializers.IntegerField(source="public_id")
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    kind = serializers.CharField()
    at = serializers.DateTimeField()
    # DRF removes declared fields from the class, so `Serializer.data` still works
    data = serializers.JSONField()  # type: ignore[assignment]


class DeadlineInSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField(allow_null=True)


class ClockSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    phase_deadline = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField()
    remaining_seconds = serializers.SerializerMethodField()

    def get_remaining_seconds(self, obj: Campaign) -> int | None:
        return (int(obj.paused_remaining.total_seconds())
                if obj.paused and obj.paused_remaining is not None else None)


class HandoverInSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class HandoverOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")


class NotificationSettingsSerializer(serializers.Serializer):
    notifications = serializers.BooleanField()


# ---------------------------------------------------------------------------
# Journal
# ---------------------------------------------------------------------------


class EventListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("turn", int, required=False),
                    OpenApiParameter("kind", str, required=False), *PAGE_PARAMETERS],
        responses={200: EventSerializer(many=True)},
        description="The campaign journal, oldest first, filtered to what the caller "
        "may see. " + PAGE_DESCRIPTION,
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        visible = events_visible_to(member)
        qs = visible
        turn = request.query_params.get("turn")
        if turn is not None:
            qs = qs.filter(turn=int_param("turn", turn))
        kind = request.query_params.get("kind")
        if kind:
            qs = qs.filter(kind=kind)
        rows, link = keyset_page(
            request, qs, kind="event", order=("id",), cursor_key="public_id",
            lookup=lambda key: visible.filter(public_id=key).only("id").first())
        return paged(EventSerializer(rows, many=True).data, link)


# ---------------------------------------------------------------------------
# Clock (umpire)
# ---------------------------------------------------------------------------


class DeadlineView(APIView):
    @extend_schema(request=DeadlineInSerializer, responses={200: ClockSerializer},
                   description="Umpire: set, extend, shorten or clear (null) the current "
                   "phase's deadline (ISO 8601 with an offset). While paused it sets the "
                   "time that will remain on resume.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        data = validated(DeadlineInSerializer, request.data)
        campaign = clock.set_deadline(campaign=member.campaign, deadline=data["deadline"])
        return Response(ClockSerializer(campaign).data)


class PauseView(APIView):
    @extend_schema(request=None, responses={200: ClockSerializer})
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        return Response(ClockSerializer(clock.pause(campaign=member.campaign)).data)


class ResumeView(APIView):
    @extend_schema(request=None, responses={200: ClockSerializer},
                   description="Umpire: restart the clock with the time that remained.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        return Response(ClockSerializer(clock.resume(campaign=member.campaign)).data)


class HandoverView(APIView):
    @extend_schema(request=HandoverInSerializer, responses={200: HandoverOutSerializer},
                   description="Umpire: hand a player's seat to another user.")
    def post(self, request: Request, campaign_id: int, player_id: int) -> Response:
        member = membership(request.user, campaign_id)
        require_umpire(member)
        data = validated(HandoverInSerializer, request.data)
        player = seats.seat_handover(campaign=member.campaign, player_id=player_id,
                                      username=data["username"])
        return Response(HandoverOutSerializer(player).data)


class NotificationSettingsView(APIView):
    @extend_schema(responses={200: NotificationSettingsSerializer})
    def get(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        return Response({"notifications": player.notifications})

    @extend_schema(request=NotificationSettingsSerializer,
                   responses={200: NotificationSettingsSerializer},
                   description="Turn this seat's notifications on or off.")
    def patch(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(NotificationSettingsSerializer, request.data)
        type(player).objects.filter(pk=player.pk).update(notifications=data["notifications"])
        return Response({"notifications": data["notifications"]})
