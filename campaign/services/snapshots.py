"""Per-player counts at the end of each strategic turn, for the history charts.

`snapshot_turn` is a clock hook on leaving the tactical phase (registered in
`campaign.services.clock` hooks): by then every battle of the turn is recorded,
so the counts are the turn's outcome. It writes one row per player and is idempotent
(a second call for the same turn changes nothing). `current_counts` computes the same
numbers live for the turn in progress. Both cost a fixed number of queries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from campaign.models import Campaign, Player, TurnSnapshot


@dataclass(frozen=True)
class Counts:
    player: int
    territories: int
    credits: int
    units: int
    research_points: int


#: name -> function (campaign) -> {player id: count}. The apps that own the counted rows
#: register theirs in ready() (territories: "territories"; economy: "units"), so the core
#: imports neither.
Counter = Callable[[Campaign], dict[int, int]]
_counters: dict[str, Counter] = {}


def register_counter(name: str, counter: Counter) -> None:
    if name not in ("territories", "units"):
        raise ValueError(f"no snapshot count called {name!r}")
    _counters[name] = counter


def _count(name: str, campaign: Campaign) -> dict[int, int]:
    counter = _counters.get(name)
    return counter(campaign) if counter is not None else {}


def current_counts(*, campaign: Campaign) -> list[Counts]:
    """Each player's territories, credits, units (not destroyed) and research points now."""
    held = _count("territories", campaign)
    units = _count("units", campaign)
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
