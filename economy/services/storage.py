"""Warehouses and containers (seed, "Warehouse" and "Activity phase").

"A warehouse can store up to eight containers, all of which can contain up to ten
resources." "Each container may contain up to ten units of one single resource."
"any weapon not attached to a vehicle and any exo-armor must be stored in a container
and placed in a warehouse. A container can contain one armor, or five light weapons,
or three medium weapons, or one heavy weapon."

Rulings (docs/RULINGS.md, Economy):
- R-ECO-4: raw, refined and pure units of a resource are different goods and never
  share a container; light, medium and heavy weapons never share a container.
- R-ECO-5: an exo armour needs a container while nobody wears it (crewed exo armour
  is a unit in the field).
- R-ECO-6: warehouses store whether or not they are active (they consume no energy);
  a destroyed warehouse (0 hit points) stores nothing.
- R-ECO-17: a weapon fitted to a turret has left its container.

`Holdings` is the pure arithmetic; the functions below load it and move stock rows
under row locks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, F

from campaign.bulk import insert_rows, update_rows
from campaign.errors import InvalidInput
from campaign.rules.tables import (
    CONTAINER_ITEM_CAPACITY,
    CONTAINER_UNITS,
    VEHICLES,
    WAREHOUSE_CONTAINERS,
    weapon_size,
)
from economy.models import Building, Stock, Unit, Weapon
from territories.models import Territory

ResourceKey = tuple[str, bool, bool]  # (resource, refined, pure)


class NoRoom(InvalidInput):
    code = "no_room"


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class Holdings:
    """What one territory's warehouses hold, as container arithmetic."""

    containers: int
    resources: Counter[ResourceKey] = field(default_factory=Counter)  # ResourceKey -> units
    loose: Counter[str] = field(default_factory=Counter)  # "armor", "L", "M", "H" -> items

    def used(self) -> int:
        used = sum(_ceil_div(u, CONTAINER_UNITS) for u in self.resources.values() if u > 0)
        used += sum(_ceil_div(n, CONTAINER_ITEM_CAPACITY[k])
                    for k, n in self.loose.items() if n > 0)
        return used

    def free(self) -> int:
        return self.containers - self.used()

    def fits(self) -> bool:
        return self.used() <= self.containers

    def copy(self) -> Holdings:
        return Holdings(self.containers, Counter(self.resources), Counter(self.loose))

    def room_for(self, key: ResourceKey) -> int:
        """How many more units of this good fit."""
        have = self.resources.get(key, 0)
        slack = (-have) % CONTAINER_UNITS
        return max(0, self.free()) * CONTAINER_UNITS + slack if self.fits() else 0

    def room_for_items(self, kind: str, count: int) -> bool:
        trial = self.copy()
        trial.loose[kind] += count
        return trial.fits()


def item_kind_of_weapon(weapon: Weapon) -> str:
    return weapon_size(weapon.weapon, weapon.templates)


#: the vehicle models that are exo armour (`is_exo`)
EXO_MODELS = tuple(sorted(key for key, spec in VEHICLES.items()
                          if spec.category == "exo_armor"))


def is_exo(model: str) -> bool:
    spec = VEHICLES.get(model)
    return spec is not None and spec.category == "exo_armor"


def load_holdings(territory: Territory | int) -> Holdings:
    """Capacity and contents of one territory (four queries)."""
    tid = territory if isinstance(territory, int) else territory.pk
    warehouses = Building.objects.filter(territory_id=tid, kind="warehouse",
                                         hit_points__gt=0).count()
    holdings = Holdings(containers=warehouses * WAREHOUSE_CONTAINERS)
    for resource, refined, pure, units in Stock.objects.filter(
            territory_id=tid, units__gt=0).values_list("resource", "refined", "pure", "units"):
        holdings.resources[(resource, refined, pure)] += units
    for weapon, templates in Weapon.objects.filter(
            territory_id=tid, unit__isnull=True, turret__isnull=True,
    ).values_list("weapon", "templates"):
        holdings.loose[weapon_size(weapon, templates)] += 1
    for model in Unit.objects.filter(territory_id=tid, pilot__isnull=True,
                                     status=Unit.Status.READY).values_list("model", flat=True):
        if is_exo(model):
            holdings.loose["armor"] += 1
    return holdings


def load_holdings_many(territory_ids: Iterable[int], stock: StockBook | None = None
                       ) -> dict[int, Holdings]:
    """`load_holdings` of many territories at once (four queries, whatever their number;
    three with the `StockBook` of the same territories, which has read their stock)."""
    tids = sorted(set(territory_ids))
    result = {tid: Holdings(containers=0) for tid in tids}
    if not tids:
        return result
    for tid, count in (Building.objects.filter(territory_id__in=tids, kind="warehouse",
                                               hit_points__gt=0).order_by()
                       .values("territory_id").annotate(n=Count("pk"))
                       .values_list("territory_id", "n")):
        result[tid].containers = count * WAREHOUSE_CONTAINERS
    if stock is not None:
        for (tid, key), units in sorted(stock.units.items()):
            if units > 0 and tid in result:
                result[tid].resources[key] += units
    else:
        for tid, resource, refined, pure, units in Stock.objects.filter(
                territory_id__in=tids, units__gt=0).values_list(
                "territory_id", "resource", "refined", "pure", "units"):
            result[tid].resources[(resource, refined, pure)] += units
    # Counted in the database: the items a league piles up in its warehouses must not
    # be read one by one every turn (issue 32); only exo armour takes a container.
    for tid, weapon, templates, n in (Weapon.objects.filter(
            territory_id__in=tids, unit__isnull=True, turret__isnull=True).order_by()
            .values("territory_id", "weapon", "templates").annotate(n=Count("pk"))
            .values_list("territory_id", "weapon", "templates", "n")):
        result[tid].loose[weapon_size(weapon, templates)] += n
    for tid, n in (Unit.objects.filter(territory_id__in=tids, pilot__isnull=True,
                                       status=Unit.Status.READY, model__in=EXO_MODELS)
                   .order_by().values("territory_id").annotate(n=Count("pk"))
                   .values_list("territory_id", "n")):
        result[tid].loose["armor"] += n
    return result


class StockBook:
    """Stock of many territories changed in memory and written at the end in a few
    set-based statements (the clock's production): the rows are read once under row
    locks; `flush` creates, updates and deletes them as `add_stock`/`take_stock` one by
    one would have left them."""

    def __init__(self, territory_ids: Iterable[int]) -> None:
        tids = sorted(set(territory_ids))
        self.rows: dict[tuple[int, ResourceKey], int] = {}  # -> the row's id
        self.units: dict[tuple[int, ResourceKey], int] = {}
        self.was: dict[tuple[int, ResourceKey], int] = {}
        self.touched: set[tuple[int, ResourceKey]] = set()
        if tids:
            for pk, tid, resource, refined, pure, units in (
                    Stock.objects.select_for_update().filter(territory_id__in=tids)
                    .values_list("pk", "territory_id", "resource", "refined", "pure",
                                 "units")):
                key = (tid, (resource, refined, pure))
                self.rows[key] = pk
                self.units[key] = self.was[key] = units

    def add(self, tid: int, key: ResourceKey, units: int) -> None:
        if units <= 0:
            return
        slot = (tid, key)
        self.units[slot] = self.units.get(slot, 0) + units
        self.touched.add(slot)

    def take(self, tid: int, key: ResourceKey, units: int) -> None:
        if units <= 0:
            return
        slot = (tid, key)
        have = self.units.get(slot, 0)
        if have < units:
            raise NotEnoughGoods(f"Only {have} units of {describe(key)} are stored; "
                                 f"{units} are needed.")
        self.units[slot] = have - units
        self.touched.add(slot)

    def flush(self) -> None:
        """Write what changed as plain rows (a few thousand a turn, no model instance
        each): one delete, one update of `units` by id, one insert."""
        create: list[tuple[int, str, bool, bool, int]] = []
        update: list[tuple[int, int]] = []
        delete: list[int] = []
        for slot in sorted(self.touched, key=lambda s: (s[0], s[1])):
            units = self.units[slot]
            row = self.rows.get(slot)
            if units > 0 and row is None:
                tid, (resource, refined, pure) = slot
                create.append((tid, resource, refined, pure, units))
            elif units > 0 and row is not None and self.was[slot] != units:
                update.append((row, units))
            elif units <= 0 and row is not None:
                delete.append(row)
        if delete:
            Stock.objects.filter(pk__in=delete).delete()
        update_rows(Stock, ["units"], update)
        insert_rows(Stock, ["territory_id", "resource", "refined", "pure", "units"], create)
        self.touched.clear()


def require_room(holdings: Holdings, territory: Territory, what: str) -> None:
    if not holdings.fits():
        raise NoRoom(
            f"No room in the warehouses of {territory.name} for {what}: "
            f"{holdings.used()} containers needed, {holdings.containers} available "
            f"({holdings.containers // WAREHOUSE_CONTAINERS} warehouses of "
            f"{WAREHOUSE_CONTAINERS} containers)."
        )


def stock_units(territory: Territory | int, key: ResourceKey) -> int:
    tid = territory if isinstance(territory, int) else territory.pk
    row = Stock.objects.filter(territory_id=tid, resource=key[0], refined=key[1],
                               pure=key[2]).first()
    return row.units if row else 0


def add_stock(*, territory: Territory | int, key: ResourceKey, units: int) -> None:
    """Add units to a territory's stock (call inside a transaction; room checked by the
    caller)."""
    if units <= 0:
        return
    tid = territory if isinstance(territory, int) else territory.pk
    resource, refined, pure = key
    row, created = Stock.objects.select_for_update().get_or_create(
        territory_id=tid, resource=resource, refined=refined, pure=pure,
        defaults={"units": units})
    if not created:
        Stock.objects.filter(pk=row.pk).update(units=F("units") + units)


class NotEnoughGoods(InvalidInput):
    code = "insufficient_goods"


def take_stock(*, territory: Territory | int, key: ResourceKey, units: int,
               name: str = "") -> None:
    """Remove units under a row lock, or raise NotEnoughGoods and change nothing."""
    if units <= 0:
        return
    tid = territory if isinstance(territory, int) else territory.pk
    resource, refined, pure = key
    row = Stock.objects.select_for_update().filter(
        territory_id=tid, resource=resource, refined=refined, pure=pure).first()
    have = row.units if row else 0
    if row is None or have < units:  # no row: nothing stored (have is 0)
        label = describe(key)
        where = f" in {name}" if name else ""
        raise NotEnoughGoods(f"Only {have} units of {label} are stored{where}; "
                             f"{units} are needed.")
    if have == units:
        row.delete()
    else:
        Stock.objects.filter(pk=row.pk).update(units=F("units") - units)


def describe(key: ResourceKey) -> str:
    resource, refined, pure = key
    state = "refined" if refined else ("pure raw" if pure else "raw")
    return f"{state} {resource.replace('_', ' ')}"
