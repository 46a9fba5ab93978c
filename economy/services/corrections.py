"""Umpire corrections: credits, goods, units, weapons, pilots and buildings granted or
taken, with a reason.

Issue 4, "Umpire corrections": "grant or take credits and goods with a reason, through
the same ledger, visible in the history." Credits go through the ledger (reasons
`umpire_grant` / `umpire_take`); goods through the stock rows; a unit, weapon, pilot or
building is granted on one of the player's territories or taken (`{"take": id}`) —
R-ECO-21. The journal entry is private to the player concerned (and, as every private
entry, readable by the umpire).

The input is validated once, by `economy.correction_serializers` (types, bounds, keys of
the rules tables); this module keeps the rules that need the database: the player is in
the campaign, the territory is theirs, the warehouses have room, the thing taken exists,
the building's square is free.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db import transaction

from campaign.errors import InvalidInput, NotFound
from campaign.models import Campaign, Player
from campaign.services import notifications, request_keys
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from economy.correction_serializers import (
    BuildingGrant,
    Correction,
    PilotGrant,
    Take,
    UnitGrant,
    WeaponGrant,
    correction_input,
)
from economy.models import Building, Operative, Unit, Weapon
from economy.services import ledger
from economy.services.buildings import place_building
from economy.services.common import require_running
from economy.services.names import default_pilot_name, default_unit_name
from economy.services.storage import add_stock, load_holdings, require_room, take_stock
from territories.models import Territory


def correction_create(*, campaign: Campaign, player_id: object, reason: object,
                      credits: object = None, goods: object = None, unit: object = None,
                      weapon: object = None, pilot: object = None,
                      building: object = None) -> dict[str, Any]:
    """Grant (positive) or take (negative) credits and/or resource units; grant or take
    a unit, a weapon, a pilot and/or a building. The raw shape of the API's body (the web
    page and the case book call this): validated by `correction_input`, then applied."""
    require_running(campaign)
    sent = {"player": player_id, "reason": reason, "credits": credits, "goods": goods,
            "unit": unit, "weapon": weapon, "pilot": pilot, "building": building}
    return correction_apply(campaign=campaign, correction=correction_input(
        {key: value for key, value in sent.items() if value is not None}))


@retry_on_conflict
def correction_claimed(*, campaign: Campaign, correction: Correction) -> dict[str, Any]:
    """The API's correction: its request key claimed and the correction applied in one
    transaction (both, or neither), run again if the database aborts it for a deadlock."""
    with transaction.atomic():
        request_keys.claim(campaign_id=campaign.pk, key=correction.request_id)
        return correction_apply(campaign=campaign, correction=correction)


def correction_apply(*, campaign: Campaign, correction: Correction) -> dict[str, Any]:
    """Apply a validated correction in one transaction (inside the caller's, which may
    also hold its request key): all of it, or nothing."""
    require_running(campaign)
    player = Player.objects.filter(campaign=campaign, pk=correction.player).first()
    if player is None:
        raise NotFound("No such player in this campaign.")
    player.campaign = campaign
    goods = asdict(correction.goods) if correction.goods is not None else None
    with transaction.atomic():
        # The player first, whatever is corrected (the global lock order: players, then
        # territories, then units, weapons, operatives, buildings, then stock).
        ledger.lock_player(player.pk)
        if correction.credits is not None:
            ledger.post(player=player, amount=correction.credits,
                        reason="umpire_grant" if correction.credits > 0 else "umpire_take",
                        detail=correction.reason)
        if goods is not None:
            territory = Territory.objects.filter(campaign=campaign, owner=player,
                                                 pk=goods["territory"]).first()
            if territory is None:
                raise InvalidInput("Goods are corrected on a territory the player owns.",
                                   code="invalid_territory")
            key = (goods["resource"], goods["refined"], goods["pure"])
            if goods["units"] > 0:
                add_stock(territory=territory, key=key, units=goods["units"])
                require_room(load_holdings(territory), territory, "the granted goods")
            else:
                take_stock(territory=territory, key=key, units=-goods["units"],
                           name=territory.name)
        data: dict[str, Any] = {"player": player.pk, "reason": correction.reason,
                                "credits": correction.credits, "goods": goods}
        if correction.unit is not None:
            data["unit"] = _correct_unit(player=player, campaign=campaign,
                                         spec=correction.unit)
        if correction.weapon is not None:
            data["weapon"] = _correct_weapon(player=player, campaign=campaign,
                                             spec=correction.weapon)
        if correction.pilot is not None:
            data["pilot"] = _correct_pilot(player=player, campaign=campaign,
                                           spec=correction.pilot)
        if correction.building is not None:
            data["building"] = _correct_building(player=player, campaign=campaign,
                                                 spec=correction.building)
        record_private(player=player, kind="umpire_correction", data=data)
        notifications.corrected(campaign=campaign, player_ids=[player.pk])
    return data


def _owned_territory(*, player: Player, campaign: Campaign, pk: int) -> Territory:
    territory = Territory.objects.filter(campaign=campaign, owner=player, pk=pk).first()
    if territory is None:
        raise InvalidInput("Units and weapons are granted on a territory the player owns.",
                           code="invalid_territory")
    return territory


def _correct_unit(*, player: Player, campaign: Campaign, spec: UnitGrant | Take
                  ) -> dict[str, Any]:
    """Grant an empty vehicle (an exo armour needs a container) or take a unit (it
    leaves play with its fitted weapons, recorded as destroyed; its pilot stays on the
    territory)."""
    if isinstance(spec, Take):
        target = Unit.objects.select_for_update().filter(
            pk=spec.id, player=player).exclude(status=Unit.Status.DESTROYED).first()
        if target is None:
            raise NotFound("The player has no such unit in play.")
        target.status = Unit.Status.DESTROYED
        target.pilot = None
        target.save(update_fields=["status", "pilot"])
        Building.objects.filter(weapon__unit=target).update(weapon=None)
        return {"taken": target.pk, "model": target.model}
    territory = _owned_territory(player=player, campaign=campaign, pk=spec.territory)
    created = Unit.objects.create(player=player, territory=territory, model=spec.model,
                                  name=default_unit_name(player=player, model=spec.model))
    require_room(load_holdings(territory), territory, "the granted exo armour")
    return {"granted": created.pk, "model": spec.model, "territory": territory.pk}


def _correct_weapon(*, player: Player, campaign: Campaign, spec: WeaponGrant | Take
                    ) -> dict[str, Any]:
    """Grant a loose weapon (it needs a container) or take one (removed, from a unit or
    a turret too)."""
    if isinstance(spec, Take):
        target = Weapon.objects.select_for_update().filter(pk=spec.id, player=player).first()
        if target is None:
            raise NotFound("The player has no such weapon.")
        data = {"taken": target.pk, "weapon": target.weapon, "templates": target.templates}
        target.delete()
        return data
    territory = _owned_territory(player=player, campaign=campaign, pk=spec.territory)
    templates = list(spec.templates)
    created = Weapon.objects.create(player=player, territory=territory, weapon=spec.weapon,
                                    templates=templates)
    require_room(load_holdings(territory), territory, "the granted weapon")
    return {"granted": created.pk, "weapon": spec.weapon, "templates": templates,
            "territory": territory.pk}


def _correct_pilot(*, player: Player, campaign: Campaign, spec: PilotGrant | Take
                   ) -> dict[str, Any]:
    """Grant a level-1 operative or take one (it dies; a unit it piloted is left
    empty)."""
    if isinstance(spec, Take):
        target = Operative.objects.select_for_update().filter(
            pk=spec.id, player=player, alive=True).first()
        if target is None:
            raise NotFound("The player has no such living operative.")
        Unit.objects.filter(pilot=target).update(pilot=None)
        target.alive = False
        target.save(update_fields=["alive"])
        return {"taken": target.pk, "class": target.klass}
    territory = _owned_territory(player=player, campaign=campaign, pk=spec.territory)
    created = Operative.objects.create(
        player=player, territory=territory, klass=spec.klass,
        name=spec.name.strip() or default_pilot_name(player=player))
    return {"granted": created.pk, "class": spec.klass, "territory": territory.pk}


def _correct_building(*, player: Player, campaign: Campaign, spec: BuildingGrant | Take
                      ) -> dict[str, Any]:
    """Grant a building (inactive, full hit points, no price, no requirement checked:
    the umpire corrects; the square must be on the grid and free) or take one."""
    if isinstance(spec, Take):
        target = Building.objects.select_for_update().filter(
            pk=spec.id, territory__owner=player).first()
        if target is None:
            raise NotFound("The player has no such building.")
        data = {"taken": target.pk, "kind": target.kind, "territory": target.territory_id}
        target.delete()
        return data
    territory = _owned_territory(player=player, campaign=campaign, pk=spec.territory)
    built = place_building(territory=territory, kind=spec.kind, x=spec.x, y=spec.y,
                           turn=campaign.turn)
    return {"granted": built.pk, "kind": spec.kind, "territory": territory.pk, "x": spec.x,
            "y": spec.y}
