"""Production when the activity phase ends (hook on leaving the activity phase).

Seed, "Activity phase": "If active : Your mineshaft will produce minerals. Your
foundries and refineries will be able to produce refined minerals. Your factories will
produce goods." "No Resource can be produced if there is no room in the Warehouses of
the territory where the resources are being produced." Plus the texts of Mine Shaft,
Foundry, Refinery, Factory, Laboratory and Missile silo, and the exploration roll's
active die (units per shaft) and nemesis die (unstable ground).

Order within a player's turn (R-ECO-8): power check, mines, foundries and
refineries, factories, laboratories, missile silos. Every die rolled and everything
not produced is written to the player's private journal entry `production`.
"""

from __future__ import annotations

import functools
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import F, Model, TextField
from django.db.models.functions import Cast

from campaign.bulk import bulk_set, insert_rows, json_value, update_rows
from campaign.dice import Dice, campaign_dice
from campaign.errors import InvalidInput
from campaign.models import Campaign, Player
from campaign.rules.formulas import factory_limit
from campaign.rules.names import TakenNames
from campaign.rules.tables import (
    BUILDINGS,
    CONVERSION_PER_TURN,
    FACTORY_CREDITS_STEP,
    FACTORY_RECIPE_PER_100,
    MISSILE_COST,
    RESOURCES_BY_KEY,
    SILO_CAPACITY,
    UNSTABLE_FAIL_FACE,
    VEHICLES,
    RuleViolation,
    vehicle,
    weapon,
    weapon_price,
    weapon_size,
)
from campaign.services.journal import record_private_many
from economy.models import (
    Artifact,
    Building,
    BuildingKit,
    Operative,
    RandomIds,
    Unit,
    Weapon,
)
from economy.services import ledger
from economy.services.energy import pools_of_buildings
from economy.services.names import default_unit_namer, name_lists
from economy.services.storage import StockBook, load_holdings_many
from territories.models import Exploration, Territory

# R-ECO-10: "One factory can produce elements for either one building, two vehicles, or
# five kinds of exo-armor, weapons or equipment": a product line lists up to two vehicle
# models, or up to five kinds of exo armour, weapons or equipment (a weapon kind is a
# weapon with its templates), or one building kind (made as building kits, R-ECO-18).
LINE_LIMITS: dict[str, int] = {"vehicles": 2, "kinds": 5, "building": 1}
LINE_WORDS = {"vehicles": "two vehicle models", "kinds":
              "five kinds of exo armour, weapons or equipment", "building": "one building"}


#: the columns of a row production makes (a unit, a kit, a weapon), its id first
MADE_FIELDS: dict[type[Model], tuple[str, ...]] = {
    Unit: ("id", "player_id", "territory_id", "model", "name"),
    BuildingKit: ("id", "player_id", "territory_id", "kind", "made_turn"),
    Weapon: ("id", "player_id", "territory_id", "weapon", "templates"),
}


@dataclass(frozen=True)
class Product:
    """One item of a product line: a vehicle model, a weapon/equipment with templates,
    or a building kind. Its derived values are computed once (a line's items are shared
    by every factory making it: `_stored_line`, thousands of items a turn)."""

    kind: str  # "vehicle", "weapon" or "building"
    key: str
    templates: tuple[str, ...] = ()

    @functools.cached_property
    def code(self) -> str:
        return ":".join([self.kind, self.key, *([",".join(self.templates)]
                                                 if self.templates else [])])

    @functools.cached_property
    def price(self) -> int:
        if self.kind == "vehicle":
            return VEHICLES[self.key].cost
        if self.kind == "building":
            return BUILDINGS[self.key].cost
        return weapon_price(self.key, self.templates)

    @functools.cached_property
    def group(self) -> str:
        """Which of the seed's three kinds of line this item belongs to."""
        if self.kind == "building":
            return "building"
        if self.kind == "vehicle" and VEHICLES[self.key].category != "exo_armor":
            return "vehicles"
        return "kinds"

    @functools.cached_property
    def container_kind(self) -> str | None:
        """What container room one item needs where it is produced."""
        if self.kind == "building":
            return None
        if self.kind == "vehicle":
            return "armor" if VEHICLES[self.key].category == "exo_armor" else None
        return weapon_size(self.key, self.templates)


@dataclass(frozen=True)
class ProductLine:
    """What one factory assembles: the items, all of one group (R-ECO-10)."""

    items: tuple[Product, ...]

    @property
    def code(self) -> str:
        """The line in words of codes, for the journal ("vehicle:golem;vehicle:lycaon")."""
        return ";".join(item.code for item in self.items)

    @property
    def codes(self) -> list[str]:
        """The line as a factory stores it (`Building.product`): its items' codes."""
        return [item.code for item in self.items]

    @property
    def group(self) -> str:
        return self.items[0].group


def _invalid(detail: str) -> InvalidInput:
    return InvalidInput(detail, code="invalid_product", fields={"product": [detail]})


def _parse_item(value: object) -> Product:
    """One item from `{"kind": "vehicle", "model"}` / `{"kind": "weapon"|"equipment",
    "weapon", "templates"}` / `{"kind": "building", "building"}` or its code."""
    if isinstance(value, dict):
        kind = value.get("kind")
        if kind == "vehicle":
            return Product("vehicle", vehicle(str(value.get("model", ""))).key)
        if kind in ("weapon", "equipment"):
            key = str(value.get("weapon") or value.get("equipment") or "")
            templates = value.get("templates") or ()
            if not isinstance(templates, list | tuple) or not all(
                    isinstance(t, str) for t in templates):
                raise _invalid("'templates' must be a list of template names.")
            templates = tuple(t.strip().lower().replace(" ", "_") for t in templates)
            weapon_price(key, templates)
            return Product("weapon", weapon(key).key, templates)
        if kind == "building":
            from economy.services.buildings import normalise_kind  # noqa: PLC0415 (cycle: economy.services.production -> economy.services.buildings -> economy.services.production)

            try:
                return Product("building", normalise_kind(value.get("building")))
            except InvalidInput as exc:
                raise _invalid(exc.detail) from exc
        raise _invalid("A product is a vehicle, a weapon, equipment or a building.")
    if isinstance(value, str) and value.count(":") in (1, 2):
        kind, key, *rest = value.split(":")
        templates = tuple(t for t in (rest[0].split(",") if rest else []) if t)
        if kind == "vehicle":
            return Product("vehicle", vehicle(key).key)
        if kind == "weapon":
            weapon_price(key, templates)
            return Product("weapon", weapon(key).key, templates)
        if kind == "building" and key in BUILDINGS:
            return Product("building", key)
    raise _invalid("A product is a vehicle, a weapon, equipment or a building.")


def parse_product(value: object) -> ProductLine:
    """A product line from one item, `{"items": [item, ...]}`, a list of items (a stored
    line is a list of item codes), or item codes joined by ";". Refuses mixed groups,
    too many items and duplicates (400 invalid_product)."""
    if isinstance(value, dict) and "items" in value:
        value = value["items"]
    if isinstance(value, str) and value:
        raw: list[object] = list(value.split(";"))
    elif isinstance(value, list):
        raw = list(value)
    else:
        raw = [value]
    if not raw:
        raise _invalid("A product line lists at least one item.")
    try:
        items = tuple(_parse_item(v) for v in raw)
    except RuleViolation as exc:
        raise _invalid(str(exc)) from exc
    groups = {item.group for item in items}
    if len(groups) > 1:
        raise _invalid("A factory produces elements for either one building, two vehicles, "
                       "or five kinds of exo-armor, weapons or equipment, not a mix.")
    (group,) = groups
    if len(items) > LINE_LIMITS[group]:
        raise _invalid(f"A product line holds at most {LINE_WORDS[group]}.")
    if len({item.code for item in items}) != len(items):
        raise _invalid("A product line lists each item once.")
    return ProductLine(items)


@functools.lru_cache(maxsize=256)
def _stored_line(codes: tuple[str, ...] | str) -> ProductLine:
    """A factory's stored line parsed (most of a league's factories share a few lines)."""
    return parse_product(codes if isinstance(codes, str) else list(codes))


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class _Building:
    """What production reads of a building (a plain row: thousands are read per turn)."""

    pk: int
    territory_id: int
    kind: str
    active: bool
    hit_points: int
    refit_turn: int | None
    missiles: int
    upgrades: list[str]
    product: list[str]
    next_product: list[str]

    PLAIN = ("pk", "territory_id", "kind", "active", "hit_points", "refit_turn", "missiles")
    LISTS = ("upgrades", "product", "next_product")


def _json_list(text: str | None) -> Any:
    """A JSON list column read as text (None or empty: []), as Django decodes it."""
    return [] if text is None or text == "[]" else json.loads(text)


class _Exploration(NamedTuple):
    """What production reads of a territory's exploration roll."""

    territory_id: int
    resource: str
    pure: bool
    unstable: bool
    units_per_shaft: int
    discovery: str


class _World:
    """Everything every player's production reads, in a fixed number of set-based
    queries, and what it writes, kept in memory and written at the end (`flush`)."""

    def __init__(self, *, campaign: Campaign, players: list[Player]) -> None:
        from economy.services.artifacts import ensure_artifacts  # noqa: PLC0415 (cycle: economy.services.production -> economy.services.artifacts -> economy.services.buildings -> economy.services.production)

        self.campaign = campaign
        # player -> territory id -> its name, for every owned territory
        self.territories: dict[int, dict[int, str]] = defaultdict(dict)
        for tid, owner_id, name in (Territory.objects.filter(campaign=campaign,
                                                             owner__isnull=False)
                                    .order_by("pk").values_list("pk", "owner_id", "name")):
            self.territories[owner_id][tid] = name
        owned = [tid for ts in self.territories.values() for tid in ts]
        # The same territories as a subquery, for the reads below: a list of thousands
        # of ids costs Django more to bind than the database to join (issue 32).
        owned_ids = Territory.objects.filter(campaign=campaign,
                                             owner__isnull=False).values("pk")
        self.buildings: dict[int, list[_Building]] = defaultdict(list)
        # The list columns as text, decoded here: most are empty, and Django's JSON
        # converter costs more than the rest of a row (thousands of buildings a turn).
        lists = {f"{name}_text": Cast(name, TextField()) for name in _Building.LISTS}
        plain = len(_Building.PLAIN)
        for row in (Building.objects.filter(territory_id__in=owned_ids).order_by("pk")
                    .annotate(**lists).values_list(*_Building.PLAIN, *lists)):
            b = _Building(*row[:plain], *map(_json_list, row[plain:]))
            self.buildings[b.territory_id].append(b)
        self.stock = StockBook(owned)
        self.holdings = load_holdings_many(owned, stock=self.stock)
        self.explorations = {e.territory_id: e for e in (
            _Exploration(*row) for row in Exploration.objects.filter(
                territory_id__in=owned_ids)
            .values_list(*_Exploration._fields))}
        ensure_artifacts(campaign.pk)
        self.kept_artifacts = list(Artifact.objects.filter(campaign_id=campaign.pk,
                                                           status=Artifact.Status.KEPT))
        self.scientists: dict[tuple[int, int], list[int]] = defaultdict(list)
        for pid, tid, level in (Operative.objects.filter(
                player__campaign=campaign, klass="scientist", alive=True,
                territory_id__in=owned_ids).order_by("-level", "pk")
                .values_list("player_id", "territory_id", "level")):
            self.scientists[(pid, tid)].append(level)
        self.credits = ledger.CreditBook(players, turn=campaign.turn, phase=campaign.phase)
        self.players = {p.pk: p for p in players}
        self.research: Counter[int] = Counter()
        self.stopped: list[int] = []  # buildings stopped by a power failure
        self.refits: list[_Building] = []
        self.missiles: list[int] = []  # silos that made a missile
        self.made: dict[type[Model], list[tuple[Any, ...]]] = defaultdict(list)
        self.ids = RandomIds()  # the made rows' random ids (R-SEC-1), drawn in batches
        self.unit_names: dict[int, TakenNames] | None = None  # read on the first vehicle
        self.name_lists: Any = None  # the campaign's name lists, read with them
        self.namers: dict[tuple[int, str], Callable[[TakenNames], str]] = {}

    def unit_name(self, player: Player, model: str) -> str:
        """A factory-made vehicle's default name (issue 26), unlike the player's other
        units': their names are read once for the whole campaign, on the first vehicle
        made (one query whatever the number of players and units)."""
        if self.unit_names is None:
            self.name_lists = name_lists(self.campaign)  # once, not once a vehicle
            self.unit_names = defaultdict(TakenNames)
            for pid, name in Unit.objects.filter(player__campaign=self.campaign
                                                 ).values_list("player_id", "name"):
                self.unit_names[pid].add(name)
        taken = self.unit_names[player.pk]
        namer = self.namers.get((player.pk, model))
        if namer is None:  # one per player and model, not one per unit
            namer = self.namers[(player.pk, model)] = default_unit_namer(
                player=player, model=model, lists=self.name_lists)
        name = namer(taken)
        taken.add(name)
        return name

    def create(self, model: type[Model], row: tuple[Any, ...]) -> int:
        """A unit, weapon or kit made now, as the values of its model's `MADE_FIELDS`
        after its id (a random id, drawn here: R-SEC-1): inserted with its kind at
        `flush`, as plain rows (thousands a turn). Returns the id."""
        pk = next(self.ids)
        self.made[model].append((pk, *row))
        return pk

    def flush(self) -> None:
        self.stock.flush()
        if self.stopped:
            Building.objects.filter(pk__in=self.stopped).exclude(kind="power_plant"
                                                                 ).update(active=False)
        if self.refits:
            bulk_set([Building(id=b.pk, product=b.product, next_product=b.next_product,
                               refit_turn=b.refit_turn) for b in self.refits],
                     ["product", "next_product", "refit_turn"])
        for model in (Unit, BuildingKit, Weapon):
            insert_rows(model, MADE_FIELDS[model], self.made[model])
        self.credits.flush()
        if self.missiles:
            Building.objects.filter(pk__in=self.missiles).update(missiles=F("missiles") + 1)
        changed = []
        for pid, points in sorted(self.research.items()):
            player = self.players[pid]
            player.research_points += points
            changed.append((pid, player.research_points))
        update_rows(Player, ["research_points"], changed)


class _Run:
    """One player's production, with in-memory warehouse arithmetic kept in step with
    the rows it will write."""

    def __init__(self, *, world: _World, player: Player, dice: Dice) -> None:
        self.world = world
        self.campaign = world.campaign
        self.player = player
        self.dice = dice
        self.log: list[dict[str, Any]] = []
        self.territories = world.territories.get(player.pk, {})
        self.buildings = world.buildings
        self.holdings = {tid: world.holdings[tid] for tid in self.territories}

    def active(self, tid: int, kind: str) -> list[_Building]:
        return [b for b in self.buildings[tid] if b.kind == kind and b.active
                and b.hit_points > 0]

    def note(self, **entry: Any) -> None:
        self.log.append(entry)

    # -- power ---------------------------------------------------------------------
    def check_power(self) -> None:
        """A pool that lost plants since the plan was made cannot run: everything in it
        stops (R-ECO-2)."""
        mine = {tid: self.buildings[tid] for tid in self.territories
                if self.buildings.get(tid)}
        for pool in pools_of_buildings(mine):
            if pool.demand > pool.supply:
                for tid in pool.territories:
                    for b in self.buildings[tid]:
                        self.world.stopped.append(b.pk)
                        if b.kind != "power_plant":
                            b.active = False
                self.note(kind="power_failure", territories=pool.territories,
                          demand=pool.demand, supply=pool.supply)

    # -- stock helpers ---------------------------------------------------------------
    def store(self, tid: int, key: tuple[str, bool, bool], units: int) -> int:
        """Store up to `units` on territory `tid`; returns what fitted."""
        fitted = min(units, self.holdings[tid].room_for(key))
        if fitted > 0:
            self.world.stock.add(tid, key, fitted)
            self.holdings[tid].resources[key] += fitted
        return fitted

    def take(self, tid: int, key: tuple[str, bool, bool], units: int) -> None:
        self.world.stock.take(tid, key, units)
        self.holdings[tid].resources[key] -= units

    def sources(self, near: int) -> list[int]:
        return [near, *[t for t in self.territories if t != near]]

    # -- mines ---------------------------------------------------------------------
    def mines(self) -> None:
        explorations = self.world.explorations
        for tid, territory in self.territories.items():  # its name
            shafts = self.active(tid, "mine_shaft")
            if not shafts:
                continue
            exploration = explorations.get(tid)
            if exploration is None:
                self.note(kind="mine_no_deposit", territory=tid, shafts=len(shafts))
                continue
            produced = 0
            for shaft in shafts:
                if exploration.unstable:
                    face = self.dice.d8()
                    fails = face == UNSTABLE_FAIL_FACE
                    self.note(kind="unstable_ground_roll", territory=tid, building=shaft.pk,
                              die=face, decided="no output" if fails else "produces")
                    if fails:
                        continue
                produced += exploration.units_per_shaft
            key = (exploration.resource, False, exploration.pure)
            stored = self.store(tid, key, produced)
            self.note(kind="mined", territory=tid, resource=exploration.resource,
                      pure=exploration.pure, shafts=len(shafts), produced=stored,
                      not_produced_no_room=produced - stored)
            if produced - stored:
                self.note(kind="no_room", territory=tid, name=territory,
                          lost=produced - stored, resource=exploration.resource)

    # -- foundries and refineries ------------------------------------------------------
    def converters(self) -> None:
        for tid in self.territories:
            for kind in ("foundry", "refinery"):
                for building in self.active(tid, kind):
                    self.convert(tid, building)

    def convert(self, tid: int, building: _Building) -> None:
        left = CONVERSION_PER_TURN
        done: Counter[str] = Counter()
        blocked = False
        for src in self.sources(tid):
            for key, have in sorted(self.holdings[src].resources.items()):
                resource, refined, _pure = key
                if refined or have <= 0 or left <= 0:
                    continue
                if building.kind not in RESOURCES_BY_KEY[resource].refined_with:
                    continue
                out = (resource, True, False)
                amount = min(left, have)
                while amount > 0:  # the most that fits once the input has left
                    trial = self.holdings[tid].copy()
                    if src == tid:
                        trial.resources[key] -= amount
                    trial.resources[out] += amount
                    if trial.fits():
                        break
                    amount -= 1
                    blocked = True
                if amount <= 0:
                    continue
                self.take(src, key, amount)
                self.store(tid, out, amount)
                done[resource] += amount
                left -= amount
        self.note(kind="refined", territory=tid, building=building.pk,
                  building_kind=building.kind, units=dict(done),
                  limited_by_room=blocked)
        if blocked:
            self.note(kind="no_room", territory=tid, building=building.pk,
                      name=self.territories[tid])

    # -- factories -----------------------------------------------------------------
    def factories(self) -> None:
        # The refined goods of all the player's territories, by resource: what the
        # recipe is paid from, kept in step as each factory takes its share (not summed
        # again for every factory: thousands a turn, issue 32).
        refined_total: Counter[str] = Counter()
        for hold in self.holdings.values():
            for (resource, refined, _pure), units in hold.resources.items():
                if refined:
                    refined_total[resource] += units
        for tid in self.territories:
            for factory in self.active(tid, "factory"):
                self.factory(tid, factory, refined_total)

    def factory(self, tid: int, factory: _Building, refined_total: Counter[str]) -> None:
        if factory.next_product:
            self.note(kind="factory_refitted", building=factory.pk, territory=tid,
                      product=";".join(factory.next_product))
            factory.product, factory.next_product = factory.next_product, []
            factory.refit_turn = self.campaign.turn
            self.world.refits.append(factory)
            return
        if not factory.product:
            self.note(kind="factory_idle", building=factory.pk, territory=tid,
                      reason="no product line chosen")
            return
        stored = factory.product
        line = _stored_line(stored if isinstance(stored, str) else tuple(stored))
        limit = factory_limit(factory.upgrades)
        # The most recipe sets the refined goods pay for: one set more is refused.
        affordable = min(refined_total[r] // q for r, q in FACTORY_RECIPE_PER_100.items())
        # Round robin over the line's items, one at a time, while the turn's budget, the
        # recipe (per started 100 SC of the turn's total) and the room allow (R-ECO-10).
        chosen: list[Product] = []
        total = 0
        trial = self.holdings[tid].copy()
        blocked: set[str] = set()
        progress = True
        while progress:
            progress = False
            for item in line.items:
                if item.code in blocked:
                    continue
                price = item.price
                sets = _ceil_div(total + price, FACTORY_CREDITS_STEP)
                room = item.container_kind
                if price <= 0 or total + price > limit or sets > affordable or (
                        room and not trial.room_for_items(room, 1)):
                    blocked.add(item.code)
                    continue
                chosen.append(item)
                total += price
                if room:
                    trial.loose[room] += 1
                progress = True
        if not chosen:
            self.note(kind="factory_idle", building=factory.pk, territory=tid,
                      product=line.code,
                      reason="not enough refined resources or warehouse room, or the line "
                      "costs more than the factory's limit")
            return
        sets = _ceil_div(total, FACTORY_CREDITS_STEP)
        for resource, per in FACTORY_RECIPE_PER_100.items():
            need = per * sets
            for src in self.sources(tid):
                if need <= 0:
                    break
                key = (resource, True, False)
                amount = min(need, self.holdings[src].resources.get(key, 0))
                if amount:
                    self.take(src, key, amount)
                    refined_total[resource] -= amount
                    need -= amount
        made: list[dict[str, Any]] = []
        pid = self.player.pk
        for item in chosen:
            if item.kind == "vehicle":
                pk = self.world.create(Unit, (pid, tid, item.key,
                                              self.world.unit_name(self.player, item.key)))
                made.append({"unit": pk, "product": item.code})
            elif item.kind == "building":
                pk = self.world.create(BuildingKit, (pid, tid, item.key, self.campaign.turn))
                made.append({"kit": pk, "product": item.code})
            else:
                pk = self.world.create(Weapon, (pid, tid, item.key,
                                                json_value(list(item.templates))))
                made.append({"weapon": pk, "product": item.code})
            if item.container_kind:
                self.holdings[tid].loose[item.container_kind] += 1
        self.note(kind="factory_built", building=factory.pk, territory=tid,
                  product=line.code, items=made, worth=total, recipe_sets=sets)

    # -- laboratories --------------------------------------------------------------
    def laboratories(self) -> None:
        from economy.services.artifacts import doubled_laboratories  # noqa: PLC0415 (cycle: economy.services.production -> economy.services.artifacts -> economy.services.buildings -> economy.services.production)

        craft = any(self.world.explorations[tid].discovery == "xeno_craft"
                    for tid in self.territories if tid in self.world.explorations)
        labs_by_territory = {tid: self.active(tid, "laboratory") for tid in self.territories}
        housed = doubled_laboratories(labs_by_territory=labs_by_territory,
                                      territories=set(self.territories),
                                      kept_in_campaign=self.world.kept_artifacts)
        scientists = {tid: self.world.scientists.get((self.player.pk, tid), [])
                      for tid in self.territories}
        total = 0
        for tid in self.territories:
            labs = labs_by_territory[tid]
            levels = scientists.get(tid, [])
            for i, lab in enumerate(labs):
                points = levels[i] if i < len(levels) else 1
                factors = []
                if lab.pk in housed:
                    points *= 2
                    factors.append("artifact")
                if craft:
                    points *= 2
                    factors.append("xeno_craft")
                total += points
                self.note(kind="research", territory=tid, building=lab.pk, points=points,
                          scientist_level=levels[i] if i < len(levels) else None,
                          doubled_by=factors, artifact=housed.get(lab.pk))
        if total:
            self.world.research[self.player.pk] += total

    # -- missile silos --------------------------------------------------------------
    def silos(self) -> None:
        for tid in self.territories:
            radar = bool(self.active(tid, "radar"))
            for silo in self.active(tid, "missile_silo"):
                if not radar:
                    self.note(kind="missile_not_built", building=silo.pk, territory=tid,
                              reason="no active radar on the territory")
                    continue
                if silo.missiles >= SILO_CAPACITY:
                    self.note(kind="missile_not_built", building=silo.pk, territory=tid,
                              reason=f"the silo already houses {SILO_CAPACITY} missiles")
                    continue
                try:
                    self.world.credits.spend(player_id=self.player.pk, amount=MISSILE_COST,
                                             reason="purchase", detail="tactical missile",
                                             related_kind="building", related_id=silo.pk)
                except ledger.NotEnoughCredits:
                    self.note(kind="missile_not_built", building=silo.pk, territory=tid,
                              reason=f"not enough credits ({MISSILE_COST} SC)")
                    continue
                self.world.missiles.append(silo.pk)
                self.note(kind="missile_built", building=silo.pk, territory=tid,
                          missiles=silo.missiles + 1, cost=MISSILE_COST)


def production_run(*, campaign: Campaign, dice: Dice | None = None) -> None:
    """Everything the active buildings of every player produce this activity phase.

    Runs inside the clock's advancing transaction (hook on leaving the activity
    phase). `dice` overrides the campaign dice (tests, casebook).
    """
    dice = dice or campaign_dice(campaign, f"production:turn{campaign.turn}")
    with transaction.atomic():
        # Every player's row locked at once, in id order (as the ledger locks them).
        players = list(Player.objects.select_for_update().filter(campaign=campaign)
                       .order_by("pk"))
        world = _World(campaign=campaign, players=players)
        journal: list[tuple[Player, str, dict[str, Any]]] = []
        for player in players:
            player.campaign = campaign
            run = _Run(world=world, player=player, dice=dice)
            if not run.territories:
                continue
            run.check_power()
            run.mines()
            run.converters()
            run.factories()
            run.laboratories()
            run.silos()
            journal.append((player, "production", {"turn": campaign.turn, "lines": run.log}))
        world.flush()
        record_private_many(campaign=campaign, entries=journal)
