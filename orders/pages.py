"""The orders page: pick a unit, see its legal destinations (listed and highlighted on
the meta-map), submit or withdraw a sealed order, mark ready. Past orders are read
through `orders.selectors.orders_visible_to` only.

An app above this one adds a section to the page (`orders_page_section`: the
battles app, its battle odds); the page renders each section's template with the
context it returns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from campaign.access import Membership
from campaign.hooks import Hook
from campaign.models import Phase, Player
from campaign.pages.common import (
    attempt,
    campaign_page,
    is_htmx,
    optional_int,
    render_campaign,
    seat,
)
from economy.models import Unit
from orders.models import Order
from orders.plan_pages import plans_context
from orders.selectors import orders_visible_to, sealed_counts
from orders.services.receipts import current_receipt
from orders.services.sealing import order_submit, order_withdraw
from territories.models import Territory
from territories.pages import player_colours
from territories.selectors import territories_for
from territories.services.movement import legal_destinations
from territories.svg import meta_map_svg


@dataclass(frozen=True)
class OrdersSection:
    """A section another app adds to the orders page: its template, and its context
    from the caller's membership and the campaign's territory names ({id: name})."""

    template: str
    context: Callable[[Membership, dict[int, str]], dict[str, Any]]


orders_page_section: Hook[[], OrdersSection] = Hook("orders_page_section", """A section
another app adds below the order form.

Called by `orders.pages.orders` (the orders page) with nothing; a receiver returns the
`OrdersSection` (its template and its context function), shown in order (battles: the
odds of the battles to come).""")


def _destinations(player: Player, unit: Unit, names: dict[int, str]) -> list[tuple[int, str]]:
    if unit.territory_id is None:
        return sorted(((pk, n) for pk, n in names.items() if pk in _owned(player)),
                      key=lambda p: p[1])
    ids = set(legal_destinations(player, unit.territory_id)) - {unit.territory_id}
    return sorted(((pk, names[pk]) for pk in ids if pk in names), key=lambda p: p[1])


def _owned(player: Player) -> set[int]:
    return set(Territory.objects.filter(owner=player).values_list("pk", flat=True))


@campaign_page
def orders(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    campaign = member.campaign
    names = dict(Territory.objects.filter(campaign=campaign).values_list("pk", "name"))
    units = list(Unit.objects.filter(player=player).exclude(status=Unit.Status.DESTROYED)
                 .select_related("pilot"))
    current = {o.unit_id: o for o in Order.objects.filter(player=player, turn=campaign.turn)}
    for u in units:  # what the page shows of each unit, beside the unit
        u.order = current.get(u.pk)  # type: ignore[attr-defined]
        u.where = (names.get(u.territory_id, "off the map")  # type: ignore[attr-defined]
                   if u.territory_id is not None else "off the map")
    chosen = next((u for u in units if u.pk == optional_int(request.GET.get("unit"))), None)
    ctx: dict[str, Any] = {"units": units, "chosen": chosen,
                           "move_phase": campaign.phase == Phase.MOVE, "names": names,
                           "receipt": current_receipt(player=player)}
    if chosen is not None and ctx["move_phase"]:
        ctx["destinations"] = _destinations(player, chosen, names)
        highlight = ",".join(f'a[data-territory="{pk}"] circle' for pk, _ in
                             ctx["destinations"])
        style = (f"<style>{highlight} {{ stroke: #f1c232; stroke-width: 8; }}</style>"
                 if highlight else "")
        svg = meta_map_svg(campaign_id=campaign.pk, campaign_name=campaign.name,
                           territories=territories_for(member),
                           players=player_colours(campaign.pk), viewer=player.pk)
        ctx["svg"] = mark_safe(style + svg)  # territories.svg escapes every text
        # issue 17: the other units standing with it can be sent along in one go
        ctx["companions"] = [u for u in units if u.pk != chosen.pk
                             and u.territory_id == chosen.territory_id
                             and u.territory_id is not None]
        if is_htmx(request):
            return render_campaign(request, member, "pages/_order_form.html", ctx)
    past = list(orders_visible_to(member).exclude(turn=campaign.turn)
                .select_related("player__user", "destination", "origin")
                .order_by("-turn", "id")[:50])
    ctx["past"] = past
    ctx.update(plans_context(member, names, move_phase=ctx["move_phase"]))
    sections = orders_page_section.call()
    ctx["sections"] = [section.template for section in sections]
    for section in sections:
        ctx.update(section.context(member, names))
    return render_campaign(request, member, "pages/orders.html", ctx)


@require_POST
@campaign_page
def submit(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    unit_ids = [optional_int(u) or 0 for u in request.POST.getlist("unit")][:50] or [0]
    destination = optional_int(request.POST.get("destination")) or 0

    def seal_all() -> int:
        with transaction.atomic():  # several units at once: all sealed, or none
            for unit_id in dict.fromkeys(unit_ids):
                order_submit(player=player, unit_id=unit_id, destination_id=destination)
        return len(set(unit_ids))

    done = attempt(request, seal_all)
    if done.ok:
        messages.success(request, ("Order sealed." if done.value == 1 else
                                   f"{done.value} orders sealed.")
                         + " Nobody else sees them before the tactical phase.")
    return redirect("orders", member.campaign.pk)


@require_POST
@campaign_page
def withdraw(request: HttpRequest, member: Membership, order_id: int) -> HttpResponse:
    player = seat(member)
    attempt(request, lambda: order_withdraw(player=player, order_id=order_id),
            success="Order withdrawn: the unit stays where it is.")
    return redirect("orders", member.campaign.pk)


def no_orders_alert(member: Membership) -> list[dict[str, str]]:
    """Dashboard alert (registered first of the apps'): a player without a move order
    this turn, in the move phase."""
    campaign, player = member.campaign, member.player
    if player is None or campaign.phase != Phase.MOVE:
        return []
    if Order.objects.filter(player=player, turn=campaign.turn).exists():
        return []
    return [{"level": "warn", "text": "You have no move orders this turn.",
             "url": reverse("orders", args=[campaign.pk])}]


def sealed_panel(member: Membership) -> dict[str, Any]:
    """Umpire console: how many orders each seat has sealed (shown in the move phase)."""
    if member.campaign.phase != Phase.MOVE:
        return {"sealed_orders": {}}
    return {"sealed_orders": sealed_counts(member.campaign)}
