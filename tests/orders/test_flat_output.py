"""The order POST's and plan PUT's answers are rendered from their serializers' fields
read once (`campaign.api.flat`): exactly what the serializers answer, nulls included."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from campaign.api.flat import flat_data
from orders.api_views import PlanOutSerializer, SealedOrderSerializer
from orders.models import BattlePlan, Order

pytestmark = pytest.mark.django_db


def test_an_order_renders_as_its_serializer_renders_it(world):
    campaign, t = world.campaign, world.t
    on_map = Order.objects.create(campaign=campaign, turn=campaign.turn, player=world.alice,
                                  unit=world.a1, origin=t["Alpha"], destination=t["Gamma"])
    coming_back = Order.objects.create(campaign=campaign, turn=campaign.turn,
                                       player=world.alice, unit=world.a2, origin=None,
                                       destination=t["Beta"])
    for order in (on_map, coming_back):
        order.receipt = "ab" * 32
        assert flat_data(SealedOrderSerializer, order) == SealedOrderSerializer(order).data
    rendered = flat_data(SealedOrderSerializer, coming_back)
    assert rendered["origin"] is None and rendered["id"] == coming_back.public_id
    assert list(rendered) == ["id", "turn", "player", "unit", "origin", "destination",
                              "status", "announced", "receipt"]


def test_a_plan_renders_as_its_serializer_renders_it(world):
    placed = BattlePlan.objects.create(campaign=world.campaign, player=world.alice,
                                       territory=world.t["Alpha"], turn=1, stance="hold",
                                       retreat_at=40, focus="weakest")
    standing = BattlePlan.objects.create(campaign=world.campaign, player=world.alice,
                                         territory=None, turn=None)
    for plan in (placed, standing):
        assert flat_data(PlanOutSerializer, plan) == PlanOutSerializer(plan).data
    assert flat_data(PlanOutSerializer, standing)["territory"] is None


def test_a_serializer_with_a_nested_one_is_refused():
    class Nested(serializers.Serializer):
        inner = PlanOutSerializer()

    with pytest.raises(TypeError, match=r"Nested\.inner is not a flat field"):
        flat_data(Nested, object())
