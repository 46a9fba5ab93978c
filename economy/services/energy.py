"""Energy (seed, "Activity phase" and "Power plant").

"Each active building consumes energy and you can't use more buildings than you can
put power in." "Each power plant produces 50 points of energy for the other buildings
on the same territory to consume." Enhanced generators: "all the power plants on the
territory produce twice as much power". Extended power grid: "The power plant may
produce energy to other territories with a Power Plant with extended power grid".

Rulings (docs/RULINGS.md, Economy):
- R-ECO-1: the pool of an extended power grid is every territory of the same player
  with a (standing) power plant carrying the upgrade, connected or not on the map.
- R-ECO-2: power plants produce whether or not they are marked active; buildings that
  consume nothing may be activated freely; a destroyed building (0 hit points)
  produces and consumes nothing.
- R-ECO-3: activation persists from one activity phase to the next until changed.
- R-ECO-7: no more active laboratories (over all the player's territories) than hired,
  living scientists.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db import transaction

from campaign.errors import InvalidInput, NotFound
from campaign.models import Player
from campaign.rules.formulas import building_energy
from campaign.rules.tables import ENHANCED_GENERATORS_MULTIPLIER, POWER_PLANT_OUTPUT
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from economy.models import Building, Operative
from economy.services.common import as_id, own_territory, require_phase
from economy.services.ledger import lock_player


class NotEnoughEnergy(InvalidInput):
    code = "energy"


@dataclass
class Pool:
    territories: list[int]
    supply: int = 0
    demand: int = 0
    grid: bool = False

    @property
    def balance(self) -> int:
        return self.supply - self.demand


@dataclass
class TerritoryPower:
    supply: int = 0
    demand: int = 0
    grid: bool = False
    consumers: list[int] = field(default_factory=list)


class PoweredBuilding(Protocol):
    """What the energy rules read of a building: its row, or production's plain copy."""

    @property
    def pk(self) -> Any: ...
    @property
    def kind(self) -> str: ...
    @property
    def active(self) -> bool: ...
    @property
    def hit_points(self) -> int: ...
    @property
    def upgrades(self) -> Any: ...


def territory_power(buildings: Iterable[PoweredBuilding],
                    active_ids: set[int] | None = None) -> TerritoryPower:
    """Supply and demand of one territory's buildings. `active_ids` overrides which
    buildings are active (for a plan being checked)."""
    power = TerritoryPower()
    plants = 0
    enhanced = False
    for b in buildings:
        if b.hit_points <= 0:
            continue
        if b.kind == "power_plant":
            plants += 1
            enhanced = enhanced or "enhanced_generators" in b.upgrades
            power.grid = power.grid or "extended_power_grid" in b.upgrades
            continue
        active = b.active if active_ids is None else b.pk in active_ids
        if active:
            cost = building_energy(b.kind, b.upgrades)
            power.demand += cost
            if cost:
                power.consumers.append(b.pk)
    power.supply = plants * POWER_PLANT_OUTPUT * (ENHANCED_GENERATORS_MULTIPLIER
                                                  if enhanced else 1)
    return power


def player_pools(player: Player, overrides: dict[int, set[int]] | None = None) -> list[Pool]:
    """The player's power pools: one per territory, except that every territory on the
    extended power grid shares one pool (R-ECO-1)."""
    by_territory: dict[int, list[Building]] = defaultdict(list)
    for b in Building.objects.filter(territory__owner=player):
        by_territory[b.territory_id].append(b)
    return pools_of_buildings(by_territory, overrides)


def pools_of_buildings(buildings: Mapping[int, Sequence[PoweredBuilding]],
                       overrides: dict[int, set[int]] | None = None) -> list[Pool]:
    """`player_pools` from one player's buildings already read, by territory."""
    overrides = overrides or {}
    by_territory = {tid: list(bs) for tid, bs in buildings.items()}
    for tid in overrides:
        by_territory.setdefault(tid, [])
    pools: list[Pool] = []
    grid = Pool(territories=[], grid=True)
    for tid in sorted(by_territory):
        power = territory_power(by_territory[tid], overrides.get(tid))
        if power.grid:
            grid.territories.append(tid)
            grid.supply += power.supply
            grid.demand += power.demand
        else:
            pools.append(Pool([tid], power.supply, power.demand))
    if grid.territories:
        pools.append(grid)
    return pools


def pool_of(pools: list[Pool], territory_id: int) -> Pool:
    return next(p for p in pools if territory_id in p.territories)


@retry_on_conflict
def activation_set(*, player: Player, territory_id: int, active: list[int]) -> list[int]:
    """Activity phase: the buildings of one territory that are active from now on.

    Refused with code `energy` (nothing changes) when the territory's pool cannot
    power them, and with code `scientists` when more laboratories would be active
    than the player has scientists.
    """
    require_phase(player.campaign, "activity")
    # A list from every caller (the API's serializer, the page, the case book); its ids
    # are checked one by one because the case book hands on what its case names.
    wanted = {as_id(b, "active") for b in active}
    with transaction.atomic():
        player = lock_player(player.pk)  # serialises the player's activation plans
        territory = own_territory(player=player, territory_id=territory_id)
        buildings = list(Building.objects.filter(territory=territory))
        ids = {b.pk for b in buildings}
        unknown = sorted(wanted - ids)
        if unknown:
            raise NotFound(f"No building {unknown[0]} on {territory.name}.")
        destroyed = [b.pk for b in buildings if b.pk in wanted and b.hit_points <= 0]
        if destroyed:
            raise InvalidInput(f"Building {destroyed[0]} is destroyed and cannot be active.",
                               code="destroyed")
        pools = player_pools(player, {territory.pk: wanted})
        pool = pool_of(pools, territory.pk)
        if pool.demand > pool.supply:
            where = ("the extended power grid" if pool.grid else territory.name)
            raise NotEnoughEnergy(
                f"These buildings need {pool.demand} energy but {where} produces only "
                f"{pool.supply}.")
        labs_elsewhere = Building.objects.filter(
            territory__owner=player, kind="laboratory", active=True
        ).exclude(territory=territory).count()
        labs_here = sum(1 for b in buildings if b.kind == "laboratory" and b.pk in wanted)
        scientists = Operative.objects.filter(player=player, klass="scientist",
                                              alive=True).count()
        if labs_here + labs_elsewhere > scientists:
            raise InvalidInput(
                f"You cannot activate more laboratories than the scientists you have hired "
                f"({scientists}); this would make {labs_here + labs_elsewhere} active.",
                code="scientists")
        Building.objects.filter(territory=territory, pk__in=wanted).update(active=True)
        Building.objects.filter(territory=territory).exclude(pk__in=wanted).update(active=False)
        record_private(player=player, kind="buildings_activated",
                       data={"territory": territory.pk, "active": sorted(wanted),
                             "energy_used": pool.demand, "energy_available": pool.supply})
    return sorted(wanted)
