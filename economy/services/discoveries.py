"""What an exploration's discovery gives the economy (seed, discovery table): an
artifact becomes an `Artifact` row to be sold or housed later (R-ECO-19), credits found
go through the ledger. Connected to the territories app's `discoveries_made` in
`economy/connections.py`; the exploration calls it inside the exploring transaction."""

from __future__ import annotations

from campaign.models import Campaign, Player
from economy.models import Artifact
from economy.services.ledger import CreditBook
from territories.models import Exploration, Territory


def discoveries_found(campaign: Campaign,
                      made: list[tuple[Territory, Player, Exploration]]) -> None:
    """Artifacts and credits of the explorations `made` ((territory, player, exploration),
    in the order rolled): a fixed number of queries however many. Locks the players who
    are paid (by id, FOR NO KEY UPDATE) and keeps their in-memory balance up to date."""
    artifacts = [Artifact(campaign=campaign, exploration=e, territory=t)
                 for t, _, e in made if e.discovery == "artifact"]
    if artifacts:
        Artifact.objects.bulk_create(artifacts)
    paid = sorted({p.pk for _, p, e in made if e.credits_awarded})
    if not paid:
        return
    # FOR NO KEY UPDATE, as the ledger locks a balance (`ledger.lock_player`): FOR UPDATE
    # conflicts with the KEY SHARE lock a foreign key to the player takes, and two battle
    # recordings of one campaign, each holding KEY SHARE on the other's winner through
    # their journal's viewers, deadlocked here (issue 32).
    players = list(Player.objects.select_for_update(no_key=True).filter(pk__in=paid)
                   .order_by("pk"))
    book = CreditBook(players, turn=campaign.turn, phase=campaign.phase)
    for territory, player, e in made:
        if e.credits_awarded:
            book.credit(player_id=player.pk, amount=e.credits_awarded, reason="discovery",
                        detail=f"{e.discovery} on {territory.name}",
                        related_kind="exploration", related_id=e.pk)
    book.flush()
    for _, player, _ in made:
        if player.pk in book.players:
            player.credits = book.players[player.pk].credits
