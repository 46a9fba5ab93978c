"""Checks shared by the economy services: phase, ownership and visibility.

API.md: 404 for anything the caller may not see, 403 for something visible that the
caller may not act on, 409 for the wrong phase. Territories are visible to every
member of the campaign (the meta-map is public); buildings, units, weapons, stock and
operatives of another player are not.
"""

from __future__ import annotations

from campaign.errors import Conflict, Forbidden, InvalidInput, NotFound, WrongPhase
from campaign.models import Campaign, Player
from territories.models import Territory


def require_running(campaign: Campaign) -> None:
    if campaign.status != Campaign.Status.RUNNING:
        raise Conflict("The campaign is not running.", code="not_running")


def require_phase(campaign: Campaign, *phases: str) -> None:
    """409 wrong_phase unless the running campaign is in one of `phases`."""
    require_running(campaign)
    if campaign.phase not in phases:
        wanted = " or ".join(phases)
        raise WrongPhase(f"This can only be done in the {wanted} phase; the campaign is in "
                         f"the {campaign.phase} phase.")


def as_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InvalidInput(f"{what} must be an id.", fields={what: ["Must be an integer id."]})
    try:
        return int(value)
    except ValueError:
        raise InvalidInput(f"{what} must be an id.",
                           fields={what: ["Must be an integer id."]}) from None


def own_territory(*, player: Player, territory_id: object, for_update: bool = False
                  ) -> Territory:
    """The player's territory: 404 if not in the campaign, 403 if someone else's."""
    pk = as_id(territory_id, "territory")
    qs = Territory.objects.filter(campaign_id=player.campaign_id, pk=pk)
    if for_update:
        # Global lock order (campaign.services.locking): the player before the territory,
        # as every ledger change and trade settlement takes them.
        list(Player.objects.select_for_update().filter(pk=player.pk).values_list("pk"))
        qs = qs.select_for_update()
    territory = qs.first()
    if territory is None:
        raise NotFound("No such territory in this campaign.")
    if territory.owner_id != player.pk:
        raise Forbidden(f"{territory.name} is not your territory.", code="not_your_territory")
    return territory
