"""A territory changing hands: its owner (territories), the turrets' weapons that go
with the buildings (economy, R-ECO-17) and the public journal entry. Used by the move
phase's takes (`opening.take_territory`) and by a battle's recording, which writes the
entry with the rest of its journal."""

from __future__ import annotations

from typing import Any

from campaign.models import Player
from campaign.services.journal import Entry
from economy.services.battle_effects import turrets_change_hands
from territories.services.exploration import change_owner


def taking(*, territory: Any, player: Player, reason: str,
           journal: list[Entry] | None = None) -> tuple[Any, Entry]:
    """The rows of one take (`take_territory`): the owner changed (and the exploration
    of a never-owned territory made), the turrets' weapons handed over; returns the
    exploration made now (or None) and the journal entry, for the caller to write (a
    battle's recording writes it with the rest of its journal, where it also passes
    `journal` for the exploration's entry, which comes first)."""
    previous = territory.owner_id
    explored_now = not territory.ever_owned
    exploration = change_owner(territory=territory, player=player, journal=journal)
    turrets_change_hands(territory_id=territory.pk, player_id=player.pk)
    return exploration, taken_entry(territory, player, previous, explored_now, reason)


def taken_entry(territory: Any, player: Player, previous: int | None, explored: bool,
                reason: str) -> Entry:
    """The public journal entry of a take."""
    return Entry(kind="territory_taken", data={
        "territory": territory.pk, "name": territory.name, "player": player.pk,
        "previous_owner": previous, "explored": explored, "reason": reason})
