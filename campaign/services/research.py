"""Research points change hands (R-BJ-13: a laboratory robbed in battle). The core owns
the players' research points; other apps ask here. Call inside a transaction."""

from __future__ import annotations

from django.db.models import F

from campaign.models import Player


def transfer_research_points(*, from_player_id: int, to_player_id: int, points: int) -> int:
    """Move up to `points` from one player to another (never below zero); returns how many
    moved. Locks both players in id order (docs/ARCHITECTURE.md, "Locks")."""
    if points <= 0 or from_player_id == to_player_id:
        return 0
    locked = {p.pk: p for p in Player.objects.select_for_update()
              .filter(pk__in=[from_player_id, to_player_id]).order_by("pk")}
    moved = min(points, locked[from_player_id].research_points)
    if moved > 0:
        Player.objects.filter(pk=from_player_id).update(
            research_points=F("research_points") - moved)
        Player.objects.filter(pk=to_player_id).update(
            research_points=F("research_points") + moved)
    return moved
