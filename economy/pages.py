"""Economy and forces pages: credits and ledger, shipping, purchases (with a weapon
builder that prices templates live through `campaign.rules.tables.weapon_price`),
trades inbox/outbox; units, pilots with XP bars, crew and fit.

Writes call the same economy services as the API (`economy.services.*`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign import rulesets
from campaign.access import Membership
from campaign.models import Player
from campaign.pages.campaigns import maybe_url
from campaign.pages.common import (
    attempt,
    campaign_page,
    optional_int,
    render_campaign,
    require_umpire_page,
    seat,
)
from campaign.rules import tables
from campaign.rules.names import MAX_LENGTH as MAX_NAME
from campaign.rules.tables import BUILDINGS, PILOT_CLASSES, RESOURCES_BY_KEY, VEHICLES
from campaign.rules.tables import WEAPONS as WEAPON_SPECS
from campaign.services import request_keys
from campaign.services.locking import retry_on_conflict
from economy.labels import (
    model_label,
    pilot_phrase,
    unit_label,
    unit_phrase,
    weapon_label,
    weapon_phrase,
)
from economy.models import Building, LedgerEntry, Operative, Trade, Unit, Weapon
from economy.selectors import side_words, trade_phrases, trade_sentence
from economy.services import names, trades
from economy.services.artifacts import artifact_house, artifact_sell, artifacts_of
from economy.services.commerce import purchase, shipment_create
from economy.services.corrections import correction_create
from economy.services.trades import trade_create
from economy.services.units import unit_update
from territories.models import Territory
from territories.services.passages import grant_passage, passages_visible_to, revoke_passage


def _weapon_label(weapon_key: str, templates: list[str]) -> str:
    spec = tables.WEAPONS.get(weapon_key)
    names = [tables.TEMPLATES[t].name for t in templates if t in tables.TEMPLATES]
    return " ".join([*names, spec.name if spec else weapon_key])


# --------------------------------------------------------------------------- economy


@campaign_page
def economy(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    # Model rows below are decorated with what the templates show (can_ship, label,
    # give_text...): typed as such rows (Any), not as the bare models.
    territories: list[Any] = list(Territory.objects.filter(owner=player).order_by("name"))
    ledger = list(LedgerEntry.objects.filter(player=player).order_by("-id")[:15])
    weapons = [w for w in tables.WEAPONS.values() if w.type != "equipment"]
    equipment = [w for w in tables.WEAPONS.values() if w.type == "equipment"]
    trades: list[Any] = list(Trade.objects.filter(campaign=member.campaign)
                  .filter(from_player=player)
                  .select_related("from_player__user", "to_player__user")
                  .order_by("-id")[:30])
    inbox: list[Any] = list(Trade.objects.filter(campaign=member.campaign, to_player=player)
                 .select_related("from_player__user", "to_player__user").order_by("-id")[:30])
    others = list(Player.objects.filter(campaign=member.campaign).exclude(pk=player.pk)
                  .select_related("user"))
    # The first partner's territories first: the trade form's defaults are legal
    # (issue 17); site.js keeps the choices to the partner picked.
    first = others[0].pk if others else None
    other_territories = sorted(Territory.objects.filter(campaign=member.campaign,
                                                        owner__in=others)
                               .select_related("owner__user"),
                               key=lambda t: (t.owner_id != first, t.name))

    # Shipping leaves from a territory with an active landing pad and an active radar:
    # those first, the others said so (issue 17: a default that is refused). Purchases
    # arrive only on a territory with a standing landing pad (seed, "Commercial phase";
    # R-ECO-11): only those are offered (issue 26: every default is a legal choice).
    kinds: dict[int, set[str]] = {}
    pads: set[int] = set()
    for tid, kind, active in Building.objects.filter(
            territory__in=territories, kind__in=("landing_pad", "radar"),
            hit_points__gt=0).values_list("territory_id", "kind", "active"):
        if kind == "landing_pad":
            pads.add(tid)
        if active:
            kinds.setdefault(tid, set()).add(kind)
    for t in territories:
        t.can_ship = kinds.get(t.pk, set()) >= {"landing_pad", "radar"}
    ship_from = sorted(territories, key=lambda t: (not t.can_ship, t.name))
    buy_at = [t for t in territories if t.pk in pads]
    loose: list[Any] = list(Weapon.objects.filter(player=player, unit__isnull=True)
                            .select_related("territory"))
    for w in loose:
        w.label = weapon_label(w)
    own_units = list(Unit.objects.filter(player=player, status=Unit.Status.READY)
                     .select_related("territory").order_by("pk"))
    own_operatives = list(Operative.objects.filter(player=player, alive=True)
                          .select_related("territory").order_by("pk"))

    phrases = trade_phrases([*trades, *inbox])
    for t in [*trades, *inbox]:
        t.give_text = side_words(t.give, phrases) or "nothing"
        t.receive_text = side_words(t.receive, phrases) or "nothing"
        t.sentence = trade_sentence(t, phrases)

    passages = list(passages_visible_to(member.campaign, player, False)
                    .select_related("grantor__user", "grantee__user"))

    artifacts = artifacts_of(player)
    laboratories = list(Building.objects.filter(territory__owner=player, kind="laboratory",
                                                hit_points__gt=0)
                        .select_related("territory").order_by("territory__name", "pk"))

    ruleset_name = member.campaign.settings.ruleset
    info = rulesets.get(ruleset_name)
    catalogue = (info.for_faction(player.faction, member.campaign.settings.ruleset_options)
                 if info is not None and info.sells_whole_units else None)
    return render_campaign(request, member, "pages/economy.html", {
        "catalogue": catalogue, "ruleset_title": info.title if info else ruleset_name,
        "faction": player.faction,
        "territories": territories, "ledger": ledger,
        "vehicles": list(tables.VEHICLES.values()),
        "classes": list(tables.PILOT_CLASSES.values()),
        "weapons": weapons, "equipment": equipment,
        "templates": list(tables.TEMPLATES.values()),
        "resources": list(tables.RESOURCES_BY_KEY.values()),
        "outbox": trades, "inbox": inbox, "others": others,
        "other_territories": other_territories, "loose_weapons": loose,
        "ship_from": ship_from, "can_ship": any(t.can_ship for t in territories),
        "buy_at": buy_at,
        "price": _price_context("machine_gun", []),
        "container_rows": range(3),
        "passages_given": [p for p in passages if p.grantor_id == player.pk],
        "passages_received": [p for p in passages if p.grantee_id == player.pk],
        "artifacts": artifacts, "laboratories": laboratories,
        "own_units": own_units, "own_operatives": own_operatives,
        "qualities": [("", "raw"), ("refined", "refined"), ("pure", "pure")],
    })


def _price_context(weapon_key: str, templates: list[str]) -> dict[str, Any]:
    """Price of a weapon with templates, or why the combination is illegal."""
    if weapon_key not in tables.WEAPONS:
        return {"ok": False, "error": "Choose a weapon."}
    try:
        price = tables.weapon_price(weapon_key, templates)
    except (tables.RuleViolation, KeyError, ValueError) as exc:
        return {"ok": False, "error": str(exc).strip("'\"")}
    return {"ok": True, "price": price, "label": _weapon_label(weapon_key, templates),
            "size": tables.weapon_size(weapon_key, templates)}


@require_POST
@campaign_page
def weapon_price(request: HttpRequest, member: Membership) -> HttpResponse:
    """htmx: the live price of the weapon being built (nothing is bought)."""
    seat(member)
    ctx = _price_context(request.POST.get("weapon", ""), request.POST.getlist("templates"))
    return render_campaign(request, member, "pages/_price.html", {"price": ctx})


@require_POST
@campaign_page
def buy(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    kind = request.POST.get("kind", "")
    item: dict[str, Any] = {"kind": kind}
    if kind == "vehicle":
        item["model"] = request.POST.get("model", "")
        item["extension"] = request.POST.get("extension") == "on"
        item["name"] = request.POST.get("name", "")
    elif kind == "operative":
        item["class"] = request.POST.get("class", "")
        item["name"] = request.POST.get("name", "")
    elif kind in ("weapon", "equipment"):
        item[kind] = request.POST.get("weapon", "")
        item["templates"] = request.POST.getlist("templates")
    elif kind == "unit":
        item["key"] = request.POST.get("key", "")
        if request.POST.get("name"):
            item["name"] = request.POST.get("name", "")
    outcome = attempt(request, lambda: purchase(
        player=player, territory_id=optional_int(request.POST.get("territory")), item=item))
    if outcome.ok:
        messages.success(request, f"Bought {_bought(player, outcome.value)}. It waits on the "
                         "territory you chose.")
    return redirect("economy", member.campaign.pk)


def _bought(player: Player, result: dict[str, int]) -> str:
    """What a purchase brought, by name (issue 26): "Golem 'Iron Wolf'", "Sgt. Mara Voss",
    "a Cannon"."""
    (what, pk), = result.items()
    found: Any = {"unit": Unit, "pilot": Operative, "weapon": Weapon}.get(what)
    row = found.objects.filter(pk=pk, player=player).first() if found else None
    if row is None:
        return "it"
    return {"unit": unit_phrase, "pilot": pilot_phrase, "weapon": weapon_phrase}[what](row)


@require_POST
@campaign_page
def ship(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    containers = []
    for i in range(3):
        resource = request.POST.get(f"resource_{i}", "")
        units = optional_int(request.POST.get(f"units_{i}"))
        if not resource or not units:
            continue
        containers.append({"resource": resource, "units": units,
                           "refined": request.POST.get(f"refined_{i}") == "on"})
    outcome = attempt(request, lambda: shipment_create(
        player=player, territory_id=optional_int(request.POST.get("territory")),
        containers=containers))
    if outcome.ok:
        messages.success(request, f"Shipped {outcome.value.containers} container(s) for "
                                  f"{outcome.value.value} SC.")
    return redirect("economy", member.campaign.pk)


def _ids(request: HttpRequest, name: str) -> list[int]:
    return [v for v in (optional_int(x) for x in request.POST.getlist(name)) if v]


def _resource_line(request: HttpRequest, prefix: str) -> list[dict[str, Any]]:
    """One resource line of a trade side from the form (`<prefix>_res_*` fields): none
    when no resource or units were chosen."""
    resource = request.POST.get(f"{prefix}_res_resource", "")
    units = optional_int(request.POST.get(f"{prefix}_res_units"))
    if not resource or not units:
        return []
    quality = request.POST.get(f"{prefix}_res_quality", "")
    return [{"territory": optional_int(request.POST.get(f"{prefix}_res_territory")),
             "resource": resource, "units": units,
             "refined": quality == "refined", "pure": quality == "pure"}]


def _trade_side(request: HttpRequest, prefix: str, deliver_field: str) -> dict[str, Any]:
    """A side of a trade as `economy.services.trades._clean_side` reads it: credits,
    resources, weapons, units, operatives and the territory receiving the goods."""
    side: dict[str, Any] = {"credits": optional_int(request.POST.get(f"{prefix}_credits")) or 0}
    resources = _resource_line(request, prefix)
    if resources:
        side["resources"] = resources
    for key in ("weapons", "units", "operatives"):
        ids = _ids(request, f"{prefix}_{key}")
        if ids:
            side[key] = ids
    if len(side) > 1:
        side["deliver_to"] = optional_int(request.POST.get(deliver_field))
    return side


@require_POST
@campaign_page
def trade_new(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    give = _trade_side(request, "give", "deliver_to")
    receive = _trade_side(request, "receive", "receive_deliver_to")
    attempt(request, lambda: trade_create(player=player,
                                          to_player=optional_int(request.POST.get("to_player")),
                                          give=give, receive=receive),
            success="Trade offered.")
    return redirect("economy", member.campaign.pk)


@require_POST
@campaign_page
def trade_action(request: HttpRequest, member: Membership, trade_id: int, action: str
                 ) -> HttpResponse:
    player = seat(member)
    service = {"accept": trades.trade_accept, "decline": trades.trade_decline,
               "cancel": trades.trade_cancel}.get(action)
    if service is None:
        raise Http404("No such action.")
    attempt(request, lambda: service(player=player, trade_id=trade_id),
            success={"accept": "Trade accepted.", "decline": "Trade declined.",
                     "cancel": "Trade cancelled."}.get(action, "Trade updated."))
    return redirect("economy", member.campaign.pk)


def _other_player(member: Membership, player_id: int | None) -> Player | None:
    other = Player.objects.filter(campaign=member.campaign, pk=player_id).first() \
        if player_id is not None else None
    if other is not None:
        other.campaign = member.campaign
    return other


@require_POST
@campaign_page
def passage_grant(request: HttpRequest, member: Membership) -> HttpResponse:
    """Right of passage (seed, "Move Phase"): the named territories of the caller may be
    crossed by the other player as if they were theirs."""
    player = seat(member)
    grantee = _other_player(member, optional_int(request.POST.get("grantee")))
    if grantee is None:
        messages.error(request, "Choose a player of this campaign.")
        return redirect("economy", member.campaign.pk)
    ids = [t for t in (optional_int(v) for v in request.POST.getlist("territories"))
           if t is not None]
    attempt(request, lambda: grant_passage(grantor=player, grantee=grantee, territories=ids),
            success=f"Passage granted to {grantee.user.username}.")
    return redirect("economy", member.campaign.pk)


@require_POST
@campaign_page
def passage_revoke(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    grantee = _other_player(member, optional_int(request.POST.get("grantee")))
    if grantee is None:
        messages.error(request, "Choose a player of this campaign.")
        return redirect("economy", member.campaign.pk)
    territory = optional_int(request.POST.get("territory"))
    attempt(request, lambda: revoke_passage(
        grantor=player, grantee=grantee,
        territories=[territory] if territory is not None else None),
        success="Passage revoked.")
    return redirect("economy", member.campaign.pk)


@require_POST
@campaign_page
def artifact_action(request: HttpRequest, member: Membership, territory_id: int, action: str
                    ) -> HttpResponse:
    """Exploration table, 7: "You can either sell it for 200 credits or house it in a
    laboratory" (R-ECO-19)."""
    player = seat(member)
    if action == "sell":
        attempt(request, lambda: artifact_sell(player=player, territory_id=territory_id),
                success="Artifact sold.")
    elif action == "house":
        attempt(request, lambda: artifact_house(
            player=player, territory_id=territory_id,
            laboratory=optional_int(request.POST.get("laboratory"))),
            success="Artifact housed in the laboratory.")
    else:
        raise Http404("No such action.")
    return redirect(f"{reverse('economy', args=[member.campaign.pk])}#artifacts")


# --------------------------------------------------------------------------- forces


def _xp_bar(op: Operative) -> dict[str, int]:
    """XP within the current level: from the threshold of this level to the next
    (campaign.rules.tables.XP_LEVELS)."""
    thresholds = dict(tables.XP_LEVELS)
    low = thresholds.get(op.level - 1, 0) if op.level > 1 else 0
    high = thresholds.get(op.level, low)
    return {"low": low, "high": high, "max": op.level >= tables.MAX_LEVEL}


@campaign_page
def forces(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    # decorated below with what the template shows: typed as such rows (Any)
    units: list[Any] = list(
        Unit.objects.filter(player=player).exclude(status=Unit.Status.DESTROYED)
        .select_related("territory", "pilot").prefetch_related("weapons"))
    operatives: list[Any] = list(Operative.objects.filter(player=player, alive=True)
                                 .select_related("territory", "unit"))
    loose: list[Any] = list(Weapon.objects.filter(player=player)
                            .select_related("territory", "unit"))
    for w in loose:
        w.label = weapon_label(w)
        w.model_label = _weapon_label(w.weapon, w.templates)
    for u in units:
        spec = tables.VEHICLES.get(u.model)
        u.spec = spec
        u.label = unit_label(u)
        u.model_label = model_label(u.model, u.profile)
        u.show_model = not u.label.startswith(u.model_label)  # "Iron Wolf (Golem)"
        u.max_hp = spec.hit_points if spec else 0
        u.hp = max(0, u.max_hp - u.damage_repairable - u.damage_unrepairable)
        u.fitted = [w for w in loose if w.unit_id == u.pk]
        u.fittable = [w for w in loose if w.territory_id == u.territory_id
                      and (w.unit_id is None or w.unit_id == u.pk)]
        u.crew_options = [o for o in operatives if o.territory_id == u.territory_id]
    for op in operatives:
        op.bar = _xp_bar(op)
        try:
            op.unit_name = unit_label(op.unit)
        except Unit.DoesNotExist:
            op.unit_name = ""
        cls = tables.PILOT_CLASSES.get(op.klass)
        op.class_name = cls.name if cls else op.klass
    return render_campaign(request, member, "pages/forces.html", {
        "units": units, "operatives": operatives, "weapons": loose,
        "can_rename": not member.reading_as, "name_max": MAX_NAME})


@require_POST
@campaign_page
def unit_change(request: HttpRequest, member: Membership, unit_id: int) -> HttpResponse:
    player = seat(member)
    kwargs: dict[str, Any] = {}
    if "pilot" in request.POST:
        kwargs["pilot"] = optional_int(request.POST.get("pilot"))
    if request.POST.get("fit") == "1":
        kwargs["weapons"] = [w for w in (optional_int(v) for v in request.POST.getlist("weapons"))
                             if w]
    attempt(request, lambda: unit_update(player=player, unit_id=unit_id, **kwargs),
            success="Unit updated.")
    return redirect("forces", member.campaign.pk)


@require_POST
@campaign_page
def rename(request: HttpRequest, member: Membership, kind: str, item_id: int
           ) -> HttpResponse:
    """The forces page's small rename forms (issue 26): one of the caller's units, pilots
    or weapons, in any phase; a refused name is said and changes nothing."""
    player = seat(member)
    service = {"unit": lambda: names.unit_rename(player=player, unit_id=item_id,
                                                 name=request.POST.get("name", "")),
               "pilot": lambda: names.pilot_rename(player=player, pilot_id=item_id,
                                                   name=request.POST.get("name", "")),
               "weapon": lambda: names.weapon_rename(player=player, weapon_id=item_id,
                                                     name=request.POST.get("name", ""))
               }.get(kind)
    if service is None:
        raise Http404("Nothing of that kind can be named.")
    outcome = attempt(request, service)
    if outcome.ok:
        messages.success(request, f"Renamed: {outcome.value}.")
    anchor = {"unit": "unit", "pilot": "op", "weapon": "weapon"}[kind]
    return redirect(reverse("forces", args=[member.campaign.pk]) + f"#{anchor}-{item_id}")


def trade_alerts(member: Membership) -> list[dict[str, str]]:
    """Dashboard alert (connected in economy/connections.py): offers waiting for the
    caller's answer."""
    if member.player is None:
        return []
    pending = Trade.objects.filter(to_player=member.player, status=Trade.Status.OPEN).count()
    if not pending:
        return []
    return [{"level": "info", "text": f"{pending} trade offer(s) wait for your answer.",
             "url": maybe_url("economy", member.campaign.pk) + "#trades"}]


@require_POST
@campaign_page
def umpire_correction(request: HttpRequest, member: Membership) -> HttpResponse:
    """The umpire console's correction form: credits granted or taken, with a reason and
    the page's one-time key (a double click applies once). The form's text is read into
    the API body's shape; `correction_create` validates it with the API's serializer."""
    require_umpire_page(member)
    done = redirect("umpire-correct", member.campaign.pk)
    post = request.POST

    def number(name: str) -> int | None:
        raw = post.get(name, "").strip()
        if not raw:
            return None
        try:
            return int(raw)
        except ValueError:
            raise ValueError(name) from None

    try:
        player_id = int(post.get("player", ""))
        credits = number("credits")
        goods_units = number("goods_units")
    except ValueError as exc:
        messages.error(request, "Give a player and whole numbers"
                       + (f" ({str(exc).replace('_', ' ')})" if str(exc) else "") + ".")
        return done
    goods = ({"resource": post.get("goods_resource", ""), "units": goods_units,
              "territory": post.get("goods_territory", ""),
              "refined": post.get("goods_quality") == "refined",
              "pure": post.get("goods_quality") == "pure"}
             if goods_units is not None else None)
    unit = None
    if post.get("unit_model"):
        unit = {"model": post.get("unit_model"), "territory": post.get("unit_territory", "")}
    elif post.get("unit_take"):
        unit = {"take": post.get("unit_take")}
    weapon = ({"weapon": post.get("weapon_key"), "territory": post.get("unit_territory", "")}
              if post.get("weapon_key") else {"take": post.get("weapon_take")}
              if post.get("weapon_take") else None)
    pilot = ({"class": post.get("pilot_class"), "territory": post.get("unit_territory", ""),
              "name": post.get("pilot_name", "")}
             if post.get("pilot_class") else {"take": post.get("pilot_take")}
             if post.get("pilot_take") else None)
    building = ({"kind": post.get("building_kind"), "territory": post.get("unit_territory", ""),
                 "x": post.get("building_x"), "y": post.get("building_y")}
                if post.get("building_kind") else {"take": post.get("building_take")}
                if post.get("building_take") else None)

    @retry_on_conflict
    def apply() -> object:
        with transaction.atomic():  # the form's one-time key and the correction
            request_keys.claim(campaign_id=member.campaign.pk,
                               key=request.POST.get("request_id"))
            return correction_create(campaign=member.campaign, player_id=player_id,
                                     reason=post.get("reason", ""), credits=credits,
                                     goods=goods, unit=unit, weapon=weapon, pilot=pilot,
                                     building=building)

    attempt(request, apply, success="Correction recorded in the ledger and the journal.")
    return done


def correction_panel(member: Membership) -> dict[str, Any]:
    """Umpire console panel (connected in economy/connections.py): what the correction
    form offers beyond credits: goods on a territory, a unit granted or taken."""
    return {
        "correction_territories": list(Territory.objects.filter(
            campaign=member.campaign, owner__isnull=False).order_by("name").values(
            "pk", "name", "owner__user__username")),
        "correction_resources": sorted(RESOURCES_BY_KEY),
        "correction_vehicles": sorted(VEHICLES),
        "correction_units": list(Unit.objects.filter(player__campaign=member.campaign)
                                 .exclude(status=Unit.Status.DESTROYED)
                                 .order_by("player__user__username", "model", "pk")
                                 .values("pk", "model", "name", "player__user__username")),
        "correction_classes": sorted(PILOT_CLASSES),
        "correction_weapons": sorted(k for k, w in WEAPON_SPECS.items()
                                     if w.type != "equipment"),
        "correction_buildings": sorted(BUILDINGS),
        "correction_pilots": list(Operative.objects.filter(
            player__campaign=member.campaign, alive=True).order_by(
            "player__user__username", "pk").values("pk", "klass", "name",
                                                   "player__user__username")),
        "correction_standing": list(Building.objects.filter(
            territory__campaign=member.campaign, territory__owner__isnull=False).order_by(
            "territory__name", "kind").values("pk", "kind", "territory__name",
                                              "territory__owner__user__username")),
    }
