"""Missed turns and handing a seat over."""

from __future__ import annotations

import pytest

from campaign.models import Event, Phase
from orders.services import sealing as orders
from orders.services.missed_turns import missed_turns
from tests.orders.conftest import advance_to, set_phase

pytestmark = pytest.mark.django_db


def close_move_phase(world, turn: int) -> None:
    set_phase(world.campaign, Phase.MOVE, turn)
    advance_to(world, Phase.TACTICAL)
    world.refresh()


def test_a_player_who_gives_no_order_and_is_not_ready_misses_the_turn(world):
    """"a player who submits nothing keeps their units in place; the journal records
    the miss" -- bob gave no order, alice did."""
    orders.order_submit(player=world.alice, unit_id=world.a1.pk,
                        destination_id=world.t["Beta"].pk)
    close_move_phase(world, 1)
    assert (world.alice.missed_turns, world.bob.missed_turns) == (0, 1)
    assert world.b1.territory_id == world.t["Epsilon"].pk
    umpire_entry = Event.objects.get(kind="missed_turns")
    assert umpire_entry.visibility == "umpire"
    assert [m["player"] for m in umpire_entry.data["missed"]] == [world.bob.pk]
    own = Event.objects.get(kind="moves_carried_out", viewers=world.bob)
    assert own.data["missed_turns"] == 1


def test_marking_ready_is_not_a_miss_and_resets_the_count(world):
    world.bob.missed_turns = 3
    world.bob.save()
    world.bob.ready = True
    world.bob.save()
    missed_turns(campaign=world.campaign)
    world.bob.refresh_from_db()
    assert world.bob.missed_turns == 0


def test_the_umpire_is_alerted_after_n_missed_turns(build_world, client_for):
    world = build_world(options={"missed_turns_alert": 2})
    close_move_phase(world, 1)
    assert Event.objects.filter(kind="missed_turns").last().data["alert"] == []
    close_move_phase(world, 2)
    alert = Event.objects.filter(kind="missed_turns").last().data["alert"]
    assert {a["player"] for a in alert} == {world.alice.pk, world.bob.pk}
    umpire = client_for(world.users["uma"])
    kinds = [e["kind"] for e in umpire.get(
        f"/api/campaigns/{world.campaign.pk}/events/?kind=missed_turns").json()]
    assert kinds == ["missed_turns", "missed_turns"]
    # Players do not read the umpire's entry.
    bob = client_for(world.users["bob"])
    assert bob.get(f"/api/campaigns/{world.campaign.pk}/events/?kind=missed_turns").json() == []


def test_umpire_hands_a_seat_to_another_user(world, client_for):
    umpire = client_for(world.users["uma"])
    url = f"/api/campaigns/{world.campaign.pk}/players/{world.bob.pk}/handover/"
    r = umpire.post(url, {"username": "charlie"}, format="json")
    assert r.status_code == 200 and r.json()["username"] == "charlie"
    charlie = client_for(world.users["charlie"])
    assert charlie.get(f"/api/campaigns/{world.campaign.pk}/units/").status_code == 200
    assert client_for(world.users["bob"]).get(
        f"/api/campaigns/{world.campaign.pk}/").status_code == 404
    assert Event.objects.filter(kind="seat_handed_over").exists()


def test_handover_refusals(world, client_for):
    umpire = client_for(world.users["uma"])
    base = f"/api/campaigns/{world.campaign.pk}/players/"
    assert client_for(world.users["alice"]).post(
        base + f"{world.bob.pk}/handover/", {"username": "charlie"},
        format="json").status_code == 403
    assert umpire.post(base + "99999/handover/", {"username": "charlie"},
                       format="json").status_code == 404
    r = umpire.post(base + f"{world.bob.pk}/handover/", {"username": "nobody"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_user"
    r = umpire.post(base + f"{world.bob.pk}/handover/", {"username": "alice"}, format="json")
    assert r.status_code == 409
