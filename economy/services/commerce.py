"""The commercial phase: shipping to the mining cooperatives, and purchases.

Seed, "Commercial phase": "you can ship resources to the mining cooperatives to earn
money." "You can also purchase Buildings, Equipment, Vehicles, Weapons, and hire
Operatives. The Buildings may appear in any territory you own. The other elements may
only appear in a territory with a landing pad." "Landing pad": "You can ship five
containers each commercial turn for each landing pad you own. Each container may
contain up to ten units of one single resource. This done, you earn the amount of
credits your shipment is worth." "Radar": "Radars allow the landing pads and missile
silos on their territory to operate."

Rulings: R-ECO-11 (shipping leaves from one territory through its active landing pads,
five containers per active pad per turn, and needs an active radar there; purchases
only need a standing landing pad), R-ECO-12 (pure raw stock is shipped first when a
container does not say "pure"), R-ECO-13 (a bought weapon or exo armour must find a
container on arrival, or the purchase is refused with `no_room`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import transaction
from django.db.models import Sum

from campaign import rulesets
from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Player
from campaign.rules.formulas import shipping_value, vehicle_slots
from campaign.rules.tables import (
    CONTAINER_UNITS,
    CONTAINERS_PER_PAD,
    EXTENSION_COST,
    RESOURCES_BY_KEY,
    RuleViolation,
    pilot_class,
    vehicle,
    weapon,
    weapon_price,
    weapon_size,
)
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from economy.models import Building, Operative, Shipment, Stock, Unit, Weapon
from economy.services import ledger
from economy.services.buildings import building_create
from economy.services.common import as_id, own_territory, require_phase
from economy.services.names import clean_name, default_pilot_name, default_unit_name
from economy.services.storage import load_holdings, require_room, take_stock
from territories.models import Territory


def _standing(territory: Territory, kind: str, *, active: bool) -> int:
    qs = Building.objects.filter(territory=territory, kind=kind, hit_points__gt=0)
    if active:
        qs = qs.filter(active=True)
    return qs.count()


def _shipping_allowance(player: Player, territory: Territory, pads: int
                        ) -> tuple[int, int, str]:
    """(containers already shipped, containers allowed, who the allowance belongs to).

    Seed, Landing pad: "You can ship five containers each commercial turn for each landing
    pad you own." R-ECO-11 (option `shipping_allowance`): "player" (the default) pools the
    allowance over every operating pad the player owns (active, on a territory with an
    active radar: "Radars allow the landing pads ... to operate"); "territory" counts only
    the pads of the territory the shipment leaves from."""
    turn = player.campaign.turn
    if player.campaign.settings.shipping_allowance == "territory":
        used = Shipment.objects.filter(territory=territory, turn=turn).aggregate(
            n=Sum("containers"))["n"] or 0
        return used, pads * CONTAINERS_PER_PAD, territory.name
    radar_territories = Building.objects.filter(
        territory__owner=player, kind="radar", active=True, hit_points__gt=0
    ).values("territory_id")
    operating = Building.objects.filter(
        territory__owner=player, kind="landing_pad", active=True, hit_points__gt=0,
        territory_id__in=radar_territories).count()
    used = Shipment.objects.filter(player=player, turn=turn).aggregate(
        n=Sum("containers"))["n"] or 0
    return used, operating * CONTAINERS_PER_PAD, "You"


def _clean_containers(containers: object) -> list[dict[str, Any]]:
    if not isinstance(containers, list) or not containers:
        raise InvalidInput("'containers' must be a non-empty list.",
                           fields={"containers": ["A non-empty list is required."]})
    cleaned = []
    for i, c in enumerate(containers):
        if not isinstance(c, dict):
            raise InvalidInput(f"Container {i + 1} must be an object.")
        resource = str(c.get("resource", "")).strip().lower().replace(" ", "_")
        if resource not in RESOURCES_BY_KEY:
            raise InvalidInput(f"Container {i + 1}: unknown resource {c.get('resource')!r}.",
                               fields={"containers": [f"Unknown resource in container {i+1}."]})
        units = c.get("units")
        if isinstance(units, bool) or not isinstance(units, int) or not (
                1 <= units <= CONTAINER_UNITS):
            raise InvalidInput(f"Container {i + 1}: a container holds 1 to {CONTAINER_UNITS} "
                               "units of one single resource.", code="container_size")
        refined = c.get("refined", False)
        pure = c.get("pure")
        if not isinstance(refined, bool) or (pure is not None and not isinstance(pure, bool)):
            raise InvalidInput(f"Container {i + 1}: 'refined' and 'pure' are true or false.")
        if refined and pure:
            raise InvalidInput(f"Container {i + 1}: refined resources are never 'pure'.")
        cleaned.append({"resource": resource, "units": units, "refined": refined,
                        "pure": pure})
    return cleaned


@retry_on_conflict
def shipment_create(*, player: Player, territory_id: object, containers: object) -> Shipment:
    """Ship containers from one territory; pays their worth into the ledger."""
    require_phase(player.campaign, "commercial")
    cargo = _clean_containers(containers)
    with transaction.atomic():
        territory = own_territory(player=player, territory_id=territory_id, for_update=True)
        if not _standing(territory, "radar", active=True):
            raise Conflict(f"{territory.name} has no active radar: its landing pads cannot "
                           "operate.", code="no_active_radar")
        pads = _standing(territory, "landing_pad", active=True)
        if not pads:
            raise Conflict(f"{territory.name} has no active landing pad.",
                           code="no_landing_pad")
        used, allowed, where = _shipping_allowance(player, territory, pads)
        if used + len(cargo) > allowed:
            raise Conflict(
                f"{where} can ship {allowed} containers this turn ({allowed // CONTAINERS_PER_PAD}"
                f" operating landing pads x {CONTAINERS_PER_PAD}); {used} already left and you "
                f"asked for {len(cargo)} more.", code="shipping_capacity")
        for c in cargo:  # R-ECO-12: pure raw first when not said
            if not c["refined"] and c["pure"] is None:
                c["pure"] = Stock.objects.filter(territory=territory, resource=c["resource"],
                                                 refined=False, pure=True,
                                                 units__gt=0).exists()
            c["pure"] = bool(c["pure"])
        needed: Counter[tuple[str, bool, bool]] = Counter()
        for c in cargo:
            needed[(c["resource"], c["refined"], c["pure"])] += c["units"]
        for key, units in sorted(needed.items()):
            take_stock(territory=territory, key=key, units=units, name=territory.name)
        value = sum(shipping_value(c["resource"], c["units"], c["refined"], c["pure"])
                    for c in cargo)
        shipment = Shipment.objects.create(player=player, territory=territory,
                                           turn=player.campaign.turn, containers=len(cargo),
                                           value=value, cargo=cargo)
        ledger.post(player=player, amount=value, reason="shipping",
                    detail=f"{len(cargo)} containers from {territory.name}",
                    related_kind="shipment", related_id=shipment.pk)
        record_private(player=player, kind="shipment",
                       data={"shipment": shipment.pk, "territory": territory.pk,
                             "containers": cargo, "value": value})
    return shipment


def _need_landing_pad(territory: Territory) -> None:
    if not _standing(territory, "landing_pad", active=False):
        raise Conflict(f"{territory.name} has no landing pad: equipment, vehicles, weapons "
                       "and operatives can only arrive on a territory with one.",
                       code="no_landing_pad")


@retry_on_conflict
def purchase(*, player: Player, territory_id: object, item: object) -> dict[str, int]:
    """Buy one item for a territory (commercial phase). Returns the new object's id as
    {"unit"|"pilot"|"weapon"|"building": id}."""
    require_phase(player.campaign, "commercial")
    if not isinstance(item, dict) or not isinstance(item.get("kind"), str):
        raise InvalidInput("'item' must be an object with a 'kind'.",
                           fields={"item": ["An object with a 'kind' is required."]})
    kind = item["kind"].strip().lower()
    if kind == "building":
        b = building_create(player=player, territory_id=territory_id,
                            kind=item.get("building") or item.get("type"),
                            x=item.get("x"), y=item.get("y"), kit=item.get("kit"))
        return {"building": b.pk}
    ruleset_name = player.campaign.settings.ruleset
    info = rulesets.get(ruleset_name)
    kinds = info.purchase_kinds if info is not None else ("unit",)
    handler = _PURCHASES.get(kind) if kind in kinds else None
    if handler is None:
        if "unit" not in kinds:
            message = (f"Unknown item kind {kind!r}: {', '.join(kinds)} or building.")
        else:
            message = (f"This campaign fields the units of its ruleset ({ruleset_name}): buy "
                       "{\"kind\": \"unit\", \"key\": KEY} from its catalogue, or a "
                       f"building; not {kind!r}.")
        raise InvalidInput(message, code="unknown_item", fields={"item": ["Unknown kind."]})
    with transaction.atomic():
        territory = own_territory(player=player, territory_id=territory_id, for_update=True)
        _need_landing_pad(territory)
        try:
            result, price, label = handler(player=player, territory=territory, item=item)
        except RuleViolation as exc:
            raise InvalidInput(str(exc), code="invalid_item") from exc
        (what, pk), = result.items()
        ledger.spend(player=player, amount=price, reason="purchase",
                     detail=f"{label} on {territory.name}", related_kind=what, related_id=pk)
        record_private(player=player, kind="purchase",
                       data={"territory": territory.pk, "item": label, what: pk,
                             "cost": price})
    return dict(result)


def _buy_unit(*, player: Player, territory: Territory, item: dict[str, Any]
              ) -> tuple[dict[str, int], int, str]:
    """API.md, "Rulesets": a unit from the catalogue of the campaign's ruleset (and the
    player's faction), ready to be ordered: its crew comes with it. Its profile is copied
    from the catalogue, so later catalogue changes do not change it."""
    info = rulesets.get(player.campaign.settings.ruleset)
    if info is None:
        raise Conflict("This campaign's ruleset is not offered on this site any more.",
                       code="unknown_ruleset")
    key = item.get("key")
    options = player.campaign.settings.ruleset_options
    entry = info.entry(key, player.faction, options) if isinstance(key, str) else None
    if entry is None and isinstance(key, str) and info.factions:
        theirs = next((e for f in (None, *info.factions) for e in info.catalogue(f, options)
                       if e["key"] == key), None)
        if theirs is not None:  # another faction's unit: not for this seat
            mine = f"your seat plays {player.faction}" if player.faction \
                else "your seat has no faction"
            raise InvalidInput(f"The {theirs['name']} is not in your faction's catalogue "
                               f"({mine}); GET /api/campaigns/{player.campaign_id}/"
                               "catalogue/ lists what you can buy.",
                               code="not_your_faction",
                               fields={"item": ["Another faction's unit."]})
    if entry is None:
        raise InvalidInput(f"No unit {key!r} in the {info.title} catalogue; "
                           f"GET /api/campaigns/{player.campaign_id}/catalogue/ lists them.",
                           code="invalid_item", fields={"item": ["Unknown key."]})
    name = _given_name(item)
    profile = dict(entry.get("profile") or {})
    unit = Unit.objects.create(
        player=player, territory=territory, model=entry["key"],
        name=name or default_unit_name(player=player, model=entry["key"],
                                       profile={**profile, "name": entry["name"]}),
        profile=profile, state=dict(info.initial_state(entry["key"])))
    return {"unit": unit.pk}, int(entry["price"]), unit.name


def _given_name(item: dict[str, Any]) -> str:
    """The name a purchase asks for (optional): blank or absent gives the default; a
    name that cannot be kept is a 400 (issue 26, the rename's rules)."""
    name = item.get("name")
    if name is None or (isinstance(name, str) and not name.strip()):
        return ""
    return clean_name(name)


def _buy_vehicle(*, player: Player, territory: Territory, item: dict[str, Any]
                 ) -> tuple[dict[str, int], int, str]:
    spec = vehicle(str(item.get("model", "")))
    extension = item.get("extension", False) is True
    price = spec.cost
    if extension:
        vehicle_slots(spec.key, extension=True)  # RuleViolation if not allowed
        price += EXTENSION_COST
    unit = Unit.objects.create(player=player, territory=territory, model=spec.key,
                               extension=extension,
                               name=_given_name(item)
                               or default_unit_name(player=player, model=spec.key))
    if spec.category == "exo_armor":
        require_room(load_holdings(territory), territory, f"an empty {spec.name}")
    return {"unit": unit.pk}, price, unit.name


def _buy_operative(*, player: Player, territory: Territory, item: dict[str, Any]
                   ) -> tuple[dict[str, int], int, str]:
    spec = pilot_class(str(item.get("class", "")))
    op = Operative.objects.create(player=player, territory=territory, klass=spec.key,
                                  name=_given_name(item) or default_pilot_name(player=player))
    return {"pilot": op.pk}, spec.hiring_cost, f"{op.name} ({spec.name})"


def _buy_weapon(*, player: Player, territory: Territory, item: dict[str, Any],
                equipment: bool = False) -> tuple[dict[str, int], int, str]:
    key = str(item.get("equipment" if equipment and item.get("equipment") else "weapon", ""))
    key = key.strip().lower().replace(" ", "_")
    spec = weapon(key)
    if (spec.type == "equipment") != equipment:
        right = "equipment" if spec.type == "equipment" else "weapon"
        raise InvalidInput(f"The {spec.name} is bought as kind '{right}'.",
                           code="invalid_item")
    templates = item.get("templates") or []
    if not isinstance(templates, list) or not all(isinstance(t, str) for t in templates):
        raise InvalidInput("'templates' must be a list of template names.")
    templates = [t.strip().lower().replace(" ", "_") for t in templates]
    price = weapon_price(spec.key, templates)
    w = Weapon.objects.create(player=player, territory=territory, weapon=spec.key,
                              templates=templates)
    require_room(load_holdings(territory), territory,
                 f"a {weapon_size(spec.key, templates)} {spec.name}")
    return {"weapon": w.pk}, price, " ".join([*templates, spec.name])


def _buy_equipment(*, player: Player, territory: Territory, item: dict[str, Any]
                   ) -> tuple[dict[str, int], int, str]:
    if item.get("equipment") == "extension":
        unit_id = as_id(item.get("unit"), "unit")
        unit = Unit.objects.select_for_update().filter(
            pk=unit_id, player=player).first()
        if unit is None:
            raise NotFound("No such unit among yours.")
        if unit.territory_id != territory.pk:
            raise InvalidInput("The unit must stand on the territory where the extension "
                               "arrives.", code="wrong_territory")
        if unit.status != Unit.Status.READY or unit.locked_until_turn > \
                player.campaign.turn:
            raise Conflict("This unit cannot change equipment before turn "
                           f"{unit.locked_until_turn}.", code="unit_locked")
        if unit.extension:
            raise Conflict("This unit already has the extension.", code="already_fitted")
        vehicle_slots(unit.model, extension=True)
        unit.extension = True
        unit.save(update_fields=["extension"])
        return {"unit": unit.pk}, EXTENSION_COST, "extension"
    return _buy_weapon(player=player, territory=territory, item=item, equipment=True)


#: How each purchasable kind is bought; a campaign's ruleset says which kinds it sells
#: (`RulesetInfo.purchase_kinds`).
_PURCHASES: dict[str, Any] = {"unit": _buy_unit, "vehicle": _buy_vehicle,
                              "operative": _buy_operative, "weapon": _buy_weapon,
                              "equipment": _buy_equipment}
