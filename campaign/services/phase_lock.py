"""The campaign row locked for a move-phase write, refused outside its phase.

Sealed orders (the `orders` app) and the move-phase equipment exchange (the economy's)
check the phase under the campaign row's lock, so neither can interleave with an advance
(docs/ARCHITECTURE.md, "Locks")."""

from __future__ import annotations

from campaign import sql
from campaign.errors import WrongPhase
from campaign.models import Campaign, Player


def lock_campaign_in_phase(campaign_id: int, phase: str, what: str) -> Campaign:
    """The campaign row locked (`FOR UPDATE`), refused unless it is running in `phase`."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    require_phase(campaign, phase, what)
    return campaign


def share_lock_in_phase(player: Player, phase: str, what: str) -> Campaign:
    """The player's campaign with its row share-locked (`FOR SHARE`): players' orders do
    not queue behind each other, but the advance's exclusive lock waits for every order
    in flight, and they for it (ARCHITECTURE.md, "Locks"). Refused unless it is running
    in `phase`. The campaign the player was read with (`access.seat`) is reused: only
    what an advance changes (status, phase, turn) is read again, under the lock, in one
    short statement (`campaign.sql`)."""
    campaign = player.campaign
    row = sql.fetch_one(f"SELECT status, phase, turn FROM {sql.table(Campaign)} "
                        f"WHERE id = %s{sql.lock_clause(shared=True)}", [campaign.pk])
    if row is None:
        raise Campaign.DoesNotExist(f"Campaign {campaign.pk} does not exist")
    campaign.status, campaign.phase, campaign.turn = row
    require_phase(campaign, phase, what)
    return campaign


def require_phase(campaign: Campaign, phase: str, what: str) -> None:
    """Refused (409 `wrong_phase`) unless the campaign is running in `phase`."""
    if campaign.status != Campaign.Status.RUNNING or campaign.phase != phase:
        now = f"in the {campaign.phase} phase" if campaign.phase else campaign.status
        raise WrongPhase(f"{what} only in the {phase} phase; the campaign is {now}.")
