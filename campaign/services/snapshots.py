"""Per-player counts at the end of each strategic turn, for the history charts.

`snapshot_turn` is a clock hook on leaving the tactical phase (registered in
`campaign.services.clock` hooks): by then every battle of the turn is recorded,
so the counts are the turn's outcome. It writes one row per player and is idempotent
(a second call for the same turn changes nothing). `current_counts` computes the same
numbers live for the turn in progress. Both cost a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.hooks import Hook
from campaign.models import Campaign, Player, TurnSnapshot


@dataclass(frozen=True)
class Counts:
    player: int
    territories: int
    credits: int
    units: int
    research_points: int


territories_counted: Hook[[Campaign], dict[int, int]] = Hook("territories_counted", """
How many territories each player holds.

Called by `campaign.services.snapshots.current_counts` (the history charts; the turn's
snapshot, a clock hook) with the campaign; a receiver returns {player id: territories}
(territories: the territories held), in a fixed number of queries. Counts add up.""")

units_counted: Hook[[Campaign], dict[int, int]] = Hook("units_counted", """
How many units each player has (not destroyed).

Called by `campaign.services.snapshots.current_counts` with the campaign; a receiver
returns {player id: units} (economy: the units standing), in a fixed number of queries.
Counts add up.""")


def _count(hook: Hook[[Campaign], dict[int, int]], campaign: Campaign) -> dict[int, int]:
    total: dict[int, int] = {}
    for counted in hook.call(campaign):
        for player, n in counted.items():
            total[player] = total.get(player, 0) + n
    return total


def current_counts(*, campaign: Campaign) -> list[Counts]:
    """Each player's territories, credits, units (not destroyed) and research points now."""
    held = _count(territories_counted, campaign)
    units = _count(units_counted, campaign)
    return [Counts(player=pk, territories=held.get(pk, 0), credits=credits,
                   units=units.get(pk, 0), research_points=rp)
            for pk, credits, rp in Player.objects.filter(campaign=campaign)
            .order_by("pk").values_list("pk", "credits", "research_points")]


def snapshot_turn(*, campaign: Campaign) -> None:
    """Record the end of `campaign.turn` (clock hook, inside the advancing transaction)."""
    TurnSnapshot.objects.bulk_create(
        [TurnSnapshot(campaign=campaign, turn=campaign.turn, player_id=c.player,
                      territories=c.territories, credits=c.credits, units=c.units,
                      research_points=c.research_points)
         for c in current_counts(campaign=campaign)],
        ignore_conflicts=True)
