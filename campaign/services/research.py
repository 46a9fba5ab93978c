"""Research points change hands (R-BJ-13: a laboratory robbed in battle). The core owns
the players' research points; other apps ask here. Call inside a transaction."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import F

from campaign.models import Player


def transfer_research_points(*, from_player_id: int, to_player_id: int, points: int) -> int:
    """Move up to `points` from one player to another (never below zero); returns how many
    moved. Locks both players in id order (docs/ARCHITECTURE.md, "Locks"), FOR NO KEY
    UPDATE as the ledger does: a battle's recording robs a laboratory while other
    recordings' journal entries hold KEY SHARE on these players (issue 32)."""
    if points <= 0 or from_player_id == to_player_id:
        return 0
    locked = {p.pk: p for p in Player.objects.select_for_update(no_key=True)
              .filter(pk__in=[from_player_id, to_player_id]).order_by("pk")}
    moved = min(points, locked[from_player_id].research_points)
    if moved > 0:
        Player.objects.filter(pk=from_player_id).update(
            research_points=F("research_points") - moved)
        Player.objects.filter(pk=to_player_id).update(
            research_points=F("research_points") + moved)
    return moved


def laboratories_robbed(*, owner_id: int | None, sides: Mapping[str, int],
                        piracies: Iterable[Any]) -> list[dict[str, Any]]:
    """R-BJ-13, the effect `lab_piracy`: a successful piracy on a laboratory steals
    research points from the laboratory's owner (the defender, `owner_id`): as many as
    the difficulty beaten, at most what the owner has; they go to the pirate's player
    (`sides`: the battle's side -> player id)."""
    robbed: list[dict[str, Any]] = []
    for attempt in piracies:
        if not isinstance(attempt, dict) or not attempt.get("success"):
            continue
        thief = sides.get(str(attempt.get("side")))
        if thief is None or owner_id is None or thief == owner_id:
            continue
        points = transfer_research_points(from_player_id=owner_id, to_player_id=thief,
                                          points=int(attempt.get("difficulty") or 0))
        robbed.append({"laboratory": attempt.get("laboratory"), "unit": attempt.get("unit"),
                       "from": owner_id, "to": thief, "research_points": points})
    return robbed
