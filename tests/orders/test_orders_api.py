"""Sealed orders through the API (seed, "Move Phase")."""

from __future__ import annotations

import pytest

from campaign.models import Phase
from orders.models import Order
from tests.orders.conftest import advance_to, make_unit, set_phase

pytestmark = pytest.mark.django_db


def url(world, tail: str = "orders/") -> str:
    return f"/api/campaigns/{world.campaign.pk}/{tail}"


def test_a_unit_moves_to_any_territory_adjacent_to_controlled_land(world, client_for):
    """"any of your units can move to any territory you control, or any territory
    adjacent to a territory you control." Alpha -> Gamma passes through Beta (alice's)."""
    c = client_for(world.users["alice"])
    r = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Gamma"].pk},
               format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["unit"] == world.a1.pk and body["destination"] == world.t["Gamma"].pk
    assert Order.objects.get(public_id=body["id"]).origin_id == world.t["Alpha"].pk


def test_a_move_through_territory_not_controlled_is_unreachable(world, client_for):
    """"The only restriction being that the unit has to travel through territories you
    control." Alpha -> Delta would need to cross Gamma, which alice does not control."""
    c = client_for(world.users["alice"])
    r = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Delta"].pk},
               format="json")
    assert r.status_code == 400
    assert r.json()["code"] == "unreachable"
    assert not Order.objects.exists()


def test_a_cut_off_territory_cannot_be_reached(world, client_for):
    """"if for any reasons one of several of your territories were to be separated from
    the others, none of your units can travel from the first to the later freely"."""
    world.t["Epsilon"].owner = world.alice
    world.t["Epsilon"].save()
    c = client_for(world.users["alice"])
    r = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Epsilon"].pk},
               format="json")
    assert r.status_code == 400 and r.json()["code"] == "unreachable"


def test_reposting_replaces_the_order_and_keeps_one_per_unit(world, client_for):
    """"you have to decide where each unit will be at the end of this turn": one order
    per unit, the last one counts."""
    c = client_for(world.users["alice"])
    first = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Beta"].pk},
                   format="json").json()
    second = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Gamma"].pk},
                    format="json").json()
    assert first["id"] == second["id"]
    assert Order.objects.count() == 1
    assert Order.objects.get().destination_id == world.t["Gamma"].pk


def test_orders_only_in_the_move_phase(build_world, client_for):
    """"In the Move Phase, any of your units can move": not in any other phase."""
    for phase in (Phase.COMMERCIAL, Phase.ACTIVITY, Phase.TACTICAL):
        world = build_world(phase=phase)
        c = client_for(world.users["alice"])
        r = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Beta"].pk},
                   format="json")
        assert r.status_code == 409 and r.json()["code"] == "wrong_phase"
        world.campaign.delete()


def test_ordering_to_the_current_territory_is_refused(world, client_for):
    c = client_for(world.users["alice"])
    r = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Alpha"].pk},
               format="json")
    assert r.status_code == 400 and r.json()["code"] == "already_there"


def test_bad_input_is_400_not_500(world, client_for):
    c = client_for(world.users["alice"])
    for body in ({}, {"unit": "x", "destination": 1}, {"unit": world.a1.pk},
                 {"unit": world.a1.pk, "destination": 10**9}):
        r = c.post(url(world), body, format="json")
        assert r.status_code == 400, (body, r.status_code)
        assert set(r.json()) >= {"code", "detail"}


def test_withdraw_own_order_then_the_unit_stays_put(world, client_for):
    """A unit that is not ordered stays put."""
    c = client_for(world.users["alice"])
    oid = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Beta"].pk},
                 format="json").json()["id"]
    assert c.delete(url(world, f"orders/{oid}/")).status_code == 204
    assert c.get(url(world)).json() == []
    advance_to(world, Phase.TACTICAL)
    world.refresh()
    assert world.a1.territory_id == world.t["Alpha"].pk


def test_withdraw_outside_the_move_phase_is_409(world, client_for):
    c = client_for(world.users["alice"])
    oid = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Beta"].pk},
                 format="json").json()["id"]
    advance_to(world, Phase.TACTICAL)
    r = c.delete(url(world, f"orders/{oid}/"))
    assert r.status_code == 409 and r.json()["code"] == "wrong_phase"


def test_order_ids_are_not_sequential(world, client_for):
    """Sequential ids would count other players' orders made in between."""
    c = client_for(world.users["alice"])
    a = c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Beta"].pk},
               format="json").json()["id"]
    b = c.post(url(world), {"unit": world.a2.pk, "destination": world.t["Gamma"].pk},
               format="json").json()["id"]
    assert abs(a - b) != 1 and a != Order.objects.get(public_id=a).pk


def test_off_map_unit_comes_back_where_its_player_picks(world, client_for):
    """"they are removed from the map and reappear at the beginning of the next Movement
    phase on any territory that unit's player controls" (R-ORD-4)."""
    lost = make_unit(world.alice, None, status="off_map")
    c = client_for(world.users["alice"])
    r = c.post(url(world), {"unit": lost.pk, "destination": world.t["Gamma"].pk},
               format="json")
    assert r.status_code == 400 and r.json()["code"] == "unreachable"
    r = c.post(url(world), {"unit": lost.pk, "destination": world.t["Beta"].pk},
               format="json")
    assert r.status_code == 201 and r.json()["origin"] is None
    advance_to(world, Phase.TACTICAL)
    lost.refresh_from_db()
    assert (lost.territory_id, lost.status) == (world.t["Beta"].pk, "ready")


def test_off_map_unit_without_order_returns_on_first_territory(world):
    """R-ORD-4: without an order the unit reappears on its player's first territory."""
    lost = make_unit(world.alice, None, status="off_map")
    advance_to(world, Phase.TACTICAL)
    lost.refresh_from_db()
    assert (lost.territory_id, lost.status) == (world.t["Alpha"].pk, "ready")


def test_units_list_is_the_orders_of_this_turn_only_for_own(world, client_for):
    c = client_for(world.users["alice"])
    c.post(url(world), {"unit": world.a1.pk, "destination": world.t["Beta"].pk},
           format="json")
    set_phase(world.campaign, Phase.MOVE, 2)
    assert [o["turn"] for o in c.get(url(world)).json()] == [1]
    assert c.get(url(world) + "?turn=2").json() == []
    assert c.get(url(world) + "?turn=x").status_code == 400
