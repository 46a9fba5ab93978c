"""The two writes a player sends most in the move phase, the order POST and the plan PUT,
cost a few fixed queries each (issue 32.4: their p95 under 50 clients is held to 1.5x an
anonymous `GET /api/rules/`); the counts are asserted here, the times in `make bench`
(benchmarks/requests_bench.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from orders.models import BattlePlan, Order

pytestmark = pytest.mark.django_db

HOLD = {"stance": "hold", "retreat_at": 60, "focus": "weakest"}


def _statements(queries: CaptureQueriesContext) -> list[str]:
    # The test's transaction turns the service's into a savepoint (BEGIN and COMMIT, or
    # ROLLBACK on a refusal, outside a test): not statements of the request.
    return [q["sql"] for q in queries
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "ROLLBACK"))]


def _put(client, world, territory_id: int, body: dict) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.put(f"/api/campaigns/{world.campaign.pk}/plans/{territory_id}/",
                              body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["stance"] == body["stance"]
    return _statements(queries)


def test_a_plan_put_costs_five_queries_where_the_player_holds_and_replacing_keeps_one_row(
        world, client_for):
    alice = client_for(world.users["alice"])
    alpha = world.t["Alpha"].pk
    first = _put(alice, world, alpha, HOLD)
    again = _put(alice, world, alpha, {**HOLD, "stance": "attack"})
    # token, membership, the campaign FOR SHARE, the battlefield (its name and whether
    # the player may fight there, one statement), the plan's upsert
    assert len(first) == len(again) == 5
    assert not any(q.startswith(("UPDATE", "DELETE")) for q in first + again)
    plan = BattlePlan.objects.get()
    assert (plan.territory_id, plan.stance, plan.retreat_at, plan.focus) == (
        alpha, "attack", 60, "weakest")


def test_a_plan_put_where_the_player_only_sent_an_order_costs_the_same(world, client_for):
    alice = client_for(world.users["alice"])
    gamma = world.t["Gamma"].pk
    sent = alice.post(f"/api/campaigns/{world.campaign.pk}/orders/",
                      {"unit": world.a1.pk, "destination": gamma}, format="json")
    assert sent.status_code == 201
    assert len(_put(alice, world, gamma, HOLD)) == 5
    assert BattlePlan.objects.get().territory_id == gamma


def test_a_refused_plan_put_writes_nothing_and_costs_no_more(world, client_for):
    alice = client_for(world.users["alice"])
    target = f"/api/campaigns/{world.campaign.pk}/plans/{world.t['Epsilon'].pk}/"
    with CaptureQueriesContext(connection) as queries:
        refused = alice.put(target, HOLD, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "nothing_there"
    assert len(_statements(queries)) == 4
    assert not BattlePlan.objects.exists()


def test_an_order_post_and_a_plan_put_stay_under_their_query_budgets(
        world, client_for, django_assert_max_num_queries):
    alice = client_for(world.users["alice"])
    orders = f"/api/campaigns/{world.campaign.pk}/orders/"
    body = {"unit": world.a1.pk, "destination": world.t["Gamma"].pk}
    assert alice.post(orders, body, format="json").status_code == 201  # warms the graph
    # token, membership, the campaign FOR SHARE, the unit FOR UPDATE, the stations of the
    # player's territories, the order's UPDATE ... RETURNING, the receipt's three
    # statements; the savepoint and its release (the test's transaction) on top
    with django_assert_max_num_queries(9 + 2):
        replaced = alice.post(orders, body, format="json")
    assert replaced.status_code == 201
    with django_assert_max_num_queries(5 + 2):
        planned = alice.put(f"/api/campaigns/{world.campaign.pk}/plans/"
                            f"{world.t['Gamma'].pk}/", HOLD, format="json")
    assert planned.status_code == 200
    assert Order.objects.get().destination_id == world.t["Gamma"].pk
    assert BattlePlan.objects.get().stance == "hold"


def test_the_receipt_is_the_digest_of_the_canonical_order_set_on_every_database(
        world, client_for):
    """On PostgreSQL the receipt is built in the database (one statement fewer): the
    same canonical text and SHA-256 as `receipts.canonical` and `receipts.digest`."""
    from orders.models import OrderReceipt
    from orders.services import receipts

    alice = client_for(world.users["alice"])
    orders = f"/api/campaigns/{world.campaign.pk}/orders/"
    given = [(world.a2.pk, world.t["Gamma"].pk), (world.a1.pk, world.t["Gamma"].pk)]
    answers = [alice.post(orders, {"unit": unit, "destination": destination},
                          format="json") for unit, destination in given]
    assert [a.status_code for a in answers] == [201, 201]
    row = OrderReceipt.objects.get(player=world.alice)
    sealed = receipts.canonical(given)
    assert row.sealed == sealed
    assert row.receipt == receipts.digest(sealed, row.salt) == answers[-1].json()["receipt"]
    assert answers[0].json()["receipt"] == receipts.digest(
        receipts.canonical(given[:1]), row.salt)
