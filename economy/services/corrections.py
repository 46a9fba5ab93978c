"""Umpire corrections: credits and goods granted or taken, with a reason.

Issue 4, "Umpire corrections": "grant or take credits and goods with a reason, through
the same ledger, visible in the history." Credits go through the ledger (reasons
`umpire_grant` / `umpire_take`); goods through the stock rows. The journal entry is
private to the player concerned (and, as every private entry, readable by the umpire).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.errors import InvalidInput, NotFound
from campaign.models import Campaign, Player
from campaign.rules.tables import RESOURCES_BY_KEY
from campaign.services.journal import record_private
from economy.services import ledger
from economy.services.common import as_id, require_running
from economy.services.storage import add_stock, load_holdings, require_room, take_stock
from territories.models import Territory


def correction_create(*, campaign: Campaign, player_id: object, reason: object,
                      credits: object = None, goods: object = None) -> dict[str, Any]:
    """Grant (positive) or take (negative) credits and/or resource units."""
    require_running(campaign)
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("A correction needs a reason.", fields={"reason": ["Required."]})
    reason = reason.strip()[:200]
    if credits is None and goods is None:
        raise InvalidInput("Send 'credits' and/or 'goods'.")
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
        record_private(player=player, kind="umpire_correction", data=data)
    return data
