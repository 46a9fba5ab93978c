"""Thin views for sealed orders, the clock and the journal.

Every read of orders and events goes through `campaign.selectors` (the one place
that decides what a member may see); every write calls one service. The order in
which a view checks things never depends on another player's orders: membership
(404), role (403), input (400), phase (409), then the caller's own objects (404 for
anything not theirs, worded exactly like an id that does not exist).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, require_player, require_umpire
from campaign.api.views import validated
from campaign.errors import InvalidInput
from campaign.models import Campaign, Order
from campaign.pagination import PAGE_DESCRIPTION, PAGE_PARAMETERS, keyset_page, paged
from campaign.selectors import events_visible_to, orders_visible_to
from campaign.services import clock, orders, receipts

# ---------------------------------------------------------------------------
# Serializers
# ---------------------------------------------------------------------------


class OrderInSerializer(serializers.Serializer):
    unit = serializers.IntegerField(min_value=1)
    destination = serializers.IntegerField(min_value=1)


class OrderOutSerializer(serializers.Serializer):
    """An order in full (the caller's own, or any for an umpire allowed to read them)."""

    id = serializers.IntegerField(source="public_id")
    turn = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    unit = serializers.IntegerField(source="unit_id")
    origin = serializers.IntegerField(source="origin_id", allow_null=True)
    destination = serializers.IntegerField(source="destination_id")
    status = serializers.CharField()
    announced = serializers.BooleanField()


class SealedOrderSerializer(OrderOutSerializer):
    """An order just sealed, with the receipt of the player's whole order set."""

    receipt = serializers.CharField(help_text="SHA-256 hex over the player's whole sealed "
                                    "order set after this change and a secret salt "
                                    "(docs/ARCHITECTURE.md, \"Order receipts\").")


class SealedMoveSerializer(serializers.Serializer):
    unit = serializers.IntegerField()
    destination = serializers.IntegerField()


class ReceiptSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    username = serializers.CharField()
    receipt = serializers.CharField()
    salt = serializers.CharField()
    orders = SealedMoveSerializer(many=True)
    matches = serializers.BooleanField(help_text="What the receipt sealed is what was "
                                       "revealed, and the receipt is its hash.")


class RevealedMoveSerializer(serializers.Serializer):
    """What the rules reveal of another player's orders: a move announced onto a
    territory the mover did not own -- not the unit, not how many."""

    turn = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    destination = serializers.IntegerField(source="destination_id")
    announced = serializers.BooleanField()


def order_json(order: Order) -> dict:
    if getattr(order, "full", False):
        return OrderOutSerializer(order).data
    return RevealedMoveSerializer(order).data


class EventSerializer(serializers.Serializer):
    # Random, not the sequential key: a count of ids would betray others' private events.
    id = serializers.IntegerField(source="public_id")
    turn = serializers.IntegerField()
    phase = serializers.CharField()
    kind = serializers.CharField()
    at = serializers.DateTimeField()
    # DRF's metaclass takes declared fields off the class: `.data` stays the property
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
# Orders
# ---------------------------------------------------------------------------


class OrderListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("turn", int, required=False)],
        responses={200: OrderOutSerializer(many=True)},
        description="The caller's own orders in full; other players' orders only once the "
        "tactical phase of that turn has begun, and then only the announced moves "
        "(turn, player, destination: no unit, one row per territory and player).",
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        qs = orders_visible_to(member)
        turn = request.query_params.get("turn")
        if turn is not None:
            qs = qs.filter(turn=_int_param("turn", turn))
        return Response([order_json(o) for o in qs.order_by("turn", "id")])

    @extend_schema(request=OrderInSerializer, responses={201: SealedOrderSerializer},
                   description="Seal (or replace) the order for one of your units. Move "
                   "phase only. `400` code `unreachable` when no legal path exists. "
                   "Answers the receipt of your whole sealed order set.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        data = validated(OrderInSerializer, request.data)
        order = orders.order_submit(player=player, unit_id=data["unit"],
                                    destination_id=data["destination"])
        return Response(SealedOrderSerializer(order).data, status=status.HTTP_201_CREATED)


class OrderDetailView(APIView):
    @extend_schema(responses={204: None}, description="Withdraw one of your orders "
                   "(move phase). Anything that is not your order is `404`. The receipt "
                   "of your order set without it is in the `Orders-Receipt` header.")
    def delete(self, request: Request, campaign_id: int, order_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        receipt = orders.order_withdraw(player=player, order_id=order_id)
        return Response(status=status.HTTP_204_NO_CONTENT,
                        headers={"Orders-Receipt": receipt})


class ReceiptListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("turn", int, required=True)],
        responses={200: ReceiptSerializer(many=True)},
        description="Members, once that turn's tactical phase has begun (`409` before): "
        "each player's last order receipt of the turn, its salt and what it sealed.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        turn = request.query_params.get("turn")
        if turn is None:
            raise InvalidInput("Say which turn: ?turn=N.", fields={"turn": ["Required."]})
        published = receipts.published_receipts(campaign=member.campaign,
                                                turn=_int_param("turn", turn))
        return Response(ReceiptSerializer(published, many=True).data)


# ---------------------------------------------------------------------------
# Journal
# ---------------------------------------------------------------------------


def _int_param(name: str, value: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"'{name}' must be a whole number.",
                           fields={name: ["A whole number is required."]}) from None


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
            qs = qs.filter(turn=_int_param("turn", turn))
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
        player = orders.seat_handover(campaign=member.campaign, player_id=player_id,
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

