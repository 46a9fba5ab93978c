"""Energy and activation in the activity phase (seed "Activity phase", "Power plant")."""

from __future__ import annotations

from economy.models import Building, Operative
from tests.economy.conftest import snapshot


def activate(api, world, territory, ids, who="alice"):
    return api[who].put(
        f"/api/campaigns/{world.campaign.pk}/territories/{territory.pk}/activation/",
        {"active": [b.pk if hasattr(b, "pk") else b for b in ids]}, format="json")


def test_a_power_plant_powers_50_on_its_territory(world, api):
    """"Each power plant produces 50 points of energy for the other buildings on the same
    territory to consume." Command center 20 + landing pad 10 + mine shaft 15 = 45."""
    world.phase("activity")
    cc = Building.objects.get(territory=world.alpha, kind="command_center")
    pad = Building.objects.get(territory=world.alpha, kind="landing_pad")
    mine = world.build(world.alpha, "mine_shaft")
    r = activate(api, world, world.alpha, [cc, pad, mine])
    assert r.status_code == 200, r.json()
    assert set(Building.objects.filter(active=True).values_list("pk", flat=True)) == {
        cc.pk, pad.pk, mine.pk}


def test_a_plan_needing_more_power_is_refused_with_energy_and_changes_nothing(world, api):
    """"you can't use more buildings than you can put power in." 20 + 10 + 15 + 15 = 60."""
    world.phase("activity")
    cc = Building.objects.get(territory=world.alpha, kind="command_center")
    pad = Building.objects.get(territory=world.alpha, kind="landing_pad")
    m1, m2 = world.build(world.alpha, "mine_shaft"), world.build(world.alpha, "mine_shaft")
    before = snapshot()
    r = activate(api, world, world.alpha, [cc, pad, m1, m2])
    assert r.status_code == 400 and r.json()["code"] == "energy"
    assert snapshot() == before


def test_enhanced_generators_double_every_plant_on_the_territory(world, api):
    """"allowing it all the power plants on the territory to produce twice as much power"
    — two plants, one enhanced: 200 energy; a laboratory needs 60."""
    world.phase("activity")
    Building.objects.filter(territory=world.alpha, kind="power_plant").update(
        upgrades=["enhanced_generators"])
    world.build(world.alpha, "power_plant")
    labs = [world.build(world.alpha, "laboratory") for _ in range(3)]
    for _ in range(3):
        world.operative(world.alice, world.alpha, "scientist")
    assert activate(api, world, world.alpha, labs).status_code == 200  # 180 <= 200
    world.build(world.alpha, "mine_shaft")
    r = activate(api, world, world.alpha, [*labs, Building.objects.last()])  # 195
    assert r.status_code == 200
    r = activate(api, world, world.alpha, [*labs, Building.objects.last(),
                                           Building.objects.get(territory=world.alpha,
                                                                kind="command_center")])
    assert r.json()["code"] == "energy"  # 215 > 200


def test_an_enhanced_plant_destroyed_loses_the_bonus(world, api):
    """"should the later be destroyed, the enhancement would be lost"."""
    world.phase("activity")
    plant = Building.objects.get(territory=world.alpha, kind="power_plant")
    plant.upgrades = ["enhanced_generators"]
    plant.save()
    other = world.build(world.alpha, "power_plant")
    lab = world.build(world.alpha, "laboratory")
    lab2 = world.build(world.alpha, "laboratory")
    world.operative(world.alice, world.alpha, "scientist")
    world.operative(world.alice, world.alpha, "scientist")
    assert activate(api, world, world.alpha, [lab, lab2]).status_code == 200  # 120 <= 200
    plant.hit_points = 0
    plant.save()
    assert other.pk
    assert activate(api, world, world.alpha, [lab, lab2]).json()["code"] == "energy"  # 50


def test_the_extended_power_grid_pools_power_between_territories(world, api):
    """"The power plant may produce energy to other territories with a Power Plant with
    extended power grid" — R-ECO-1: every grid territory of the player shares a pool."""
    world.phase("activity")
    from territories.models import Territory

    world.gamma.owner = world.alice
    world.gamma.save()
    Building.objects.filter(territory=world.alpha, kind="power_plant").update(
        upgrades=["extended_power_grid"])
    gplant = world.build(world.gamma, "power_plant", upgrades=("extended_power_grid",))
    labs = [world.build(world.alpha, "laboratory") for _ in range(1)]
    world.operative(world.alice, world.alpha, "scientist")
    factory = world.build(world.alpha, "factory")
    # 60 + 30 = 90 > 50 on Alpha alone, <= 100 with Gamma's plant on the grid.
    assert activate(api, world, world.alpha, [*labs, factory]).status_code == 200
    gplant.upgrades = []
    gplant.save()
    assert activate(api, world, world.alpha, [*labs, factory]).json()["code"] == "energy"
    assert Territory.objects.count() == 3


def test_no_more_active_laboratories_than_scientists(world, api):
    """Laboratory: "You cannot activate any more Laboratory than the number of Scientist
    you've hired.\""""
    world.phase("activity")
    world.build(world.alpha, "power_plant")  # a laboratory needs 60
    lab = world.build(world.alpha, "laboratory")
    before = snapshot()
    r = activate(api, world, world.alpha, [lab])
    assert r.status_code == 400 and r.json()["code"] == "scientists"
    assert snapshot() == before
    Operative.objects.create(player=world.alice, territory=world.beta, klass="scientist")
    assert activate(api, world, world.alpha, [lab]).status_code == 200


def test_activation_only_in_the_activity_phase_and_only_own_buildings(world, api):
    before = snapshot()
    cc = Building.objects.get(territory=world.alpha, kind="command_center")
    r = activate(api, world, world.alpha, [cc])
    assert r.status_code == 409 and r.json()["code"] == "wrong_phase"
    world.phase("activity")
    before = snapshot()
    bob_cc = Building.objects.get(territory=world.beta, kind="command_center")
    assert activate(api, world, world.alpha, [bob_cc]).status_code == 404
    assert activate(api, world, world.beta, [bob_cc]).status_code == 403
    assert snapshot() == before


def test_the_plan_replaces_the_territorys_active_set(world, api):
    """Buildings left out of the list become inactive ("you have to choose which
    buildings are active and which aren't")."""
    world.phase("activity")
    cc = Building.objects.get(territory=world.alpha, kind="command_center")
    pad = Building.objects.get(territory=world.alpha, kind="landing_pad")
    activate(api, world, world.alpha, [cc, pad])
    activate(api, world, world.alpha, [pad])
    cc.refresh_from_db()
    pad.refresh_from_db()
    assert (cc.active, pad.active) == (False, True)
