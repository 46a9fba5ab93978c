"""Storage and production when the activity phase ends."""

from __future__ import annotations

from battles.rulesets.unlimit3d8.engine.dice import ForcedDice
from campaign.models import Event
from campaign.services import clock
from economy.models import Building, Stock, Unit, Weapon
from economy.services.production import production_run
from economy.services.storage import Holdings, load_holdings


def units(territory, resource, refined=False, pure=False):
    row = Stock.objects.filter(territory=territory, resource=resource, refined=refined,
                               pure=pure).first()
    return row.units if row else 0


def journal(player):
    event = Event.objects.filter(kind="production", viewers=player).last()
    return event.data["lines"]


def run(world, faces=()):
    world.phase("activity")
    production_run(campaign=world.campaign, dice=ForcedDice(faces))


def test_a_mine_shaft_produces_its_deposit_into_a_warehouse(world):
    """Mine Shaft: "produces resources according to the exploration roll"; active die
    4 -> 3 units a shaft; stored in warehouses of the same territory."""
    world.explore(world.alpha, "minerals", units=3)
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "mine_shaft", active=True)
    world.build(world.alpha, "mine_shaft", active=True)
    run(world)
    assert units(world.alpha, "minerals") == 6


def test_inactive_buildings_produce_nothing(world):
    """"Inactive buildings consume nothing and do nothing" (Activity phase: "If active")."""
    world.explore(world.alpha, "minerals", units=3)
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "mine_shaft", active=False)
    run(world)
    assert units(world.alpha, "minerals") == 0


def test_no_room_means_not_produced_and_the_journal_says_so(world):
    """"No Resource can be produced if there is no room in the Warehouses of the
    territory where the resources are being produced.\""""
    world.explore(world.alpha, "minerals", units=5)
    world.build(world.alpha, "mine_shaft", active=True)
    run(world)
    assert units(world.alpha, "minerals") == 0
    lines = journal(world.alice)
    assert any(line["kind"] == "no_room" and line["lost"] == 5 for line in lines)


def test_a_warehouse_holds_eight_containers_of_ten_units(world):
    """"A warehouse can store up to eight containers, all of which can contain up to ten
    resources." 78 units stored: only 2 more fit."""
    world.explore(world.alpha, "minerals", units=5)
    world.build(world.alpha, "warehouse")
    world.stock(world.alpha, "minerals", 78)
    world.build(world.alpha, "mine_shaft", active=True)
    run(world)
    assert units(world.alpha, "minerals") == 80


def test_containers_hold_one_resource_each():
    """"Each container may contain up to ten units of one single resource." R-ECO-4."""
    h = Holdings(containers=2)
    h.resources[("water", False, False)] = 5
    h.resources[("minerals", False, False)] = 5
    assert h.fits() and h.room_for(("water", False, False)) == 5
    assert h.room_for(("common_gas", False, False)) == 0


def test_loose_weapons_and_armour_fill_containers(world):
    """"A container can contain one armor, or five light weapons, or three medium
    weapons, or one heavy weapon.\""""
    world.build(world.alpha, "warehouse")
    for _ in range(5):
        world.weapon(world.alice, world.alpha, "machine_gun", ("light",))
    for _ in range(4):
        world.weapon(world.alice, world.alpha, "machine_gun")
    world.weapon(world.alice, world.alpha, "cannon", ("heavy",))
    world.unit(world.alice, world.alpha, "shark")
    h = load_holdings(world.alpha)
    assert h.used() == 1 + 2 + 1 + 1


def test_unstable_ground_rolls_a_d8_per_shaft(world):
    """"the ground is unstable. Roll a d8 for each mineshaft each turn : on a 1, the
    shaft doesn't produce any resource." Faces 1 and 5: one of two shafts produces."""
    world.explore(world.alpha, "water", units=2, unstable=True)
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "mine_shaft", active=True)
    world.build(world.alpha, "mine_shaft", active=True)
    run(world, [1, 5])
    assert units(world.alpha, "water") == 2
    rolls = [line for line in journal(world.alice) if line["kind"] == "unstable_ground_roll"]
    assert [(r["die"], r["decided"]) for r in rolls] == [(1, "no output"), (5, "produces")]


def test_pure_deposits_are_stored_as_pure(world):
    """Passive die 7+: "the resources are exceptionally pure"."""
    world.explore(world.alpha, "water", units=2, pure=True)
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "mine_shaft", active=True)
    run(world)
    assert units(world.alpha, "water", pure=True) == 2


def test_a_foundry_converts_up_to_20_units_from_any_territory(world):
    """Foundry: "It can convert 20 units of mineral every activity turn. The resources it
    converts don't have to be on the same territory, but the refined resources have to be
    stored in a warehouse on the territory they are produces"."""
    world.gamma.owner = world.alice
    world.gamma.save()
    world.build(world.alpha, "warehouse")
    world.build(world.gamma, "warehouse")
    world.stock(world.gamma, "minerals", 25)
    world.stock(world.gamma, "water", 10)  # refined by a refinery, not a foundry
    world.build(world.alpha, "foundry", active=True)
    run(world)
    assert units(world.alpha, "minerals", refined=True) == 20
    assert units(world.gamma, "minerals") == 5
    assert units(world.gamma, "water") == 10


def test_a_refinery_refines_gases_and_water(world):
    """Resource table: Water, Precious gas, Common Gas "Can be refined with: Refinery"."""
    world.build(world.alpha, "warehouse")
    world.stock(world.alpha, "common_gas", 12)
    world.build(world.alpha, "refinery", active=True)
    run(world)
    assert units(world.alpha, "common_gas", refined=True) == 12
    assert units(world.alpha, "common_gas") == 0


def test_a_factory_turns_refined_resources_into_its_product(world):
    """Factory: "For each 100 Credits needed to purchase what you need, you will have to
    bring the factory 1 unit of common gas, 2 units of minerals, 2 units of common metal
    and 1 unit of precious metal". Golem 150 SC, resources for 3 sets (300 SC): two
    golems (R-ECO-10: sets are counted on the turn's total, rounded up)."""
    world.build(world.alpha, "warehouse")
    for r, n in {"common_gas": 3, "minerals": 6, "common_metal": 6,
                 "precious_metal": 3}.items():
        world.stock(world.alpha, r, n, refined=True)
    world.build(world.alpha, "factory", active=True, product="vehicle:golem")
    run(world)
    assert Unit.objects.filter(player=world.alice, model="golem").count() == 2
    assert Stock.objects.filter(territory=world.alpha).count() == 0


def _rich(world):
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "warehouse")
    for r, n in {"common_gas": 10, "minerals": 20, "common_metal": 20,
                 "precious_metal": 10}.items():
        world.stock(world.alpha, r, n, refined=True)


def test_a_factory_builds_up_to_500_credits_a_turn(world):
    """"a factory can only build up to 500 Credits worth of material each strategic turn":
    Golem 150 SC -> three (450 SC) from resources for ten."""
    _rich(world)
    world.build(world.alpha, "factory", active=True, product="vehicle:golem")
    run(world)
    assert Unit.objects.filter(model="golem").count() == 3
    assert Stock.objects.get(territory=world.alpha, resource="minerals",
                             refined=True).units == 20 - 2 * 5


def test_extension_of_production_raises_it_to_800(world):
    """"Extension of production (Cost : 50) : The Factory become able to produce up to 800
    Credits worth of material each strategic turn." -> five golems (750 SC)."""
    _rich(world)
    world.build(world.alpha, "factory", active=True, product="vehicle:golem",
                upgrades=("extension_of_production",))
    run(world)
    assert Unit.objects.filter(model="golem").count() == 5


def test_factory_products_that_need_a_container_need_room(world):
    """Weapons made by a factory are loose weapons: they need containers (one heavy weapon
    a container). No warehouse on the factory's territory: nothing is made."""
    for r, n in {"common_gas": 1, "minerals": 2, "common_metal": 2,
                 "precious_metal": 1}.items():
        world.stock(world.beta, r, n, refined=True)
    world.build(world.alpha, "factory", active=True, product="weapon:cannon:heavy")
    world.gamma.owner = world.alice
    world.gamma.save()
    run(world)
    assert Weapon.objects.count() == 0
    assert any(line["kind"] == "factory_idle" for line in journal(world.alice))


def test_refitting_a_factory_spends_a_whole_activity_turn(world, api):
    """"It can be re-fitted, but you need to spend a whole activity turn during which the
    factory will consume energy to do so." R-ECO-9."""
    world.build(world.alpha, "warehouse")
    for r, n in {"common_gas": 5, "minerals": 10, "common_metal": 10,
                 "precious_metal": 5}.items():
        world.stock(world.alpha, r, n, refined=True)
    factory = world.build(world.alpha, "factory", active=True, product="vehicle:golem")
    world.phase("activity")
    r = api["alice"].put(f"/api/campaigns/{world.campaign.pk}/buildings/{factory.pk}/product/",
                         {"product": {"kind": "vehicle", "model": "Lycaon"}}, format="json")
    assert r.status_code == 200 and r.json()["next_product"] == ["vehicle:lycaon"]
    run(world)
    factory.refresh_from_db()
    assert factory.product == ["vehicle:lycaon"] and factory.next_product == []
    assert Unit.objects.count() == 0
    run(world)
    assert Unit.objects.filter(model="lycaon").count() == 5  # 5 x 100 SC = 5 sets


def test_laboratories_give_research_points(world):
    """Laboratory: "It produces a research point each turn, except when a scientist is on
    the same territory. It would then produce as many research point as the scientist's
    level." Artifact: "allowing it to produce twice as many research points"."""
    for t in (world.alpha, world.beta):  # a laboratory needs 60 energy
        world.build(t, "power_plant")
        world.build(t, "laboratory", active=True)
    world.operative(world.alice, world.alpha, "scientist", level=3)
    world.operative(world.bob, world.gamma, "scientist", level=5)
    world.explore(world.beta, "water", discovery="artifact")
    run(world)
    world.alice.refresh_from_db()
    world.bob.refresh_from_db()
    assert world.alice.research_points == 3
    assert world.bob.research_points == 2  # 1 point (scientist elsewhere) doubled


def test_a_xeno_craft_doubles_all_laboratories(world):
    """Xeno craft: "all your laboratories produce twice as many research points"."""
    world.build(world.alpha, "power_plant")
    world.build(world.alpha, "laboratory", active=True)
    world.operative(world.alice, world.alpha, "scientist", level=2)
    world.explore(world.alpha, "water", discovery="xeno_craft")
    run(world)
    world.alice.refresh_from_db()
    assert world.alice.research_points == 4


def test_a_missile_silo_builds_one_missile_for_100_sc_up_to_five(world):
    """Missile silo: "houses up to five tactical missiles. They cost 100 SC each, and you
    need a whole activity phase to produce one. It needs a radar on the territory"."""
    Building.objects.filter(territory=world.alpha, kind="radar").update(active=True)
    silo = world.build(world.alpha, "missile_silo", active=True)
    full = world.build(world.alpha, "missile_silo", active=True, missiles=5)
    run(world)
    silo.refresh_from_db()
    full.refresh_from_db()
    assert (silo.missiles, full.missiles) == (1, 5)
    assert world.credits(world.alice) == 900
    Building.objects.filter(territory=world.alpha, kind="radar").update(active=False)
    run(world)
    silo.refresh_from_db()
    assert silo.missiles == 1


def test_production_runs_when_the_activity_phase_ends(world):
    """The clock's hook on leaving the activity phase runs production."""
    world.explore(world.alpha, "minerals", units=3)
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "mine_shaft", active=True)
    world.phase("activity")
    clock.advance(campaign_id=world.campaign.pk, by="umpire")
    assert units(world.alpha, "minerals") == 3


def test_a_pool_that_lost_its_plant_stops(world):
    """R-ECO-2: when a pool cannot power its active buildings any more (plant destroyed)
    they all stop for this phase."""
    world.explore(world.alpha, "minerals", units=3)
    world.build(world.alpha, "warehouse")
    world.build(world.alpha, "mine_shaft", active=True)
    Building.objects.filter(territory=world.alpha, kind="power_plant").update(hit_points=0)
    run(world)
    assert units(world.alpha, "minerals") == 0
    assert Weapon.objects.count() == 0
