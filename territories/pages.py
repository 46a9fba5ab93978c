"""Pages of the meta-map and of one territory: the map picture (the same SVG the API
serves), the territorial 16x16 map, building/upgrading (commercial phase),
activation with a live energy budget (activity phase), and the warehouse contents.

Reads go through `territories.selectors.territories_for` (what the caller may see);
writes call the economy services the API calls.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import escape
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
from territories.selectors import territories_for
from territories.svg import meta_map_svg, territory_map_svg


def _players(campaign_id: int) -> dict[int, dict[str, str]]:
    return {p.pk: {"color": p.color, "username": p.user.username}
            for p in Player.objects.filter(campaign_id=campaign_id).select_related("user")}


def _map_state(member: Membership, wanted: Any) -> tuple[
        list[dict[str, Any]], dict[int, Any], dict[str, Any] | None, str, int | None]:
    """(territories, players, the history step shown or None, the SVG, the last step)."""
    from territories.services.history import moments, owners_at

    rows = territories_for(member)
    players = _players(member.campaign.pk)
    steps = moments(member.campaign)
    at = optional_int(wanted)
    history: dict[str, Any] | None = None
    if at is not None and steps:
        at = max(0, min(at, len(steps) - 1))
        turn, phase = steps[at]
        owners = owners_at(member.campaign, turn, phase)
        viewer = member.player.pk if member.player else None
        for row in rows:  # the past: who held what, nothing of today's holdings
            row["owner"] = owners.get(row["id"])
            row["mine"] = viewer is not None and row["owner"] == viewer
            row["units"] = 0
            row.pop("buildings", None)
        history = {"turn": turn, "phase": phase, "index": at, "count": len(steps),
                   "prev": at - 1 if at > 0 else None,
                   "next": at + 1 if at + 1 < len(steps) else None}
    svg = meta_map_svg(campaign_id=member.campaign.pk, campaign_name=member.campaign.name,
                       territories=rows, players=players,
                       viewer=member.player.pk if member.player else None)
    return rows, players, history, svg, len(steps) - 1 if steps else None


@public_page
def meta_map(request: HttpRequest, member: Membership) -> HttpResponse:
    """The meta-map now, or (`?at=N`, the N-th phase opened) as it stood then: owners
    rebuilt from the journal, with previous/next steps through the campaign's history."""
    rows, players, history, svg, last = _map_state(member, request.GET.get("at"))
    # One reversal for the page, not one per row (a 5,000-territory map: issue 15).
    base = reverse("territory", args=[member.campaign.pk, 0]).removesuffix("0/")
    for row in rows:
        row["owner_info"] = players.get(row["owner"]) if row["owner"] else None
        row["href"] = f"{base}{row['id']}/"
    rows.sort(key=lambda r: (not r["mine"], r["name"]))
    return render_campaign(request, member, "pages/map.html", {
        "svg": mark_safe(svg),  # built by territories.svg with every text escaped
        "table_rows": _table_rows(rows, linked=not member.spectator),
        "players": players, "history": history, "last_step": last,
        # the history charts beside the map as it stood then (issue 16)
        "charts": _charts(member) if history else []})


def _table_rows(rows: list[dict[str, Any]], *, linked: bool) -> str:
    """The territories table's rows, every text escaped. Written here rather than in the
    template: a 5,000-territory map's 5,000 rows render in a few milliseconds instead of
    most of the page's time (issue 15)."""
    from campaign.templatetags.pages import label

    out = []
    for t in rows:
        name = escape(t["name"])
        cell = f'<a href="{escape(t["href"])}">{name}</a>' if linked else name
        owner = t["owner_info"]
        held = (f'<span class="swatch" style="background:{escape(owner["color"])}" '
                f'aria-hidden="true"></span> {escape(owner["username"])}'
                f'{" (you)" if t["mine"] else ""}' if owner
                else '<span class="muted">unclaimed</span>')
        deposit = t.get("deposit")
        found = (escape(label(deposit["resource"])) + (" (pure)" if deposit.get("pure") else "")
                 if deposit else '<span class="muted">unknown</span>')
        out.append(f'<tr><td>{cell}</td>\n      <td>{held}</td>\n      '
                   f'<td class="num">{t["units"] or ""}</td>\n      <td>{found}</td></tr>')
    return mark_safe("\n".join(out))  # every text above is escaped


def _charts(member: Membership) -> list[Any]:
    from campaign.pages.charts import history_charts

    return history_charts(member)


@public_page
def meta_map_svg_file(request: HttpRequest, member: Membership) -> HttpResponse:
    """The meta-map (now, or `?at=N`) as an SVG file to keep or post (issue 16)."""
    _rows, _players, history, svg, _last = _map_state(member, request.GET.get("at"))
    when = f"turn-{history['turn']}-{history['phase']}" if history else "now"
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="campaign-{member.campaign.pk}-map-{when}.svg"')
    return response


def _territory_row(member: Membership, territory_id: int) -> dict[str, Any]:
    rows = territories_for(member, only=territory_id)
    if not rows:
        raise Http404("No such territory in this campaign.")
    return rows[0]


def _energy_budget(member: Membership, territory_id: int, active: set[int] | None
                   ) -> dict[str, Any] | None:
    """Supply and demand of the territory's power pool, for the current activation or
    for a plan (`active`) being edited. Read only."""
    from economy.services.energy import player_pools, pool_of

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


@campaign_page
def territory(request: HttpRequest, member: Membership, territory_id: int) -> HttpResponse:
    from economy.models import Building
    from economy.services.storage import describe, load_holdings

    row = _territory_row(member, territory_id)
    players = _players(member.campaign.pk)
    owner = players.get(row["owner"]) if row["owner"] else None
    ctx: dict[str, Any] = {"t": row, "owner": owner,
                           "grid_svg": mark_safe(territory_map_svg(
                               name=row["name"], buildings=row.get("buildings")))}
    neighbor_names = dict(member.campaign.territories.filter(pk__in=row["neighbors"])
                          .values_list("pk", "name"))
    ctx["neighbors"] = [(pk, neighbor_names.get(pk, pk)) for pk in row["neighbors"]]
    if row["mine"] or (member.is_umpire and "buildings" in row):
        from economy.services.buildings import is_turret

        buildings = list(Building.objects.filter(territory_id=territory_id)
                         .select_related("weapon").order_by("pk"))
        for b in buildings:
            b.turret = is_turret(b)
            if b.kind == "factory":
                b.product_text = _product_text(b.product)
                b.next_product_text = _product_text(b.next_product)
                b.product_codes = set(b.product.split(";")) if b.product else set()
            b.weapon_label = _weapon_label(b.weapon) if b.weapon_id else ""
            spec = tables.BUILDINGS.get(b.kind)
            b.spec = spec
            b.energy = building_energy(b.kind, b.upgrades) if spec else 0
            b.upgrade_options = [u for k, u in spec.upgrades.items()
                                 if k not in b.upgrades] if spec else []
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
            ctx["building_kinds"] = list(tables.BUILDINGS.values())
            taken = {(b.x, b.y) for b in buildings}
            ctx["free_count"] = tables.GRID_SIZE ** 2 - len(taken)
            from economy.models import BuildingKit

            kits = list(BuildingKit.objects.filter(player=member.player, used_turn__isnull=True)
                        .select_related("territory").order_by("pk"))
            for k in kits:
                k.spec = tables.BUILDINGS.get(k.kind)
            ctx["kits"] = kits
            if any(b.kind == "factory" for b in buildings):
                ctx["product_choices"] = _product_choices()
            if any(b.turret for b in buildings):
                ctx["turret_weapons"] = _turret_weapons(member, territory_id)
    return render_campaign(request, member, "pages/territory.html", ctx)


def _weapon_label(weapon: Any) -> str:
    spec = tables.WEAPONS.get(weapon.weapon)
    names = [tables.TEMPLATES[t].name for t in weapon.templates if t in tables.TEMPLATES]
    return " ".join([*names, spec.name if spec else weapon.weapon])


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


def _product_text(code: str) -> str:
    """A stored product line (item codes joined by ';') in words."""
    return ", ".join(_item_name(c) for c in code.split(";") if c) if code else ""


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
    from economy.models import Weapon

    weapons = [w for w in Weapon.objects.filter(player=member.player, territory_id=territory_id,
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
    from economy.services.buildings import building_create

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
    from economy.services.buildings import building_upgrade

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
    from economy.services.energy import activation_set

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
    from economy.services.buildings import turret_fit

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
    from economy.services.buildings import factory_set_product

    player = _own(member)
    codes = [c for c in request.POST.getlist("product") if c]
    outcome = attempt(request, lambda: factory_set_product(
        player=player, building_id=optional_int(request.POST.get("building")),
        product=codes))
    if outcome.ok:
        from django.contrib import messages

        factory = outcome.value
        messages.success(request, f"The factory will refit to {_product_text(factory.next_product)}"
                         " during its next active activity phase." if factory.next_product
                         else f"Product line: {_product_text(factory.product)}.")
    return redirect("territory", member.campaign.pk, territory_id)


def ownership_panel(member: Membership) -> dict[str, Any]:
    """Umpire console panel (registered in TerritoriesConfig.ready()): the territories
    whose holder the umpire may correct."""
    from territories.models import Territory

    return {"ownership_rows": list(Territory.objects.filter(campaign=member.campaign)
                                   .order_by("name").values("pk", "name",
                                                            "owner__user__username"))}


@require_POST
@campaign_page
def ownership(request: HttpRequest, member: Membership) -> HttpResponse:
    """The umpire gives a territory to another player, or to nobody (issue 17)."""
    from campaign.pages.common import require_umpire_page
    from territories.services.corrections import correct_owner

    require_umpire_page(member)
    attempt(request, lambda: correct_owner(
        campaign=member.campaign, territory_id=request.POST.get("territory", ""),
        player_id=request.POST.get("player", ""), reason=request.POST.get("reason", ""),
        by=request.user.get_username()),
        success="Ownership corrected; the journal says who did it and why.")
    return redirect("umpire", member.campaign.pk)
