"""Turrets carry one weapon (seed, "Turret": "The turret can be fitted with any one kind
of weapons"; Bunker/Command center: "Turret (cost 100) : As the turret described
further"). R-ECO-17."""

from __future__ import annotations

from battles.rulesets.unlimit3d8.ruleset import building_input_of
from battles.services.inputs import building_data
from economy.models import Building, Weapon
from economy.services.storage import load_holdings
from tests.economy.conftest import snapshot


def fit(api, world, building, weapon, who="alice"):
    return api[who].put(f"/api/campaigns/{world.campaign.pk}/buildings/{building.pk}/weapon/",
                        {"weapon": weapon}, format="json")


def test_a_turret_takes_a_loose_weapon_which_leaves_its_container(world, api):
    world.phase("activity")
    world.build(world.alpha, "warehouse")
    turret = world.build(world.alpha, "turret")
    cannon = world.weapon(world.alice, world.alpha, "cannon", ("heavy",))
    assert load_holdings(world.alpha).loose["H"] == 1
    r = fit(api, world, turret, cannon.pk)
    assert r.status_code == 200, r.json()
    assert r.json()["weapon"] == cannon.pk
    assert load_holdings(world.alpha).loose["H"] == 0
    turret.refresh_from_db()
    engine = building_input_of(building_data(turret))
    assert engine.weapon is not None and engine.weapon.key == "cannon"
    assert engine.weapon.templates == ("heavy",)


def test_a_turret_mount_on_a_bunker_takes_a_weapon_a_plain_bunker_does_not(world, api):
    world.phase("activity")
    world.build(world.alpha, "warehouse")
    plain = world.build(world.alpha, "bunker")
    mounted = world.build(world.alpha, "command_center", upgrades=("turret",))
    gun = world.weapon(world.alice, world.alpha, "machine_gun")
    before = snapshot()
    r = fit(api, world, plain, gun.pk)
    assert r.status_code == 400 and r.json()["code"] == "not_a_turret"
    assert snapshot() == before
    assert fit(api, world, mounted, gun.pk).status_code == 200


def test_replacing_or_removing_the_weapon_needs_room_for_it(world, api):
    """The weapon taken off goes back into a container (R-ECO-13): without room the change
    is refused and nothing changes."""
    world.phase("activity")
    turret = world.build(world.alpha, "turret")
    gun = world.weapon(world.alice, world.alpha, "machine_gun")
    Building.objects.filter(pk=turret.pk).update(weapon=gun)  # fitted before the
    before = snapshot()                                         # warehouse was lost
    r = fit(api, world, turret, None)
    assert r.status_code == 400 and r.json()["code"] == "no_room"
    assert snapshot() == before
    world.build(world.alpha, "warehouse")
    r = fit(api, world, turret, None)
    assert r.status_code == 200 and r.json()["weapon"] is None


def test_refusals_change_nothing(world, api):
    """Activity phase only; own turret; own weapon on the same territory; loose; not
    equipment."""
    world.build(world.alpha, "warehouse")
    world.build(world.gamma, "warehouse")
    world.gamma.owner = world.alice
    world.gamma.save()
    turret = world.build(world.alpha, "turret")
    bobs_turret = world.build(world.beta, "turret")
    gun = world.weapon(world.alice, world.alpha, "machine_gun")
    far = world.weapon(world.alice, world.gamma, "machine_gun")
    shield = world.weapon(world.alice, world.alpha, "shield")
    bobs_gun = world.weapon(world.bob, world.beta, "machine_gun")
    golem = world.unit(world.alice, world.alpha, "golem")
    fitted = world.weapon(world.alice, world.alpha, "cannon")
    Weapon.objects.filter(pk=fitted.pk).update(unit=golem, slot=0)
    before = snapshot()
    r = fit(api, world, turret, gun.pk)
    assert (r.status_code, r.json()["code"]) == (409, "wrong_phase")
    world.phase("activity")
    before = snapshot()
    cases = [(turret, far.pk, 400, "wrong_territory"), (turret, shield.pk, 400, "not_a_weapon"),
             (turret, fitted.pk, 400, "weapon_fitted"), (turret, bobs_gun.pk, 404, "not_found"),
             (bobs_turret, gun.pk, 404, "not_found"), (turret, "x", 400, None)]
    for building, weapon, code, machine in cases:
        r = fit(api, world, building, weapon)
        assert r.status_code == code, (weapon, r.json())
        if machine:
            assert r.json()["code"] == machine
    assert api["alice"].put(f"/api/campaigns/{world.campaign.pk}/buildings/{turret.pk}/weapon/",
                            {}, format="json").status_code == 400
    assert snapshot() == before


def test_a_weapon_on_a_turret_is_not_traded_and_a_unit_can_take_it(world, api):
    world.build(world.alpha, "warehouse")
    turret = world.build(world.alpha, "turret")
    gun = world.weapon(world.alice, world.alpha, "machine_gun")
    Building.objects.filter(pk=turret.pk).update(weapon=gun)
    r = api["alice"].post(f"/api/campaigns/{world.campaign.pk}/trades/",
                          {"to_player": world.bob.pk,
                           "give": {"weapons": [gun.pk], "deliver_to": world.beta.pk}},
                          format="json")
    assert r.status_code == 400 and r.json()["code"] == "goods_unavailable"
    world.phase("activity")
    golem = world.unit(world.alice, world.alpha, "golem")
    r = api["alice"].patch(f"/api/campaigns/{world.campaign.pk}/units/{golem.pk}/",
                           {"weapons": [gun.pk]}, format="json")
    assert r.status_code == 200, r.json()
    turret.refresh_from_db()
    assert turret.weapon_id is None

