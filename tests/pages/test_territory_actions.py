"""Territory page actions that had an API only: turret weapons (activity phase),
building kits placed for free, and a factory's product line."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from economy.models import Building, Weapon
from territories.models import Territory

pytestmark = pytest.mark.django_db


def _home(campaign, user) -> Territory:
    return Territory.objects.get(campaign=campaign, owner__user=user)


def _set_phase(campaign, phase: str) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(phase=phase)


def _free_square(territory: Territory) -> tuple[int, int]:
    taken = set(Building.objects.filter(territory=territory).values_list("x", "y"))
    return next((x, y) for x in range(16) for y in range(16) if (x, y) not in taken)


def _turret(territory: Territory) -> Building:
    x, y = _free_square(territory)
    return Building.objects.create(territory=territory, kind="turret", x=x, y=y,
                                   hit_points=20)


def test_fit_and_take_off_a_turret_weapon(web_client, running_campaign, alice) -> None:
    """Seed, "Turret": "The turret can be fitted with any one kind of weapons." (R-ECO-17,
    activity phase)."""
    _set_phase(running_campaign, "activity")
    home = _home(running_campaign, alice)
    turret = _turret(home)
    gun = Weapon.objects.create(player=running_campaign.players.get(user=alice),
                                territory=home, weapon="machine_gun")
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    page = client.get(base)
    assert b"Turret weapon: none" in page.content and b"Machine Gun" in page.content
    done = client.post(base + "turret/", {"building": turret.pk, "weapon": gun.pk},
                       follow=True)
    assert b"Weapon fitted to the turret" in done.content
    turret.refresh_from_db()
    assert turret.weapon_id == gun.pk
    refused = client.post(base + "turret/", {"building": turret.pk, "weapon": ""},
                          follow=True)
    assert b'class="error"' in refused.content and b"No room" in refused.content
    turret.refresh_from_db()
    assert turret.weapon_id == gun.pk
    x, y = _free_square(home)
    Building.objects.create(territory=home, kind="warehouse", x=x, y=y, hit_points=10)
    off = client.post(base + "turret/", {"building": turret.pk, "weapon": ""}, follow=True)
    assert b"Turret weapon taken off" in off.content
    turret.refresh_from_db()
    assert turret.weapon_id is None


def test_turret_fit_outside_the_activity_phase_is_refused(web_client, running_campaign,
                                                          alice) -> None:
    home = _home(running_campaign, alice)
    turret = _turret(home)
    gun = Weapon.objects.create(player=running_campaign.players.get(user=alice),
                                territory=home, weapon="machine_gun")
    page = web_client(alice).post(
        f"/campaigns/{running_campaign.pk}/territories/{home.pk}/turret/",
        {"building": turret.pk, "weapon": gun.pk}, follow=True)
    assert page.status_code == 200 and b'class="error"' in page.content
    turret.refresh_from_db()
    assert turret.weapon_id is None


def test_territory_page_with_turrets_has_bounded_queries(web_client, running_campaign, alice,
                                                         django_assert_max_num_queries) -> None:
    _set_phase(running_campaign, "activity")
    home = _home(running_campaign, alice)
    seat = running_campaign.players.get(user=alice)
    for _ in range(3):
        turret = _turret(home)
        turret.weapon = Weapon.objects.create(player=seat, territory=home, weapon="cannon")
        turret.save()
        Weapon.objects.create(player=seat, territory=home, weapon="machine_gun")
    client = web_client(alice)
    with django_assert_max_num_queries(25):
        assert client.get(f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
                          ).status_code == 200


# --------------------------------------------------------------------------- kits


def _kit(campaign, user, kind: str = "warehouse"):
    from economy.models import BuildingKit

    return BuildingKit.objects.create(player=campaign.players.get(user=user),
                                      territory=_home(campaign, user), kind=kind, made_turn=1)


def test_place_a_building_kit_for_free(web_client, running_campaign, alice) -> None:
    """R-ECO-18: a kit a factory made is placed for free in the commercial phase."""
    home = _home(running_campaign, alice)
    kit = _kit(running_campaign, alice)
    seat = running_campaign.players.get(user=alice)
    before = seat.credits
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    assert b"Kit: Warehouse" in client.get(base).content
    x, y = _free_square(home)
    done = client.post(base + "build/", {"kind": "warehouse", "x": x, "y": y, "kit": kit.pk},
                       follow=True)
    assert b"from a building kit" in done.content
    kit.refresh_from_db()
    assert kit.used_turn == 1 and kit.building.kind == "warehouse"
    seat.refresh_from_db()
    assert seat.credits == before


def test_a_kit_of_another_kind_is_refused(web_client, running_campaign, alice) -> None:
    home = _home(running_campaign, alice)
    kit = _kit(running_campaign, alice, "warehouse")
    before = Building.objects.filter(territory=home).count()
    x, y = _free_square(home)
    page = web_client(alice).post(
        f"/campaigns/{running_campaign.pk}/territories/{home.pk}/build/",
        {"kind": "laboratory", "x": x, "y": y, "kit": kit.pk}, follow=True)
    assert b'class="error"' in page.content and b"not a Laboratory" in page.content
    assert Building.objects.filter(territory=home).count() == before
    kit.refresh_from_db()
    assert kit.used_turn is None


def test_territory_page_with_kits_has_bounded_queries(web_client, running_campaign, alice,
                                                      django_assert_max_num_queries) -> None:
    for kind in ("warehouse", "laboratory", "radar"):
        _kit(running_campaign, alice, kind)
    home = _home(running_campaign, alice)
    client = web_client(alice)
    with django_assert_max_num_queries(25):
        assert client.get(f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
                          ).status_code == 200


# --------------------------------------------------------------------------- factory


def _factory(territory: Territory, product: str = "") -> Building:
    x, y = _free_square(territory)
    return Building.objects.create(territory=territory, kind="factory", x=x, y=y,
                                   hit_points=30, product=[c for c in product.split(";") if c])


def test_choose_then_refit_a_factory_product_line(web_client, running_campaign, alice) -> None:
    """Seed, "Factory": "You have to choose what kind of product the factory assembles
    when building it. It can be re-fitted, but you need to spend a whole activity turn"
    (R-ECO-9: a factory without a line takes one at once; a change is a refit)."""
    _set_phase(running_campaign, "activity")
    home = _home(running_campaign, alice)
    factory = _factory(home)
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    assert b"Product line: none chosen" in client.get(base).content
    done = client.post(base + "product/", {"building": factory.pk,
                                           "product": ["vehicle:golem"]}, follow=True)
    assert b"Product line: Golem" in done.content
    factory.refresh_from_db()
    assert (factory.product, factory.next_product) == (["vehicle:golem"], [])
    refit = client.post(base + "product/", {"building": factory.pk,
                                            "product": ["building:warehouse"]}, follow=True)
    assert b"refitting to Warehouse kit" in refit.content
    factory.refresh_from_db()
    assert (factory.product, factory.next_product) == (["vehicle:golem"], ["building:warehouse"])


def test_a_mixed_product_line_is_refused(web_client, running_campaign, alice) -> None:
    """Seed, "Factory": elements for either one building, two vehicles, or five kinds of
    exo-armor, weapons or equipment — not a mix."""
    _set_phase(running_campaign, "activity")
    home = _home(running_campaign, alice)
    factory = _factory(home)
    page = web_client(alice).post(
        f"/campaigns/{running_campaign.pk}/territories/{home.pk}/product/",
        {"building": factory.pk, "product": ["vehicle:golem", "building:warehouse"]},
        follow=True)
    assert b'class="error"' in page.content and b"not a mix" in page.content
    factory.refresh_from_db()
    assert factory.product == []


def test_territory_page_with_factories_has_bounded_queries(web_client, running_campaign, alice,
                                                           django_assert_max_num_queries
                                                           ) -> None:
    _set_phase(running_campaign, "activity")
    home = _home(running_campaign, alice)
    for product in ("", "vehicle:golem", "weapon:machine_gun;weapon:cannon"):
        _factory(home, product)
    client = web_client(alice)
    with django_assert_max_num_queries(25):
        page = client.get(f"/campaigns/{running_campaign.pk}/territories/{home.pk}/")
    assert b"Machine Gun, Cannon" in page.content
