"""Crew and fit in the activity phase; units and pilots lists (API.md "Units")."""

from __future__ import annotations

from economy.models import Unit, Weapon
from tests.economy.conftest import snapshot


def patch(api, world, unit, body, who="alice"):
    return api[who].patch(f"/api/campaigns/{world.campaign.pk}/units/{unit.pk}/", body,
                          format="json")


def test_crew_and_fit_a_golem(world, api):
    """Weapon slots: "A "H" Weapon slot means you can fit either a Heavy weapon, a Medium
    weapon or a Light Weapon on it". Golem: 1H."""
    world.phase("activity")
    golem = world.unit(world.alice, world.alpha, "golem")
    pilot = world.operative(world.alice, world.alpha, "soldier")
    cannon = world.weapon(world.alice, world.alpha, "cannon", ("heavy",))
    r = patch(api, world, golem, {"pilot": pilot.pk, "weapons": [cannon.pk]})
    assert r.status_code == 200, r.json()
    assert r.json()["pilot"] == pilot.pk and r.json()["weapons"] == [cannon.pk]
    units = api["alice"].get(f"/api/campaigns/{world.campaign.pk}/units/").json()
    assert units[0]["id"] == golem.pk and set(units[0]) >= {
        "id", "territory", "model", "pilot", "weapons", "hit_points", "status"}
    pilots = api["alice"].get(f"/api/campaigns/{world.campaign.pk}/pilots/").json()
    assert pilots == [{"id": pilot.pk, "class": "soldier", "name": "Soldier", "level": 1, "xp": 0,
                       "unit": golem.pk, "territory": world.alpha.pk, "alive": True}]


def test_slots_refuse_what_does_not_fit(world, api):
    """An "M" slot takes "a Medium or a Light weapon": a heavy cannon on a Kanker (1M) is
    refused; two weapons on one slot are refused."""
    world.phase("activity")
    kanker = world.unit(world.alice, world.alpha, "kanker")
    heavy = world.weapon(world.alice, world.alpha, "cannon", ("heavy",))
    m1 = world.weapon(world.alice, world.alpha, "cannon")
    m2 = world.weapon(world.alice, world.alpha, "cannon")
    world.build(world.alpha, "warehouse")
    before = snapshot()
    for ids in ([heavy.pk], [m1.pk, m2.pk]):
        r = patch(api, world, kanker, {"weapons": ids})
        assert r.status_code == 400 and r.json()["code"] == "slots"
    assert snapshot() == before
    assert patch(api, world, kanker, {"weapons": [m1.pk]}).status_code == 200


def test_exo_armour_takes_an_additional_light_shield(world, api):
    """Exo Armor: "even when given a weapon, they can always take an additional light
    shield." Shark: 1L."""
    world.phase("activity")
    world.build(world.alpha, "warehouse")
    shark = world.unit(world.alice, world.alpha, "shark")
    gun = world.weapon(world.alice, world.alpha, "machine_gun", ("light",))
    shield = world.weapon(world.alice, world.alpha, "shield", ("light",))
    r = patch(api, world, shark, {"weapons": [gun.pk, shield.pk]})
    assert r.status_code == 200, r.json()
    golem = world.unit(world.alice, world.alpha, "golem")
    g2 = world.weapon(world.alice, world.alpha, "cannon")
    s2 = world.weapon(world.alice, world.alpha, "shield", ("light",))
    assert patch(api, world, golem, {"weapons": [g2.pk, s2.pk]}).json()["code"] == "slots"


def test_fitting_needs_the_same_territory(world, api):
    """"as long as both the vehicle and equipment are in the same territory"."""
    world.phase("activity")
    golem = world.unit(world.alice, world.alpha, "golem")
    far = world.weapon(world.alice, world.beta, "cannon")
    far_pilot = world.operative(world.alice, world.beta, "soldier")
    before = snapshot()
    assert patch(api, world, golem, {"weapons": [far.pk]}).json()["code"] == "wrong_territory"
    assert patch(api, world, golem, {"pilot": far_pilot.pk}).json()["code"] == \
        "wrong_territory"
    assert snapshot() == before


def test_unfitted_weapons_go_into_containers(world, api):
    """"any weapon not attached to a vehicle ... must be stored in a container": taking a
    weapon off without a warehouse is refused."""
    world.phase("activity")
    golem = world.unit(world.alice, world.alpha, "golem")
    cannon = Weapon.objects.create(player=world.alice, territory=world.alpha,
                                   weapon="cannon", unit=golem, slot=0)
    before = snapshot()
    r = patch(api, world, golem, {"weapons": []})
    assert r.status_code == 400 and r.json()["code"] == "no_room"
    assert snapshot() == before
    world.build(world.alpha, "warehouse")
    assert patch(api, world, golem, {"weapons": []}).status_code == 200
    cannon.refresh_from_db()
    assert cannon.unit_id is None


def test_locked_units_cannot_change(world, api):
    """Tactical phase: "That unit cannot change any Equipment or Pilots until the
    beginning of the subsequent Strategic Turn.\""""
    world.phase("activity")
    golem = world.unit(world.alice, world.alpha, "golem", locked_until_turn=2)
    pilot = world.operative(world.alice, world.alpha)
    before = snapshot()
    r = patch(api, world, golem, {"pilot": pilot.pk})
    assert r.status_code == 409 and r.json()["code"] == "unit_locked"
    assert snapshot() == before


def test_crew_and_fit_only_in_the_activity_phase_and_own_units(world, api):
    golem = world.unit(world.alice, world.alpha, "golem")
    bobs = world.unit(world.bob, world.beta, "golem")
    pilot = world.operative(world.alice, world.alpha)
    before = snapshot()
    assert patch(api, world, golem, {"pilot": pilot.pk}).status_code == 409
    world.phase("activity")
    before = snapshot()
    assert patch(api, world, bobs, {"pilot": pilot.pk}).status_code == 404
    bob_pilot = world.operative(world.bob, world.beta)
    before = snapshot()
    assert patch(api, world, golem, {"pilot": bob_pilot.pk}).status_code == 404
    assert snapshot() == before
    assert Unit.objects.get(pk=golem.pk).pilot_id is None


def test_a_pilot_moves_from_one_unit_to_another(world, api):
    """R-ECO-14: crewing a second unit of the same territory leaves the first empty."""
    world.phase("activity")
    a = world.unit(world.alice, world.alpha, "golem")
    b = world.unit(world.alice, world.alpha, "lycaon")
    pilot = world.operative(world.alice, world.alpha)
    patch(api, world, a, {"pilot": pilot.pk})
    assert patch(api, world, b, {"pilot": pilot.pk}).status_code == 200
    a.refresh_from_db()
    assert a.pilot_id is None
