"""Umpire corrections: credits, goods, units and weapons granted or taken, with a reason.

Issue 4, "Umpire corrections": "grant or take credits and goods with a reason, through
the same ledger, visible in the history." Credits go through the ledger (reasons
`umpire_grant` / `umpire_take`); goods through the stock rows; a unit or weapon is
granted on one of the player's territories (`{"model", "territory"}` /
`{"weapon", "templates", "territory"}`) or taken (`{"take": id}`) — R-ECO-21. The
journal entry is private to the player concerned (and, as every private entry, readable
by the umpire).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.errors import InvalidInput, NotFound
from campaign.models import Campaign, Player
from campaign.rules.tables import RESOURCES_BY_KEY, RuleViolation, vehicle, weapon_price
from campaign.services import notifications
from campaign.services.journal import record_private
from economy.models import Building, Unit, Weapon
from economy.services import ledger
from economy.services.common import as_id, require_running
from economy.services.storage import add_stock, load_holdings, require_room, take_stock
from territories.models import Territory


def correction_create(*, campaign: Campaign, player_id: object, reason: object,
                      credits: object = None, goods: object = None, unit: object = None,
                      weapon: object = None, pilot: object = None,
                      building: object = None) -> dict[str, Any]:
    """Grant (positive) or take (negative) credits and/or resource units; grant or take
    a unit, a weapon, a pilot and/or a building."""
    require_running(campaign)
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("A correction needs a reason.", fields={"reason": ["Required."]})
    reason = reason.strip()[:200]
    if credits is None and goods is None and unit is None and weapon is None \
            and pilot is None and building is None:
        raise InvalidInput("Send 'credits', 'goods', 'unit', 'weapon', 'pilot' and/or "
                           "'building'.")
    for name, value in (("unit", unit), ("weapon", weapon), ("pilot", pilot),
                        ("building", building)):
        if value is not None and not isinstance(value, dict):
            raise InvalidInput(f"'{name}' must be an object.",
                               fields={name: ["Must be an object."]})
    if credits is not None and (isinstance(credits, bool) or not isinstance(credits, int)
                                or credits == 0):
        raise InvalidInput("'credits' must be a non-zero whole number (negative to take).",
                           fields={"credits": ["Non-zero integer."]})
    clean_goods = None
    if goods is not None:
        if not isinstance(goods, dict):
            raise InvalidInput("'goods' must be an object.")
        resource = str(goods.get("resource", "")).strip().lower().replace(" ", "_")
        if resource not in RESOURCES_BY_KEY:
            raise InvalidInput(f"Unknown resource {goods.get('resource')!r}.",
                               fields={"goods": ["Unknown resource."]})
        units = goods.get("units")
        if isinstance(units, bool) or not isinstance(units, int) or units == 0:
            raise InvalidInput("'goods.units' must be a non-zero whole number.")
        refined, pure = goods.get("refined", False), goods.get("pure", False)
        if not isinstance(refined, bool) or not isinstance(pure, bool) or (refined and pure):
            raise InvalidInput("'refined' and 'pure' are true or false, never both true.")
        clean_goods = {"territory": as_id(goods.get("territory"), "territory"),
                       "resource": resource, "refined": refined, "pure": pure,
                       "units": units}
    player = Player.objects.filter(campaign=campaign, pk=as_id(player_id, "player")).first()
    if player is None:
        raise NotFound("No such player in this campaign.")
    player.campaign = campaign
    with transaction.atomic():
        if credits is not None:
            ledger.post(player=player, amount=credits,
                        reason="umpire_grant" if credits > 0 else "umpire_take",
                        detail=reason)
        if clean_goods is not None:
            territory = Territory.objects.filter(campaign=campaign, owner=player,
                                                 pk=clean_goods["territory"]).first()
            if territory is None:
                raise InvalidInput("Goods are corrected on a territory the player owns.",
                                   code="invalid_territory")
            key = (clean_goods["resource"], clean_goods["refined"], clean_goods["pure"])
            if clean_goods["units"] > 0:
                add_stock(territory=territory, key=key, units=clean_goods["units"])
                require_room(load_holdings(territory), territory, "the granted goods")
            else:
                take_stock(territory=territory, key=key, units=-clean_goods["units"],
                           name=territory.name)
        data = {"player": player.pk, "reason": reason, "credits": credits,
                "goods": clean_goods}
        if unit is not None:
            data["unit"] = _correct_unit(player=player, campaign=campaign, spec=unit)
        if weapon is not None:
            data["weapon"] = _correct_weapon(player=player, campaign=campaign, spec=weapon)
        if pilot is not None:
            data["pilot"] = _correct_pilot(player=player, campaign=campaign, spec=pilot)
        if building is not None:
            data["building"] = _correct_building(player=player, campaign=campaign,
                                                 spec=building)
        record_private(player=player, kind="umpire_correction", data=data)
        notifications.corrected(campaign=campaign, player_ids=[player.pk])
    return data


def _owned_territory(*, player: Player, campaign: Campaign, value: object) -> Territory:
    territory = Territory.objects.filter(campaign=campaign, owner=player,
                                         pk=as_id(value, "territory")).first()
    if territory is None:
        raise InvalidInput("Units and weapons are granted on a territory the player owns.",
                           code="invalid_territory")
    return territory


def _correct_unit(*, player: Player, campaign: Campaign, spec: dict) -> dict[str, Any]:
    """Grant `{"model", "territory"}` (an empty vehicle; an exo armour needs a container)
    or take `{"take": unit id}` (the unit leaves play with its fitted weapons, recorded as
    destroyed; its pilot stays on the territory)."""
    if "take" in spec:
        target = Unit.objects.select_for_update().filter(
            pk=as_id(spec["take"], "unit"), player=player).exclude(
            status=Unit.Status.DESTROYED).first()
        if target is None:
            raise NotFound("The player has no such unit in play.")
        target.status = Unit.Status.DESTROYED
        target.pilot = None
        target.save(update_fields=["status", "pilot"])
        Building.objects.filter(weapon__unit=target).update(weapon=None)
        return {"taken": target.pk, "model": target.model}
    try:
        model = vehicle(str(spec.get("model", ""))).key
    except RuleViolation as exc:
        raise InvalidInput(str(exc), code="invalid_item",
                           fields={"unit": ["Unknown model."]}) from exc
    territory = _owned_territory(player=player, campaign=campaign, value=spec.get("territory"))
    created = Unit.objects.create(player=player, territory=territory, model=model)
    require_room(load_holdings(territory), territory, "the granted exo armour")
    return {"granted": created.pk, "model": model, "territory": territory.pk}


def _correct_weapon(*, player: Player, campaign: Campaign, spec: dict) -> dict[str, Any]:
    """Grant `{"weapon", "templates", "territory"}` (loose, needs a container) or take
    `{"take": weapon id}` (the weapon is removed, from a unit or a turret too)."""
    if "take" in spec:
        target = Weapon.objects.select_for_update().filter(
            pk=as_id(spec["take"], "weapon"), player=player).first()
        if target is None:
            raise NotFound("The player has no such weapon.")
        data = {"taken": target.pk, "weapon": target.weapon, "templates": target.templates}
        target.delete()
        return data
    key = str(spec.get("weapon", "")).strip().lower().replace(" ", "_")
    templates = spec.get("templates") or []
    if not isinstance(templates, list) or not all(isinstance(t, str) for t in templates):
        raise InvalidInput("'weapon.templates' must be a list of template names.")
    templates = [t.strip().lower().replace(" ", "_") for t in templates]
    try:
        weapon_price(key, templates)
    except RuleViolation as exc:
        raise InvalidInput(str(exc), code="invalid_item",
                           fields={"weapon": [str(exc)]}) from exc
    territory = _owned_territory(player=player, campaign=campaign, value=spec.get("territory"))
    created = Weapon.objects.create(player=player, territory=territory, weapon=key,
                                    templates=templates)
    require_room(load_holdings(territory), territory, "the granted weapon")
    return {"granted": created.pk, "weapon": key, "templates": templates,
            "territory": territory.pk}


def _correct_pilot(*, player: Player, campaign: Campaign, spec: dict) -> dict[str, Any]:
    """Grant `{"class", "territory", "name"?}` (a level-1 operative) or take
    `{"take": operative id}` (the operative dies; a unit it piloted is left empty)."""
    from campaign.rules.tables import pilot_class
    from economy.models import Operative

    if "take" in spec:
        target = Operative.objects.select_for_update().filter(
            pk=as_id(spec["take"], "pilot"), player=player, alive=True).first()
        if target is None:
            raise NotFound("The player has no such living operative.")
        Unit.objects.filter(pilot=target).update(pilot=None)
        target.alive = False
        target.save(update_fields=["alive"])
        return {"taken": target.pk, "class": target.klass}
    try:
        spec_class = pilot_class(str(spec.get("class", "")))
    except RuleViolation as exc:
        raise InvalidInput(str(exc), code="invalid_item",
                           fields={"pilot": ["Unknown class."]}) from exc
    territory = _owned_territory(player=player, campaign=campaign, value=spec.get("territory"))
    created = Operative.objects.create(player=player, territory=territory,
                                       klass=spec_class.key,
                                       name=str(spec.get("name") or "")[:60])
    return {"granted": created.pk, "class": spec_class.key, "territory": territory.pk}


def _correct_building(*, player: Player, campaign: Campaign, spec: dict) -> dict[str, Any]:
    """Grant `{"kind", "territory", "x", "y"}` (inactive, full hit points, no price, no
    requirement checked: the umpire corrects) or take `{"take": building id}`."""
    from campaign.rules.tables import BUILDINGS
    from economy.services.buildings import place_building

    if "take" in spec:
        target = Building.objects.select_for_update().filter(
            pk=as_id(spec["take"], "building"), territory__owner=player).first()
        if target is None:
            raise NotFound("The player has no such building.")
        data = {"taken": target.pk, "kind": target.kind, "territory": target.territory_id}
        target.delete()
        return data
    kind = str(spec.get("kind", "")).strip().lower().replace(" ", "_")
    if kind not in BUILDINGS:
        raise InvalidInput(f"Unknown building {spec.get('kind')!r}.", code="invalid_item",
                           fields={"building": ["Unknown kind."]})
    territory = _owned_territory(player=player, campaign=campaign, value=spec.get("territory"))
    try:
        x, y = int(spec.get("x")), int(spec.get("y"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidInput("A building needs its square: whole numbers x and y (0-15).",
                           code="invalid_square") from None
    built = place_building(territory=territory, kind=kind, x=x, y=y, turn=campaign.turn)
    return {"granted": built.pk, "kind": kind, "territory": territory.pk, "x": x, "y": y}
