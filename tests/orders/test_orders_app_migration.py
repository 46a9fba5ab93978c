"""The move of orders and receipts from the core to the `orders` app (issue 31.2) is a
move of the models' state only: a database migrated before it keeps its rows, and the
content types follow the models."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from orders.models import Order, OrderReceipt
from orders.services.sealing import order_submit

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("campaign", "0025_channels"), ("orders", None)]


def _rows() -> tuple[list[tuple], list[tuple]]:
    return (list(Order.objects.order_by("pk").values_list(
                "pk", "public_id", "turn", "player_id", "unit_id", "origin_id",
                "destination_id", "status")),
            list(OrderReceipt.objects.order_by("pk").values_list(
                "pk", "player_id", "turn", "salt", "receipt", "sealed")))


def test_rows_sealed_before_the_move_are_the_orders_apps_after_it(world):
    order_submit(player=world.alice, unit_id=world.a1.pk, destination_id=world.t["Gamma"].pk)
    order_submit(player=world.bob, unit_id=world.b1.pk, destination_id=world.t["Delta"].pk)
    orders, receipts = _rows()
    assert len(orders) == 2 and len(receipts) == 2
    order_type = ContentType.objects.get_for_model(Order)
    ContentType.objects.clear_cache()

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)  # the database as main's head left it
    try:
        then = executor.loader.project_state([("campaign", "0025_channels")]).apps
        old_order = then.get_model("campaign", "Order")
        old_receipt = then.get_model("campaign", "OrderReceipt")
        assert old_order._meta.db_table == Order._meta.db_table
        assert old_receipt._meta.db_table == OrderReceipt._meta.db_table
        assert list(old_order.objects.order_by("pk").values_list(
            "pk", "public_id", "turn", "player_id", "unit_id", "origin_id",
            "destination_id", "status")) == orders
        assert ContentType.objects.get(pk=order_type.pk).app_label == "campaign"
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    ContentType.objects.clear_cache()
    assert _rows() == (orders, receipts)
    assert ContentType.objects.get(pk=order_type.pk).app_label == "orders"
    assert ContentType.objects.get_for_model(Order).pk == order_type.pk
