"""Thin views for sealed orders and their receipts, under /api/campaigns/<id>/.

Every read of orders goes through `orders.selectors` (the one place that decides what a
member may see); every write calls one service. The order in which a view checks
things never depends on another player's orders: membership (404), role (403), input
(400), phase (409), then the caller's own objects (404 for anything not theirs, worded
exactly like an id that does not exist).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, require_player
from campaign.api.flat import flat_data
from campaign.api.views import int_param, validated
from campaign.errors import InvalidInput
from orders.models import BattlePlan, Order
from orders.selectors import orders_visible_to, plans_of
from orders.services import receipts
from orders.services.plans import (
    PlanChoice,
    plan_set,
    plan_withdraw,
    standing_plan_set,
    standing_plan_withdraw,
)
from orders.services.sealing import order_submit, order_withdraw

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
            qs = qs.filter(turn=int_param("turn", turn))
        return Response([order_json(o) for o in qs.order_by("turn", "id")])

    @extend_schema(request=OrderInSerializer, responses={201: SealedOrderSerializer},
                   description="Seal (or replace) the order for one of your units. Move "
                   "phase only. `400` code `unreachable` when no legal path exists. "
                   "Answers the receipt of your whole sealed order set.")
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        data = validated(OrderInSerializer, request.data)
        order = order_submit(player=player, unit_id=data["unit"],
                                    destination_id=data["destination"])
        return Response(flat_data(SealedOrderSerializer, order), status=status.HTTP_201_CREATED)


class OrderDetailView(APIView):
    @extend_schema(responses={204: None}, description="Withdraw one of your orders "
                   "(move phase). Anything that is not your order is `404`. The receipt "
                   "of your order set without it is in the `Orders-Receipt` header.")
    def delete(self, request: Request, campaign_id: int, order_id: int) -> Response:
        member = membership(request.user, campaign_id)
        player = require_player(member)
        receipt = order_withdraw(player=player, order_id=order_id)
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
                                                turn=int_param("turn", turn))
        return Response(ReceiptSerializer(published, many=True).data)


# ---------------------------------------------------------------------------
# Battle plans (issue 29, API.md "Battle plans (wave 3)")
# ---------------------------------------------------------------------------


class PlanInSerializer(serializers.Serializer):
    stance = serializers.ChoiceField(choices=BattlePlan.Stance.values, error_messages={
        "invalid_choice": "The stance is attack, hold or withdraw, not \"{input}\"."})
    retreat_at = serializers.IntegerField(
        min_value=0, max_value=100, default=100,
        help_text="The share (percent) of the side's starting strength whose loss makes it "
        "withdraw; 100 fights to the end.", error_messages={
            "min_value": "retreat_at is a share of the starting strength, from 0 to 100.",
            "max_value": "retreat_at is a share of the starting strength, from 0 to 100."})
    focus = serializers.ChoiceField(choices=BattlePlan.Focus.values, default="nearest",
                                    error_messages={"invalid_choice": "The focus is nearest, "
                                                    "weakest or strongest, not \"{input}\"."})


class PlanOutSerializer(serializers.Serializer):
    territory = serializers.IntegerField(source="territory_id", allow_null=True,
                                         help_text="Null: the standing plan.")
    turn = serializers.IntegerField(allow_null=True)
    stance = serializers.CharField()
    retreat_at = serializers.IntegerField()
    focus = serializers.CharField()


def _choice(request: Request) -> PlanChoice:
    data = validated(PlanInSerializer, request.data)
    return PlanChoice(stance=data["stance"], retreat_at=data["retreat_at"],
                      focus=data["focus"])


class PlanListView(APIView):
    @extend_schema(responses={200: PlanOutSerializer(many=True)},
                   description="The caller's own battle plans: the standing one and this "
                   "turn's. Nobody reads another player's plans before the battle is over.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        plans = plans_of(member.player) if member.player is not None else []
        return Response(PlanOutSerializer(plans, many=True).data)


class StandingPlanView(APIView):
    @extend_schema(request=PlanInSerializer, responses={200: PlanOutSerializer},
                   description="Seal the standing plan, used for any battle of yours "
                   "without a plan of its own.")
    def put(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        plan = standing_plan_set(player=player, choice=_choice(request))
        return Response(flat_data(PlanOutSerializer, plan))

    @extend_schema(responses={204: None}, description="Withdraw the standing plan.")
    def delete(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        standing_plan_withdraw(player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlanDetailView(APIView):
    @extend_schema(request=PlanInSerializer, responses={200: PlanOutSerializer},
                   description="Move phase: seal the plan for the battles at a territory "
                   "you hold, have units at, or have an order to this turn (`400` "
                   "`nothing_there` otherwise; `409` `wrong_phase` outside the move phase).")
    def put(self, request: Request, campaign_id: int, territory_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        plan = plan_set(player=player, territory_id=territory_id, choice=_choice(request))
        return Response(flat_data(PlanOutSerializer, plan))

    @extend_schema(responses={204: None},
                   description="Move phase: withdraw the plan for that territory.")
    def delete(self, request: Request, campaign_id: int, territory_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        plan_withdraw(player=player, territory_id=territory_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
