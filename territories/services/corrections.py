"""The umpire corrects who holds a territory (issue 17): with a reason, in the public
journal (ownership is public), and the map's history reads it like any change of owner.
No exploration roll: a correction is not a conquest."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Campaign, Player
from campaign.services import notifications
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict
from territories.models import Territory


@retry_on_conflict
def correct_owner(*, campaign: Campaign, territory_id: Any, player_id: Any, reason: object,
                  by: str) -> Territory:
    """Give `territory_id` to `player_id` (None or "": nobody holds it)."""
    if campaign.status != Campaign.Status.RUNNING:
        raise Conflict("Ownership is corrected while the campaign runs.", code="not_running")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("A correction needs a reason.", fields={"reason": ["Required."]})
    with transaction.atomic():
        found = Territory.objects.filter(
            campaign=campaign, pk=territory_id if str(territory_id).isdigit() else -1
        ).values_list("pk", "owner_id").first()
        if found is None:
            raise NotFound("No such territory in this campaign.")
        player = None
        if player_id not in (None, ""):
            player = Player.objects.filter(
                campaign=campaign, pk=player_id if str(player_id).isdigit() else -1).first()
            if player is None:
                raise InvalidInput("Choose a player of this campaign, or nobody.",
                                   code="invalid_player")
        # The global lock order: the players concerned (by id), then the territory.
        concerned = sorted({p for p in (found[1], player.pk if player else None) if p})
        list(Player.objects.select_for_update().filter(pk__in=concerned).order_by("pk")
             .values_list("pk"))
        territory = Territory.objects.select_for_update().get(pk=found[0])
        if territory.owner_id != found[1]:
            raise Conflict(f"{territory.name} changed hands meanwhile; look again before "
                           "correcting it.", code="changed_meanwhile")
        before = territory.owner_id
        if before == (player.pk if player else None):
            raise Conflict(f"{territory.name} is already held so.", code="no_change")
        territory.owner = player
        territory.save(update_fields=["owner"])
        record_event(campaign=campaign, kind="ownership_corrected",
                     data={"territory": territory.pk, "territory_name": territory.name,
                           "player": player.pk if player else None, "from": before,
                           "reason": reason.strip()[:200], "by": by})
        notifications.corrected(campaign=campaign,
                                player_ids=[p for p in (before, territory.owner_id) if p])
    return territory
