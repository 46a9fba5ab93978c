"""Buildings and their upgrades, bought in the commercial phase.

Seed: "You can build any structure on any territory you own, if you pay the price, and
if you have already built the required buildings on the same territory." "The
Buildings may appear in any territory you own." Upgrades are listed under each
building (Power efficiency, Extension of production, Enhanced generators, Extended
power grid, Ablative armor, Tactic Control, Turret mounts).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Player
from campaign.rules.tables import BUILDINGS, GRID_SIZE, WEAPONS
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from economy.models import Building, BuildingKit, Weapon
from economy.services import ledger
from economy.services.common import as_id, own_territory, require_phase
from economy.services.grid import validate_square
from economy.services.production import parse_product
from economy.services.storage import load_holdings, require_room
from territories.models import Territory


def normalise_kind(kind: object) -> str:
    if not isinstance(kind, str):
        raise InvalidInput("'kind' must be a building kind.", fields={"kind": ["Unknown."]})
    key = kind.strip().lower().replace(" ", "_").replace("-", "_")
    if key not in BUILDINGS:
        raise InvalidInput(f"Unknown building kind {kind!r}.", code="unknown_kind",
                           fields={"kind": [f"One of: {', '.join(BUILDINGS)}."]})
    return key


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"'{name}' must be a whole number.",
                           fields={name: ["Must be an integer."]})
    return value


def _validate_square(territory: Territory, x_in: object, y_in: object) -> tuple[int, int]:
    x, y = _whole("x", x_in), _whole("y", y_in)
    try:
        pass
    except ImportError:  # until the territories area provides it
        if not (0 <= x < GRID_SIZE and 0 <= y < GRID_SIZE):
            raise InvalidInput(f"The territorial map is {GRID_SIZE}x{GRID_SIZE}: "
                               f"({x},{y}) is outside it.", code="outside_grid") from None
        if Building.objects.filter(territory=territory, x=x, y=y).exists():
            raise InvalidInput(f"Square ({x},{y}) of {territory.name} is already built on.",
                               code="square_taken") from None
        return x, y
    validate_square(territory, x, y)
    return x, y


def place_building(*, territory: Territory, kind: str, x: int, y: int, turn: int) -> Building:
    """Create the row (inside the caller's transaction); square checks included."""
    _validate_square(territory, x, y)
    spec = BUILDINGS[kind]
    try:
        with transaction.atomic():
            return Building.objects.create(territory=territory, kind=kind, x=x, y=y,
                                           hit_points=spec.hit_points, built_turn=turn)
    except IntegrityError:  # a parallel build took the square
        raise InvalidInput(f"Square ({x},{y}) of {territory.name} is already built on.",
                           code="square_taken") from None


@retry_on_conflict
def building_create(*, player: Player, territory_id: object, kind: object, x: object,
                    y: object, kit: object = None) -> Building:
    """Buy a building on one of the player's territories (commercial phase), or place it
    for free from a building kit a factory made (`kit`: its id; R-ECO-18)."""
    require_phase(player.campaign, "commercial")
    key = normalise_kind(kind)
    spec = BUILDINGS[key]
    kit_id = None if kit is None else as_id(kit, "kit")
    with transaction.atomic():
        territory = own_territory(player=player, territory_id=territory_id, for_update=True)
        used_kit = None
        if kit_id is not None:
            used_kit = BuildingKit.objects.select_for_update().filter(
                pk=kit_id, player=player, used_turn__isnull=True).first()
            if used_kit is None:
                raise NotFound("No such unused building kit among yours.")
            if used_kit.kind != key:
                raise InvalidInput(f"This kit holds the elements of a "
                                   f"{BUILDINGS[used_kit.kind].name}, not a {spec.name}.",
                                   code="kit_mismatch", fields={"kit": ["Other kind."]})
        if spec.requires and not Building.objects.filter(
                territory=territory, kind=spec.requires, hit_points__gt=0).exists():
            needed = BUILDINGS[spec.requires].name
            raise InvalidInput(f"A {spec.name} needs a {needed} on the same territory, and "
                               f"{territory.name} has none.", code="requirement")
        building = place_building(territory=territory, kind=key, x=_whole("x", x),
                                  y=_whole("y", y),
                                  turn=player.campaign.turn)
        if used_kit is not None:
            used_kit.used_turn = player.campaign.turn
            used_kit.building = building
            used_kit.save(update_fields=["used_turn", "building"])
        else:
            ledger.spend(player=player, amount=spec.cost, reason="building",
                         detail=f"{spec.name} on {territory.name}", related_kind="building",
                         related_id=building.pk)
        record_private(player=player, kind="building_bought",
                       data={"building": building.pk, "kind": key, "territory": territory.pk,
                             "x": x, "y": y, "cost": 0 if used_kit else spec.cost,
                             "kit": used_kit.pk if used_kit else None})
    return building


def own_building(*, player: Player, building_id: object, for_update: bool = False
                 ) -> Building:
    """One of the player's buildings; 404 otherwise (other players' buildings are not
    visible)."""
    pk = as_id(building_id, "building")
    qs = Building.objects.select_related("territory").filter(
        pk=pk, territory__campaign_id=player.campaign_id, territory__owner=player)
    if for_update:
        qs = qs.select_for_update()
    building = qs.first()
    if building is None:
        raise NotFound("No such building among yours.")
    return building


@retry_on_conflict
def building_upgrade(*, player: Player, building_id: object, upgrade: object) -> Building:
    """Buy an upgrade for one of the player's buildings (commercial phase)."""
    require_phase(player.campaign, "commercial")
    with transaction.atomic():
        building = own_building(player=player, building_id=building_id, for_update=True)
        spec = BUILDINGS[building.kind]
        key = upgrade.strip().lower().replace(" ", "_") if isinstance(upgrade, str) else ""
        if key == "turret_mount":
            key = "turret"
        if key not in spec.upgrades:
            offered = ", ".join(spec.upgrades) or "none"
            raise InvalidInput(f"A {spec.name} has no upgrade {upgrade!r} (offered: "
                               f"{offered}).", code="unknown_upgrade",
                               fields={"upgrade": [f"One of: {offered}."]})
        up = spec.upgrades[key]
        if building.hit_points <= 0:
            raise Conflict("A destroyed building cannot be upgraded.", code="destroyed")
        if key in building.upgrades:
            raise Conflict(f"This {spec.name} already has {up.name}.", code="already_fitted")
        if up.one_per_territory and any(
                key in b.upgrades for b in Building.objects.filter(
                    territory=building.territory, kind=building.kind)):
            raise Conflict(f"{up.name} can only be fitted on one {spec.name} per territory.",
                           code="one_per_territory")
        building.upgrades = [*building.upgrades, key]
        building.save(update_fields=["upgrades"])
        ledger.spend(player=player, amount=up.cost, reason="upgrade",
                     detail=f"{up.name} on {spec.name} {building.pk}",
                     related_kind="building", related_id=building.pk)
        record_private(player=player, kind="building_upgraded",
                       data={"building": building.pk, "upgrade": key, "cost": up.cost})
    return building


@retry_on_conflict
def factory_set_product(*, player: Player, building_id: object, product: object) -> Building:
    """Choose a factory's product line (activity phase).

    Seed: "You have to choose what kind of product the factory assembles when building
    it. It can be re-fitted, but you need to spend a whole activity turn during which the
    factory will consume energy to do so." A factory without a line takes one at once;
    changing a line makes the next activity phase in which the factory is active a
    refit (no output) — R-ECO-9.
    """
    require_phase(player.campaign, "activity", "commercial")
    product = parse_product(product).codes
    with transaction.atomic():
        building = own_building(player=player, building_id=building_id, for_update=True)
        if building.kind != "factory":
            raise InvalidInput("Only a factory has a product line.", code="not_a_factory")
        if not building.product:
            building.product = product
            building.next_product = []
        elif product == building.product:
            building.next_product = []
        else:
            building.next_product = product
        building.save(update_fields=["product", "next_product"])
        record_private(player=player, kind="factory_product_set",
                       data={"building": building.pk, "product": ";".join(building.product),
                             "refit_to": ";".join(building.next_product)})
    return building


def is_turret(building: Building) -> bool:
    """A turret, or a bunker/command center with the turret mount ("Turret (cost 100) : As
    the turret described further", R-TAB-0)."""
    return building.kind == "turret" or "turret" in (building.upgrades or [])


@retry_on_conflict
def turret_fit(*, player: Player, building_id: object, weapon: object) -> Building:
    """Fit one of the player's loose weapons to a turret, or take it off (`weapon` None).

    Seed, "Turret": "The turret can be fitted with any one kind of weapons." R-ECO-17:
    activity phase (when equipment is swapped), weapons of any type and size but not
    equipment, the weapon on the turret's territory; it leaves its container, and the
    weapon it replaces (or takes off) needs room in the warehouses there.
    """
    require_phase(player.campaign, "activity")
    weapon_id = None if weapon is None else as_id(weapon, "weapon")
    with transaction.atomic():
        building = own_building(player=player, building_id=building_id, for_update=True)
        if not is_turret(building):
            raise InvalidInput("Only a turret, or a bunker or command center with a turret "
                               "mount, can be fitted with a weapon.", code="not_a_turret")
        if building.hit_points <= 0:
            raise Conflict("A destroyed turret cannot be fitted.", code="destroyed")
        old = building.weapon_id
        if weapon_id is not None:
            item = Weapon.objects.select_for_update().filter(pk=weapon_id,
                                                             player=player).first()
            if item is None:
                raise NotFound("No such weapon among yours.")
            if item.territory_id != building.territory_id:
                raise InvalidInput("The weapon must be on the turret's territory.",
                                   code="wrong_territory")
            if item.unit_id is not None:
                raise InvalidInput("This weapon is fitted to a unit; take it off first.",
                                   code="weapon_fitted")
            if WEAPONS[item.weapon].type == "equipment":
                raise InvalidInput(f"A {WEAPONS[item.weapon].name} is equipment, not a "
                                   "weapon.", code="not_a_weapon")
            Building.objects.filter(weapon_id=item.pk).exclude(pk=building.pk).update(
                weapon=None)
        building.weapon_id = weapon_id
        building.save(update_fields=["weapon"])
        require_room(load_holdings(building.territory_id), building.territory,
                     "the weapon taken off the turret")
        record_private(player=player, kind="turret_fitted",
                       data={"building": building.pk, "weapon": weapon_id,
                             "previous": old})
    return building
