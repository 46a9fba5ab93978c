"""One territory's page (issue 7; moved here from the territories app in issue 11 so
that app imports none above it): the territorial 16x16 map, building and upgrading
(commercial phase), activation with a live energy budget and turret weapons (activity
phase), factory product lines, and the warehouse contents.

Reads go through `territories.selectors.territories_for` (what the caller may see);
writes call the economy services the API calls.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from campaign.access import Membership
from campaign.models import Player
from campaign.pages.common import (
    attempt,
    campaign_page,
    optional_int,
    public_page,
    render_campaign,
)
from campaign.rules import tables
from campaign.rules.formulas import building_energy
from economy.labels import weapon_label
from economy.models import Building, BuildingKit, Weapon
from economy.services.buildings import (
    building_create,
    building_upgrade,
    factory_set_product,
    is_turret,
    turret_fit,
)
from economy.services.energy import activation_set, player_pools, pool_of
from economy.services.storage import describe, load_holdings
from territories.pages import player_colours
from territories.selectors import territories_for
from territories.svg import territory_map_svg


def _territory_row(member: Membership, territory_id: int) -> dict[str, Any]:
    rows = territories_for(member, only=territory_id)
    if not rows:
        raise Http404("No such territory in this campaign.")
    return rows[0]


def _energy_budget(member: Membership, territory_id: int, active: set[int] | None
                   ) -> dict[str, Any] | None:
    """Supply and demand of the territory's power pool, for the current activation or
    for a plan (`active`) being edited. Read only."""
    player = member.player
    if player is None:
        return None
    overrides = {territory_id: active} if active is not None else None
    pools = player_pools(player, overrides)
    try:
        pool = pool_of(pools, territory_id)
    except StopIteration:
        return None
    return {"supply": pool.supply, "demand": pool.demand, "balance": pool.balance,
            "grid": pool.grid, "ok": pool.demand <= pool.supply}


@public_page
def territory(request: HttpRequest, member: Membership, territory_id: int) -> HttpResponse:
    row = _territory_row(member, territory_id)
    players = player_colours(member.campaign.pk)
    owner = players.get(row["owner"]) if row["owner"] else None
    ctx: dict[str, Any] = {"t": row, "owner": owner,
                           "grid_svg": mark_safe(territory_map_svg(
                               name=row["name"], buildings=row.get("buildings")))}
    neighbor_names = dict(member.campaign.territories.filter(pk__in=row["neighbors"])
                          .values_list("pk", "name"))
    ctx["neighbors"] = [(pk, neighbor_names.get(pk, pk)) for pk in row["neighbors"]]
    if row["mine"] or (member.is_umpire and "buildings" in row):
        # decorated below with what the template shows: typed as such rows (Any)
        buildings: list[Any] = list(Building.objects.filter(territory_id=territory_id)
                                    .select_related("weapon").order_by("pk"))
        # Upgrades offered only where the service takes them (issue 26): an upgrade fitted
        # once per territory is not offered again; one beyond the player's credits is
        # shown disabled.
        fitted = {(b.kind, k) for b in buildings for k in b.upgrades}
        credits = member.player.credits if member.player is not None else 0
        for b in buildings:
            b.turret = is_turret(b)
            if b.kind == "factory":
                b.product_text = _product_text(b.product)
                b.next_product_text = _product_text(b.next_product)
                b.product_codes = set(b.product)
            b.weapon_label = _weapon_label(b.weapon) if b.weapon_id else ""
            spec = tables.BUILDINGS.get(b.kind)
            b.spec = spec
            b.energy = building_energy(b.kind, b.upgrades) if spec else 0
            b.upgrade_options = [u for k, u in spec.upgrades.items()
                                 if k not in b.upgrades
                                 and not (u.one_per_territory and (b.kind, k) in fitted)
                                 ] if spec else []
            b.affordable = [u for u in b.upgrade_options if u.cost <= credits]
            b.upgrade_names = [spec.upgrades[k].name for k in b.upgrades
                               if spec and k in spec.upgrades]
        ctx["buildings"] = buildings
        holdings = load_holdings(territory_id)
        ctx["holdings"] = {
            "containers": holdings.containers, "used": holdings.used(),
            "resources": sorted((describe(k), n) for k, n in holdings.resources.items() if n),
            "loose": sorted(holdings.loose.items()),
        }
        if row["mine"]:
            ctx["budget"] = _energy_budget(member, territory_id, None)
            taken = {(b.x, b.y) for b in buildings}
            ctx["free_count"] = tables.GRID_SIZE ** 2 - len(taken)
            kits: list[Any] = list(  # each given its `spec` for the template
                BuildingKit.objects.filter(player=member.player, used_turn__isnull=True)
                .select_related("territory").order_by("pk"))
            for k in kits:
                k.spec = tables.BUILDINGS.get(k.kind)
            ctx["kits"] = kits
            ctx["building_kinds"] = _building_choices(
                buildings, credits=member.player.credits if member.player else 0,
                kit_kinds={k.kind for k in kits})
            ctx["can_build"] = any(not c["blocked"] for c in ctx["building_kinds"])
            if any(b.kind == "factory" for b in buildings):
                ctx["product_choices"] = _product_choices()
            if any(b.turret for b in buildings):
                ctx["turret_weapons"] = _turret_weapons(member, territory_id)
    return render_campaign(request, member, "pages/territory.html", ctx)


def _building_choices(buildings: list[Building], *, credits: int, kit_kinds: set[str]
                      ) -> list[dict[str, Any]]:
    """Every building kind with why it cannot be built here now ("" when it can), so
    the build form preselects only a legal kind (issue 26): a kind whose required
    building does not stand on the territory (seed, "Buildings": requirements) or that
    costs more than the player's credits, unless a kit of the kind pays for it
    (R-ECO-18), is offered disabled with the reason."""
    standing = {b.kind for b in buildings if b.hit_points > 0}
    choices = []
    for spec in tables.BUILDINGS.values():
        blocked = ""
        if spec.requires and spec.requires not in standing:
            blocked = f"needs a {tables.BUILDINGS[spec.requires].name} here first"
        elif spec.cost > credits and spec.key not in kit_kinds:
            blocked = f"costs more than your {credits} SC"
        choices.append({"spec": spec, "blocked": blocked})
    return choices


def _weapon_label(weapon: Any) -> str:
    return weapon_label(weapon)  # its name when its owner gave one (issue 26)


def _item_name(code: str) -> str:
    kind, _, rest = code.partition(":")
    key, _, templates = rest.partition(":")
    if kind == "vehicle" and key in tables.VEHICLES:
        return tables.VEHICLES[key].name
    if kind == "building" and key in tables.BUILDINGS:
        return f"{tables.BUILDINGS[key].name} kit"
    if kind == "weapon" and key in tables.WEAPONS:
        names = [tables.TEMPLATES[t].name for t in templates.split(",") if t in tables.TEMPLATES]
        return " ".join([*names, tables.WEAPONS[key].name])
    return code


def _product_text(codes: list[str]) -> str:
    """A stored product line (its items' codes) in words."""
    return ", ".join(_item_name(c) for c in codes)


def _product_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """What a factory line may list (seed, "Factory"): vehicles, exo armour, weapons and
    equipment, or one building. Weapons with templates are set through the API."""
    return [
        ("Vehicles and exo armour", [(f"vehicle:{v.key}", v.name)
                                     for v in tables.VEHICLES.values()]),
        ("Weapons and equipment", [(f"weapon:{w.key}", w.name)
                                   for w in tables.WEAPONS.values()]),
        ("Building kits", [(f"building:{b.key}", f"{b.name} kit")
                           for b in tables.BUILDINGS.values()]),
    ]


def _turret_weapons(member: Membership, territory_id: int) -> list[Any]:
    """The caller's weapons on this territory that a turret may take (not equipment,
    not fitted to a unit; R-ECO-17)."""
    weapons: list[Any] = [  # each given its `label` for the template
        w for w in Weapon.objects.filter(player=member.player, territory_id=territory_id,
                                         unit__isnull=True).order_by("pk")
        if getattr(tables.WEAPONS.get(w.weapon), "type", "equipment") != "equipment"]
    for w in weapons:
        w.label = _weapon_label(w)
    return weapons


def _own(member: Membership) -> Player:
    if member.player is None:
        raise Http404("Only players own territories.")
    player = member.player
    player.campaign = member.campaign
    return player


@require_POST
@campaign_page
def build(request: HttpRequest, member: Membership, territory_id: int) -> HttpResponse:
    player = _own(member)
    x, y = optional_int(request.POST.get("x")), optional_int(request.POST.get("y"))
    kind = request.POST.get("kind", "")
    spec = tables.BUILDINGS.get(kind)
    kit = optional_int(request.POST.get("kit"))
    attempt(request, lambda: building_create(player=player, territory_id=territory_id,
                                             kind=kind, x=x, y=y, kit=kit),
            success=f"{spec.name if spec else kind} built at ({x}, {y})"
                    f"{' from a building kit' if kit else ''}.")
    return redirect("territory", member.campaign.pk, territory_id)


@require_POST
@campaign_page
def upgrade(request: HttpRequest, member: Membership, territory_id: int) -> HttpResponse:
    player = _own(member)
    attempt(request, lambda: building_upgrade(
        player=player, building_id=optional_int(request.POST.get("building")),
        upgrade=request.POST.get("upgrade", "")), success="Upgrade fitted.")
    return redirect("territory", member.campaign.pk, territory_id)


def _active_ids(request: HttpRequest) -> set[int]:
    return {v for v in (optional_int(s) for s in request.POST.getlist("active")) if v is not None}


@require_POST
@campaign_page
def activate(request: HttpRequest, member: Membership, territory_id: int) -> HttpResponse:
    player = _own(member)
    active = sorted(_active_ids(request))
    attempt(request, lambda: activation_set(player=player, territory_id=territory_id,
                                            active=list(active)),
            success="Activation saved.")
    return redirect("territory", member.campaign.pk, territory_id)


@require_POST
@campaign_page
def energy_preview(request: HttpRequest, member: Membership, territory_id: int
                   ) -> HttpResponse:
    """htmx: the energy budget of the activation being edited (nothing is saved)."""
    row = _territory_row(member, territory_id)
    if not row["mine"]:
        raise Http404("Not your territory.")
    budget = _energy_budget(member, territory_id, _active_ids(request))
    return render_campaign(request, member, "pages/_energy.html", {"budget": budget})


@require_POST
@campaign_page
def turret(request: HttpRequest, member: Membership, territory_id: int) -> HttpResponse:
    """Activity phase: fit a loose weapon to a turret (or turret mount), or take it off."""
    player = _own(member)
    weapon = optional_int(request.POST.get("weapon"))
    attempt(request, lambda: turret_fit(player=player,
                                        building_id=optional_int(request.POST.get("building")),
                                        weapon=weapon),
            success="Weapon fitted to the turret." if weapon else "Turret weapon taken off.")
    return redirect("territory", member.campaign.pk, territory_id)


@require_POST
@campaign_page
def factory_product(request: HttpRequest, member: Membership, territory_id: int
                    ) -> HttpResponse:
    """Choose or refit a factory's product line (seed, "Factory"; R-ECO-9)."""
    player = _own(member)
    codes = [c for c in request.POST.getlist("product") if c]
    outcome = attempt(request, lambda: factory_set_product(
        player=player, building_id=optional_int(request.POST.get("building")),
        product=codes))
    if outcome.ok:
        factory = outcome.value
        messages.success(request, f"The factory will refit to {_product_text(factory.next_product)}"
                         " during its next active activity phase." if factory.next_product
                         else f"Product line: {_product_text(factory.product)}.")
    return redirect("territory", member.campaign.pk, territory_id)
