"""Locked units, trades of operatives, umpire corrections of units and weapons.

Seed, "Tactical phase": a unit that could not retreat "cannot change any Equipment or
Pilots until the beginning of the subsequent Strategic Turn" (R-BJ-7 sets
`locked_until_turn`; R-ECO-14 refuses with 409 unit_locked). "In this phase you can
also trade resources or services with your different opponents" (R-ECO-20: operatives).
Issue 4, umpire corrections (R-ECO-21: units and weapons)."""

from __future__ import annotations

import uuid

import pytest

from campaign.errors import Conflict
from campaign.models import Event
from economy.models import Operative, Unit, Weapon
from economy.services import exchange
from tests.economy.conftest import snapshot


def locked_golem(world, *, until=3, status="ready"):
    pilot = world.operative(world.alice, world.alpha)
    golem = world.unit(world.alice, world.alpha, "golem", pilot=pilot,
                       locked_until_turn=until, status=status)
    return golem, pilot


@pytest.mark.parametrize("turn, refused", [(1, True), (2, True), (3, False)])
def test_a_locked_unit_refuses_crew_and_fit_until_its_turn(world, api, turn, refused):
    """Locked until turn 3 (failed retreat on turn 1): refused on turns 1 and 2."""
    world.phase("activity", turn=turn)
    world.build(world.alpha, "warehouse")
    golem, _pilot = locked_golem(world)
    gun = world.weapon(world.alice, world.alpha, "cannon")
    before = snapshot()
    r = api["alice"].patch(f"/api/campaigns/{world.campaign.pk}/units/{golem.pk}/",
                           {"weapons": [gun.pk]}, format="json")
    if refused:
        assert r.status_code == 409 and r.json()["code"] == "unit_locked"
        assert snapshot() == before
    else:
        assert r.status_code == 200, r.json()


def test_a_locked_units_pilot_cannot_be_moved_to_another_unit(world, api):
    world.phase("activity")
    _golem, pilot = locked_golem(world)
    other = world.unit(world.alice, world.alpha, "golem")
    before = snapshot()
    r = api["alice"].patch(f"/api/campaigns/{world.campaign.pk}/units/{other.pk}/",
                           {"pilot": pilot.pk}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "unit_locked"
    assert snapshot() == before


def test_a_locked_unit_cannot_buy_the_extension(world, api):
    """The Hellound extension is equipment: a locked unit cannot take it."""
    world.build(world.alpha, "landing_pad")
    hound = world.unit(world.alice, world.alpha, "hellound", locked_until_turn=3)
    before = snapshot()
    r = api["alice"].post(f"/api/campaigns/{world.campaign.pk}/purchases/",
                          {"territory": world.alpha.pk,
                           "item": {"kind": "equipment", "equipment": "extension",
                                    "unit": hound.pk}}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "unit_locked"
    assert snapshot() == before


def test_a_locked_unit_cannot_take_part_in_an_equipment_exchange(world):
    """R-ORD-5: "a unit locked after a failed retreat cannot take part" — 409 unit_locked,
    also while it is still off the map."""
    world.phase("move")
    golem, _ = locked_golem(world, status="off_map")
    other = world.unit(world.alice, world.alpha, "golem",
                       pilot=world.operative(world.alice, world.alpha))
    gun = world.weapon(world.alice, world.alpha, "machine_gun")
    Weapon.objects.filter(pk=gun.pk).update(unit=other, slot=0)
    before = snapshot()
    with pytest.raises(Conflict) as err:
        exchange.equipment_exchange(player=world.alice, from_unit_id=other.pk,
                                  to_unit_id=golem.pk, weapon_id=gun.pk)
    assert err.value.code == "unit_locked"
    assert snapshot() == before


def trade(api, world, give, receive=None):
    return api["alice"].post(f"/api/campaigns/{world.campaign.pk}/trades/",
                             {"to_player": world.bob.pk, "give": give,
                              "receive": receive or {}}, format="json")


def test_an_operative_changes_owner_and_leaves_their_unit(world, api):
    golem = world.unit(world.alice, world.alpha, "golem")
    pilot = world.operative(world.alice, world.alpha, "scientist", level=3)
    Unit.objects.filter(pk=golem.pk).update(pilot=pilot)
    r = trade(api, world, {"operatives": [pilot.pk], "deliver_to": world.beta.pk},
              {"credits": 50})
    assert r.status_code == 201, r.json()
    r = api["bob"].post(f"/api/campaigns/{world.campaign.pk}/trades/{r.json()['id']}/accept/")
    assert r.status_code == 200, r.json()
    pilot.refresh_from_db()
    golem.refresh_from_db()
    assert (pilot.player_id, pilot.territory_id, pilot.level) == (world.bob.pk,
                                                                   world.beta.pk, 3)
    assert golem.pilot_id is None and golem.player_id == world.alice.pk
    pilots = api["bob"].get(f"/api/campaigns/{world.campaign.pk}/pilots/").json()
    assert [p["id"] for p in pilots] == [pilot.pk]


def test_operatives_offered_must_be_the_givers_alive_and_free(world, api):
    dead = world.operative(world.alice, world.alpha)
    Operative.objects.filter(pk=dead.pk).update(alive=False)
    bobs = world.operative(world.bob, world.beta)
    _, locked_pilot = locked_golem(world)
    before = snapshot()
    for ops, code, machine in [([dead.pk], 400, "goods_unavailable"),
                               ([bobs.pk], 400, "goods_unavailable"),
                               ([locked_pilot.pk], 409, "unit_locked")]:
        r = trade(api, world, {"operatives": ops, "deliver_to": world.beta.pk})
        assert (r.status_code, r.json()["code"]) == (code, machine)
    r = trade(api, world, {"operatives": [dead.pk, dead.pk], "deliver_to": world.beta.pk})
    assert r.status_code == 400
    assert snapshot() == before


def correct(api, world, body, who="uma"):
    body = {"request_id": uuid.uuid4().hex, **body}
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/corrections/", body,
                         format="json")


def test_the_umpire_grants_and_takes_a_unit_with_a_reason(world, api):
    r = correct(api, world, {"player": world.alice.pk, "reason": "lost card",
                             "unit": {"model": "Golem", "territory": world.alpha.pk}})
    assert r.status_code == 201, r.json()
    uid = r.json()["unit"]["granted"]
    unit = Unit.objects.get(pk=uid)
    assert (unit.player_id, unit.territory_id, unit.model) == (world.alice.pk,
                                                               world.alpha.pk, "golem")
    pilot = world.operative(world.alice, world.alpha)
    Unit.objects.filter(pk=uid).update(pilot=pilot)
    r = correct(api, world, {"player": world.alice.pk, "reason": "duplicate",
                             "unit": {"take": uid}})
    assert r.status_code == 201, r.json()
    unit.refresh_from_db()
    assert unit.status == "destroyed" and unit.pilot_id is None
    events = Event.objects.filter(kind="umpire_correction")
    assert [e.data["reason"] for e in events] == ["lost card", "duplicate"]
    assert all(world.alice in e.viewers.all() for e in events)


def test_the_umpire_grants_and_takes_a_weapon(world, api):
    world.build(world.alpha, "warehouse")
    r = correct(api, world, {"player": world.alice.pk, "reason": "prize",
                             "weapon": {"weapon": "cannon", "templates": ["heavy"],
                                        "territory": world.alpha.pk}})
    assert r.status_code == 201, r.json()
    wid = r.json()["weapon"]["granted"]
    assert Weapon.objects.get(pk=wid).templates == ["heavy"]
    r = correct(api, world, {"player": world.alice.pk, "reason": "error",
                             "weapon": {"take": wid}})
    assert r.status_code == 201 and not Weapon.objects.filter(pk=wid).exists()


def test_unit_and_weapon_corrections_are_refused_cleanly(world, api):
    golem = world.unit(world.bob, world.beta, "golem")
    before = snapshot()
    cases = [
        ("alice", {"player": world.alice.pk, "reason": "x",
                   "unit": {"model": "golem", "territory": world.alpha.pk}}, 403),
        ("uma", {"player": world.alice.pk, "reason": "x",
                 "unit": {"model": "nope", "territory": world.alpha.pk}}, 400),
        ("uma", {"player": world.alice.pk, "reason": "x",
                 "unit": {"model": "golem", "territory": world.beta.pk}}, 400),
        ("uma", {"player": world.alice.pk, "reason": "x", "unit": {"take": golem.pk}}, 404),
        ("uma", {"player": world.alice.pk, "reason": "x",
                 "weapon": {"weapon": "cannon", "territory": world.alpha.pk}}, 400),  # no room
        ("uma", {"player": world.alice.pk, "reason": "x",
                 "weapon": {"weapon": "cannon", "templates": ["heavy", "light"],
                            "territory": world.alpha.pk}}, 400),
        ("uma", {"player": world.alice.pk, "reason": "x", "weapon": "cannon"}, 400),
        ("uma", {"player": world.alice.pk, "unit": {"take": golem.pk}}, 400),
    ]
    for who, body, code in cases:
        r = correct(api, world, body, who)
        assert r.status_code == code, (body, r.json())
    assert snapshot() == before
