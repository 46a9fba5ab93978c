"""Human words for the journal (issue 16): a label for every kind of entry, and a
sentence for the entries people read most, with the names a player knows instead of ids.
One table, read by the history page (and anything else that shows the journal)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LABELS: dict[str, str] = {
    "artifact_housed": "Artifact housed", "artifact_sold": "Artifact sold",
    "battle_opened": "Battle begins", "battle_order": "Order of battles",
    "battle_quarantined": "Battle set aside", "battle_result": "Battle result",
    "battle_retried": "Battle retried", "building_bought": "Building bought",
    "building_upgraded": "Building upgraded", "buildings_activated": "Buildings activated",
    "campaign_created": "Campaign created", "campaign_started": "Campaign started",
    "campaign_rolled_back": "Rolled back",
    "clock_paused": "Clock paused", "clock_resumed": "Clock resumed",
    "deadline_set": "Deadline set", "dice_committed": "Dice committed",
    "dice_revealed": "Dice revealed", "equipment_exchanged": "Equipment exchanged",
    "factory_product_set": "Factory product chosen", "missed_turns": "Missed turns",
    "moves_carried_out": "Moves carried out", "moves_revealed": "Moves revealed",
    "ownership_corrected": "Ownership corrected",
    "passage_granted": "Passage granted", "passage_revoked": "Passage revoked",
    "phase_opened": "Phase opens", "player_joined": "Player joined",
    "seat_claimed": "Seat claimed",
    "player_approved": "Seat approved",
    "player_ready": "Player ready", "player_removed": "Player removed",
    "production": "Production", "purchase": "Purchase",
    "repair": "Repair", "sandbox_created": "Sandbox made",
    "seat_handed_over": "Seat handed over",
    "settings_changed": "Settings changed", "shipment": "Shipment",
    "tabletop_result_confirmed": "Table result confirmed",
    "tabletop_result_entered": "Table result entered", "territory_explored": "Exploration",
    "territory_taken": "Territory taken", "trade_accepted": "Trade accepted",
    "trade_offered": "Trade offered", "trade_declined": "Trade declined",
    "trade_cancelled": "Trade cancelled", "turret_fitted": "Turret armed",
    "umpire_correction": "Umpire's correction", "unit_changed": "Unit changed",
    "xp_awarded": "Experience",
}

PHASE_WORDS = {"setup": "set-up", "commercial": "commercial phase",
               "activity": "activity phase", "move": "move phase",
               "tactical": "tactical phase", "": "set-up"}


def label(kind: str) -> str:
    return LABELS.get(kind, kind.replace("_", " ").capitalize())


def sentence(kind: str, data: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One sentence for an entry a person reads often; "" when none is written (the
    page then lists the entry's plain fields)."""
    def who(key: str) -> str:
        value = data.get(key)
        return names.get(value, f"player {value}") if isinstance(value, int) else "nobody"

    where = data.get("name") or (f"territory {data['territory']}" if "territory" in data
                                 else "")
    if kind == "phase_opened":
        phase = PHASE_WORDS.get(str(data.get("phase")), str(data.get("phase")))
        return f"Turn {data.get('turn')}: the {phase} opens."
    if kind == "player_joined":
        faction = f" as {data['faction']}" if data.get("faction") else ""
        return f"{data.get('username')} takes a seat{faction}."
    if kind == "seat_claimed":
        return f"{data.get('username')} takes {data.get('seat')}'s imported seat."
    if kind == "territory_taken":
        how = "after a battle" if data.get("reason") == "battle" else "unopposed"
        return f"{who('player')} takes {where} ({how})."
    if kind == "battle_opened":
        return f"Battle of {where}: {who('defender')} defends."
    if kind == "battle_result":
        if data.get("winner") is None:
            return f"Battle of {where}: nobody holds the field."
        took = ", and takes it" if data.get("owner_changed") else ""
        return f"Battle of {where}: {who('winner')} wins{took}."
    if kind == "dice_committed":
        return (f"The dice of turn {data.get('turn')}, "
                f"{PHASE_WORDS.get(str(data.get('phase')), data.get('phase'))}, are "
                f"committed: SHA-256 {str(data.get('commitment', ''))[:16]}…")
    if kind == "dice_revealed":
        return (f"The seed of turn {data.get('turn')}, "
                f"{PHASE_WORDS.get(str(data.get('phase')), data.get('phase'))}, is revealed.")
    if kind in ("trade_offered", "trade_accepted", "trade_declined", "trade_cancelled"):
        verb = kind.removeprefix("trade_")
        return f"Trade between {who('from_player')} and {who('to_player')}: {verb}."
    return ""
