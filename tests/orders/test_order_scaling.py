"""An order POST costs the same on a 5-territory map and on a 600-territory one (issue
15, target 4): the movement graph is the campaign's shared cached one, and reachability
reads and walks only the player's own (passable) territories. The campaign row is taken
with a shared lock: orders of different players do not queue behind each other, the
advance's exclusive lock still waits for them (PostgreSQL only: SQLite has no row locks).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, Phase, Player
from orders.models import Order
from tests.orders.conftest import make_unit, set_phase


def _own_pair(campaign: Campaign, player: Player) -> tuple[Any, Any, int]:
    """The player owns two adjacent territories (with stations); returns them and a
    territory next to the second one that is neither (a legal destination)."""
    from economy.models import Building
    from territories.models import Adjacency, Territory

    edges = list(Adjacency.objects.filter(campaign=campaign).order_by("pk")
                 .values_list("a_id", "b_id"))
    neighbours: dict[int, set[int]] = {}
    for a, b in edges:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    for a, b in edges:
        beyond = sorted(neighbours[b] - {a})
        if beyond:
            break
    first, second = Territory.objects.get(pk=a), Territory.objects.get(pk=b)
    for t in (first, second):
        t.owner, t.ever_owned = player, True
        t.save()
        Building.objects.create(territory=t, kind="station", x=0, y=0, hit_points=30)
    return first, second, beyond[0]


def _order_world(make_campaign, uma, alice, map_spec: dict | None) -> dict[str, Any]:
    campaign = make_campaign(uma, map_spec=map_spec)
    player = Player.objects.create(campaign=campaign, user=alice, color="#d62728")
    first, _second, destination = _own_pair(campaign, player)
    set_phase(campaign, Phase.MOVE)
    unit = make_unit(player, first)
    return {"campaign": campaign, "unit": unit, "destination": destination}


def _post_queries(client, world: dict[str, Any]) -> int:
    url = f"/api/campaigns/{world['campaign'].pk}/orders/"
    body = {"unit": world["unit"].pk, "destination": world["destination"]}
    assert client.post(url, body, format="json").status_code == 201  # warms the graph
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    # The test's transaction turns the service's into a savepoint (BEGIN and COMMIT
    # outside a test): not statements of the request.
    return len([q for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))])


def test_an_order_post_costs_the_same_queries_on_a_small_and_a_large_map(
        make_campaign, uma, alice, client_for, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client = client_for(alice)
    small = _post_queries(client, _order_world(make_campaign, uma, alice, None))
    large_world = _order_world(make_campaign, uma, alice,
                               {"generator": "hex", "territories": 600, "seed": 3})
    large = _post_queries(client, large_world)
    assert small == large
    # token, membership, the campaign FOR SHARE, the unit FOR UPDATE, the stations among
    # the player's own and granted territories, the order's UPDATE ... RETURNING, and the
    # receipt (issue 30): its row taken, the player's order set read, the receipt written
    assert large <= 9
    assert Order.objects.filter(campaign=large_world["campaign"]).count() == 1


def test_reachability_reads_only_the_players_own_stations(world, django_assert_num_queries):
    """R-MAP-9 still holds (a station is needed to pass), asked of the player's own (and
    granted) territories only, in one query."""
    from territories.services.movement import legal_destinations

    legal_destinations(world.alice, world.t["Alpha"])  # the shared graph, built once
    with CaptureQueriesContext(connection) as queries:
        found = legal_destinations(world.alice, world.t["Alpha"])
    assert found == {world.t["Beta"].pk, world.t["Gamma"].pk}
    # one query: the stations among the player's own and granted territories
    assert len(queries) == 1
    assert "economy_building" in queries[0]["sql"] and "territories_passage" in \
        queries[0]["sql"]


# ---------------------------------------------------------------------------
# PostgreSQL: the shared lock
# ---------------------------------------------------------------------------

postgres_only = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                   reason="row locks exist on PostgreSQL only")


def _hold_share_lock(campaign_id: int, held: threading.Event, release: threading.Event
                     ) -> None:
    """Another connection: an order POST in flight (the campaign row FOR SHARE)."""
    from campaign.services.phase_lock import share_lock_in_phase

    try:
        with transaction.atomic():
            player = Player.objects.select_related("campaign").filter(
                campaign_id=campaign_id).first()
            share_lock_in_phase(player, Phase.MOVE, "Orders are given")
            held.set()
            release.wait(10)
    finally:
        connections.close_all()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_orders_share_the_campaign_lock_and_the_advance_waits_for_them(build_world,
                                                                       client_for):
    from orders.services.sealing import order_submit

    world = build_world()
    held, release = threading.Event(), threading.Event()
    other = threading.Thread(target=_hold_share_lock,
                             args=(world.campaign.pk, held, release))
    other.start()
    try:
        assert held.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")
        # Another order goes through while the first is in flight...
        order = order_submit(player=world.alice, unit_id=world.a1.pk,
                             destination_id=world.t["Gamma"].pk)
        assert order.destination_id == world.t["Gamma"].pk
        # ...but the advance's exclusive lock waits for it.
        with pytest.raises(OperationalError), transaction.atomic():
            Campaign.objects.select_for_update(nowait=True).get(pk=world.campaign.pk)
    finally:
        release.set()
        other.join(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    with transaction.atomic():  # released with the order's transaction
        Campaign.objects.select_for_update(nowait=True).get(pk=world.campaign.pk)
