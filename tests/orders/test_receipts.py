"""Receipts for sealed orders (issue 30, item 8; API.md "Trust (wave 3)"): every change to
a player's sealed orders answers a receipt over the whole set and a secret salt; once the
tactical phase has begun anyone in the campaign checks that what was revealed is what was
sealed, and a change made behind the player's back shows."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.db import connection  # noqa: F401  (the skipif condition reads it)

from campaign.models import Phase
from orders.models import Order, OrderReceipt
from tests.orders.conftest import advance_to, set_phase

pytestmark = pytest.mark.django_db


def url(world, tail: str = "orders/") -> str:
    return f"/api/campaigns/{world.campaign.pk}/{tail}"


def recompute(orders: list[dict], salt: str) -> str:
    sealed = json.dumps(sorted(orders, key=lambda o: o["unit"]), separators=(",", ":"),
                        sort_keys=True)
    return hashlib.sha256((sealed + salt).encode()).hexdigest()


def seal(client, world, unit, destination) -> dict:
    r = client.post(url(world), {"unit": unit.pk, "destination": destination.pk},
                    format="json")
    assert r.status_code == 201, r.content
    return r.json()


def test_each_order_answers_a_receipt_of_the_whole_sealed_set(world, client_for):
    c = client_for(world.users["alice"])
    first = seal(c, world, world.a1, world.t["Gamma"])["receipt"]
    second = seal(c, world, world.a2, world.t["Gamma"])["receipt"]
    assert len(first) == 64 and len(second) == 64 and first != second
    salt = OrderReceipt.objects.get(player=world.alice, turn=world.campaign.turn).salt
    both = [{"unit": world.a1.pk, "destination": world.t["Gamma"].pk},
            {"unit": world.a2.pk, "destination": world.t["Gamma"].pk}]
    assert second == recompute(both, salt)
    assert first == recompute(both[:1], salt)


def test_a_replaced_or_withdrawn_order_answers_a_new_receipt(world, client_for):
    c = client_for(world.users["alice"])
    sealed = seal(c, world, world.a1, world.t["Beta"])
    replaced = seal(c, world, world.a1, world.t["Gamma"])
    assert replaced["receipt"] != sealed["receipt"]
    r = c.delete(url(world, f"orders/{replaced['id']}/"))
    assert r.status_code == 204
    salt = OrderReceipt.objects.get(player=world.alice).salt
    assert r["Orders-Receipt"] == recompute([], salt)


def test_the_salt_differs_per_player_and_turn(world, client_for):
    seal(client_for(world.users["alice"]), world, world.a1, world.t["Gamma"])
    seal(client_for(world.users["bob"]), world, world.b1, world.t["Delta"])
    salts = set(OrderReceipt.objects.values_list("salt", flat=True))
    assert len(salts) == 2


def test_receipts_are_sealed_until_the_tactical_phase(world, client_for):
    """A receipt's existence would tell who gave orders: 409 for every member, the
    player included, before the reveal; nothing else says so."""
    seal(client_for(world.users["alice"]), world, world.a1, world.t["Gamma"])
    for who in ("alice", "bob", "uma"):
        r = client_for(world.users[who]).get(url(world, "receipts/?turn=1"))
        assert r.status_code == 409, who
        assert r.json()["code"] == "sealed"
        assert "alice" not in r.json()["detail"]


def test_after_the_reveal_anyone_in_the_campaign_checks_what_was_sealed(world, client_for):
    alice = client_for(world.users["alice"])
    kept = seal(alice, world, world.a1, world.t["Gamma"])["receipt"]
    advance_to(world, Phase.TACTICAL)
    r = client_for(world.users["bob"]).get(url(world, "receipts/?turn=1"))
    assert r.status_code == 200, r.content
    published = {row["username"]: row for row in r.json()}
    assert set(published) == {"alice"}  # bob gave no orders: he has no receipt
    row = published["alice"]
    assert row["receipt"] == kept
    assert row["orders"] == [{"unit": world.a1.pk, "destination": world.t["Gamma"].pk}]
    assert recompute(row["orders"], row["salt"]) == kept
    assert row["matches"] is True


def test_an_order_changed_behind_the_players_back_shows(world, client_for):
    """The dispute "the umpire changed my orders" settled: a sealed order altered in the
    database after its receipt no longer matches what was revealed."""
    alice = client_for(world.users["alice"])
    kept = seal(alice, world, world.a1, world.t["Gamma"])["receipt"]
    Order.objects.filter(player=world.alice).update(destination=world.t["Beta"])
    set_phase(world.campaign, Phase.TACTICAL)
    row = client_for(world.users["uma"]).get(url(world, "receipts/?turn=1")).json()[0]
    assert row["receipt"] == kept and row["matches"] is False


def test_a_bad_turn_is_a_clear_400(world, client_for):
    c = client_for(world.users["alice"])
    assert c.get(url(world, "receipts/")).status_code == 400
    r = c.get(url(world, "receipts/?turn=abc"))
    assert r.status_code == 400 and r.json()["code"]


def test_a_stranger_cannot_read_receipts(world, client_for):
    set_phase(world.campaign, Phase.TACTICAL)
    assert client_for(world.users["charlie"]).get(
        url(world, "receipts/?turn=1")).status_code == 404


def test_a_refused_order_gives_no_receipt_and_changes_none(world, client_for):
    c = client_for(world.users["alice"])
    kept = seal(c, world, world.a1, world.t["Gamma"])["receipt"]
    r = c.post(url(world), {"unit": world.a2.pk, "destination": world.t["Epsilon"].pk},
               format="json")
    assert r.status_code == 400 and "receipt" not in r.json()
    assert OrderReceipt.objects.get(player=world.alice).receipt == kept


def test_the_orders_page_shows_the_receipt_and_the_receipts_page_checks_it(
        world, client_for, client):
    alice = client_for(world.users["alice"])
    kept = seal(alice, world, world.a1, world.t["Gamma"])["receipt"]
    client.force_login(world.users["alice"])
    page = client.get(f"/campaigns/{world.campaign.pk}/orders/").content.decode()
    assert kept in page
    client.force_login(world.users["bob"])
    before = client.get(f"/campaigns/{world.campaign.pk}/receipts/").content.decode()
    assert kept not in before and "No turn's orders have been revealed yet" in before
    advance_to(world, Phase.TACTICAL)
    page = client.get(f"/campaigns/{world.campaign.pk}/receipts/?turn=1&receipt={kept}"
                      ).content.decode()
    assert "This is the last receipt alice was given for turn 1" in page
    assert "What it sealed is exactly what was revealed" in page
    assert "to Gamma" in page
    wrong = client.get(f"/campaigns/{world.campaign.pk}/receipts/?turn=1&receipt={'0' * 64}"
                       ).content.decode()
    assert "No player's last receipt of turn 1 is this one" in wrong


def test_a_rollback_to_the_move_phase_forgets_the_undone_receipts(world, client_for):
    from orders.services import receipts

    seal(client_for(world.users["alice"]), world, world.a1, world.t["Gamma"])
    receipts.forget_undone(campaign=world.campaign, turn=1, phase=Phase.TACTICAL)
    assert OrderReceipt.objects.count() == 1  # the tactical start keeps its turn's orders
    receipts.forget_undone(campaign=world.campaign, turn=1, phase=Phase.MOVE)
    assert not OrderReceipt.objects.exists()


postgres_only = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                   reason="row locks exist on PostgreSQL only")


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_orders_of_one_player_at_once_reseal_one_after_the_other(build_world):
    """Two orders of one player in flight at once: the second waits for the first's
    receipt row and reads its order, so the last receipt covers both."""
    import threading
    import time

    from django.db import connections, transaction

    from orders.services.sealing import order_submit

    world = build_world()
    held, release = threading.Event(), threading.Event()
    answers: dict[str, str] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                order_submit(player=world.alice, unit_id=world.a1.pk,
                             destination_id=world.t["Gamma"].pk)
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    def second() -> None:
        try:
            answers["second"] = order_submit(player=world.alice, unit_id=world.a2.pk,
                                             destination_id=world.t["Gamma"].pk).receipt
        finally:
            connections.close_all()

    a = threading.Thread(target=first)
    a.start()
    assert held.wait(10)
    b = threading.Thread(target=second)
    b.start()
    time.sleep(0.5)
    assert b.is_alive()  # waiting for the first order's receipt row
    release.set()
    a.join(10)
    b.join(10)
    row = OrderReceipt.objects.get(player=world.alice)
    both = [{"unit": world.a1.pk, "destination": world.t["Gamma"].pk},
            {"unit": world.a2.pk, "destination": world.t["Gamma"].pk}]
    assert answers["second"] == row.receipt == recompute(both, row.salt)
