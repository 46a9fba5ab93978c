"""Seed, "Move Phase": "In this phase, any two pilots in the same group of territories
can exchange equipment." (R-ORD-5: a group is a connected set of the player's
controlled territories.)"""

from __future__ import annotations

import pytest

from campaign.models import Phase
from tests.orders.conftest import make_unit, set_phase

pytestmark = pytest.mark.django_db


@pytest.fixture
def gun(world):
    from economy.models import Weapon

    return Weapon.objects.create(player=world.alice, territory=world.t["Alpha"],
                                 weapon="machine_gun", unit=world.a1, slot=0)


def post(client, world, **body):
    return client.post(f"/api/campaigns/{world.campaign.pk}/exchanges/", body, format="json")


def test_two_pilots_in_the_same_group_exchange_a_weapon(world, gun, client_for):
    r = post(client_for(world.users["alice"]), world, from_unit=world.a1.pk,
             to_unit=world.a2.pk, weapon=gun.pk)
    assert r.status_code == 201, r.json()
    gun.refresh_from_db()
    assert gun.unit_id == world.a2.pk and gun.territory_id == world.t["Beta"].pk


def test_pilots_in_separated_groups_cannot_exchange(world, gun, client_for):
    """Alpha-Beta and Epsilon are not connected through alice's land."""
    world.t["Epsilon"].owner = world.alice
    world.t["Epsilon"].save()
    far = make_unit(world.alice, world.t["Epsilon"])
    r = post(client_for(world.users["alice"]), world, from_unit=world.a1.pk,
             to_unit=far.pk, weapon=gun.pk)
    assert r.status_code == 400 and r.json()["code"] == "not_same_group"


def test_exchange_needs_two_pilots(world, gun, client_for):
    empty = make_unit(world.alice, world.t["Beta"], pilot=False)
    r = post(client_for(world.users["alice"]), world, from_unit=world.a1.pk,
             to_unit=empty.pk, weapon=gun.pk)
    assert r.status_code == 400 and r.json()["code"] == "no_pilot"


def test_exchange_only_in_the_move_phase(world, gun, client_for):
    set_phase(world.campaign, Phase.ACTIVITY, 2)
    r = post(client_for(world.users["alice"]), world, from_unit=world.a1.pk,
             to_unit=world.a2.pk, weapon=gun.pk)
    assert r.status_code == 409


def test_another_players_unit_is_no_such_unit(world, gun, client_for):
    bob = client_for(world.users["bob"])
    r1 = post(bob, world, from_unit=world.a1.pk, to_unit=world.b1.pk, weapon=gun.pk)
    r2 = post(bob, world, from_unit=999999, to_unit=world.b1.pk, weapon=gun.pk)
    assert (r1.status_code, r1.json()) == (r2.status_code, r2.json()) == (
        404, {"code": "not_found", "detail": "No such unit."})


def test_a_locked_unit_cannot_change_equipment(world, gun, client_for):
    """"That unit cannot change any Equipment or Pilots until the beginning of the
    subsequent Strategic Turn.\""""
    world.a2.locked_until_turn = 2
    world.a2.save()
    r = post(client_for(world.users["alice"]), world, from_unit=world.a1.pk,
             to_unit=world.a2.pk, weapon=gun.pk)
    assert r.status_code == 409 and r.json()["code"] == "unit_locked"
