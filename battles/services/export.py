"""The battles' sections of a campaign's export (campaign.services.export): every battle
with its input, log and result, its participants and its record. Odds requests are each
player's private business and stay out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.models import Battle, BattleParticipant, BattleRecord
from campaign.models import Campaign
from campaign.services.export import rows


def export_sections(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    return {
        "battles": rows(Battle.objects.filter(campaign=campaign)),
        "battle_participants": rows(BattleParticipant.objects.filter(battle__campaign=campaign)),
        "battle_records": rows(BattleRecord.objects.filter(battle__campaign=campaign)),
    }


#: Where a battle's documents (its input, sides, result and log, as every ruleset writes
#: them at the seam: "identifiers at the seam are campaign ids", battles/rulesets/base.py)
#: name a seat: values under these keys...
_SEAT_VALUES = frozenset({"player", "side", "defender", "winner", "captured_by",
                          "attacker", "proposed_by"})
#: ...keys of the mappings under these (side -> units, missiles, factions, odds)...
_SEAT_KEYED = frozenset({"sides", "missiles", "factions", "wins", "lost"})
#: ...and the items of these lists (the order the sides act in).
_SEAT_LISTS = frozenset({"order"})
_DOCUMENTS = ("input", "sides", "result", "log", "proposed_result", "confirmations")


def _seat(value: Any, seats: Mapping[int, int]) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return seats.get(value, value)
    if isinstance(value, str) and value.isdigit():
        new = seats.get(int(value))
        return str(new) if new is not None else value
    return value


def _renamed(document: Any, seats: Mapping[int, int], key: str | None = None) -> Any:
    if isinstance(document, dict):
        out = {}
        for k, v in document.items():
            name = _seat(k, seats) if key in _SEAT_KEYED else k
            if k in _SEAT_VALUES and not isinstance(v, (dict, list)):
                out[name] = _seat(v, seats)
            elif k in _SEAT_LISTS and isinstance(v, list):
                out[name] = [_seat(x, seats) if not isinstance(x, (dict, list))
                             else _renamed(x, seats) for x in v]
            else:
                out[name] = _renamed(v, seats, k)
        return out
    if isinstance(document, list):
        return [_renamed(x, seats, key) for x in document]
    return document


def battle_for_copy(row: dict[str, Any], seats: Mapping[int, int]) -> dict[str, Any]:
    """An imported battle's documents naming the copy's seats (issue 30.2): its winner is
    the new seat, so replaying its stored input with the revealed seed (`verify_dice`)
    must field the new seats too, and its stored log say so. Units and buildings keep
    the ids the engine saw, in the input and the log alike."""
    return {k: (_renamed(v, seats) if k in _DOCUMENTS else v) for k, v in row.items()}
