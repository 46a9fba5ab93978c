"""Per-campaign settings: where umpires may reasonably rule differently.

Each option names the ruling it implements (see docs/RULINGS.md). A campaign stores
only the values it changes; `CampaignOptions` merges them over the defaults and
validates input, so an unknown key or a wrong type is refused with a clear 400.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from campaign.rulesets import DEFAULT as DEFAULT_RULESET
from campaign.rulesets import check_name as check_ruleset
from campaign.rulesets import check_ruleset_options
from campaign.webhooks import validate_webhook_url


@dataclass(frozen=True)
class Option:
    key: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    ruling: str | None = None
    validator: Callable[[Any], None] | None = None
    #: What the umpire's settings form calls it (default: the key in words).
    label: str | None = None
    #: The heading it stands under in the settings form (set by `_in_group`).
    group: str = ""

    def clean(self, value: Any) -> Any:
        expected = type(self.default)
        if expected is bool:
            if not isinstance(value, bool):
                raise ValueError(f"'{self.key}' must be true or false.")
        elif expected is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"'{self.key}' must be a whole number.")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"'{self.key}' must be at least {self.minimum}.")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"'{self.key}' must be at most {self.maximum}.")
        elif expected is str and not isinstance(value, str):
            raise ValueError(f"'{self.key}' must be a string.")
        elif expected is dict and not isinstance(value, dict):
            raise ValueError(f"'{self.key}' must be an object.")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise ValueError(f"'{self.key}' must be one of {allowed}.")
        if self.validator is not None:
            self.validator(value)
        return value


_HOUR = 3600


def _in_group(title: str, options: list[Option]) -> list[Option]:
    return [replace(o, group=title) for o in options]


def _check_local_time(value: str) -> None:
    if value == "":
        return
    hour, _, minute = value.partition(":")
    if not (len(value) == 5 and hour.isdigit() and minute.isdigit()
            and int(hour) < 24 and int(minute) < 60):
        raise ValueError("'deadline_time' must be a time of day like 20:00 (or empty).")


def _check_time_zone(value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"'deadline_time_zone' must be a time zone name like "
                         f"Europe/Paris, not {value[:64]!r}.") from None


OPTIONS: dict[str, Option] = {
    o.key: o
    for o in [*_in_group("The tactical ruleset", [
        # --- the tactical ruleset (API.md, "Rulesets") ---
        Option("ruleset", DEFAULT_RULESET, "The tactical ruleset battles are fought with: "
               "chosen when the campaign is created, fixed once it starts.",
               validator=check_ruleset),
        Option("ruleset_options", {}, "The tactical ruleset's own settings (name -> value; "
               "GET /api/rules/?ruleset=NAME lists them under \"options\" with their "
               "defaults).", validator=check_ruleset_options),
        ]), *_in_group("Clock and deadlines", [
        # --- clock and deadlines (campaign/services/clock.py) ---
        Option("commercial_seconds", 48 * _HOUR, "Default length of the commercial phase "
               "(0: no deadline).", minimum=0, maximum=60 * 24 * _HOUR,
               label="Commercial phase length"),
        Option("activity_seconds", 24 * _HOUR, "Default length of the activity phase "
               "(0: no deadline).", minimum=0, maximum=60 * 24 * _HOUR,
               label="Activity phase length"),
        Option("move_seconds", 48 * _HOUR, "Default length of the move phase "
               "(0: no deadline).", minimum=0, maximum=60 * 24 * _HOUR,
               label="Move phase length"),
        Option("tactical_seconds", 0, "Default length of the tactical phase "
               "(0: the umpire advances once battles are done).", minimum=0,
               maximum=60 * 24 * _HOUR,
               label="Tactical phase length"),
        Option("deadline_time", "", "A local hour every phase's deadline is moved to "
               "(\"20:00\": a phase ends at the first 20:00 after its length has run); "
               "empty: the deadline is the phase's length from its opening.",
               ruling="R-ORD-12", validator=_check_local_time,
               label="Deadlines at this local hour"),
        Option("deadline_time_zone", "UTC", "The time zone of `deadline_time` (an IANA "
               "name such as Europe/Paris); deadlines stay at that local hour across "
               "daylight saving changes.", ruling="R-ORD-12", validator=_check_time_zone,
               label="Time zone of that hour"),
        Option("advance_when_all_ready", True, "Advance early when every player has "
               "marked ready."),
        Option("reminder_seconds", 6 * _HOUR, "Remind players who are not ready this long "
               "before a deadline.", minimum=0, maximum=7 * 24 * _HOUR,
               label="Reminder before a deadline"),
        Option("away_days", 14, "Days of declared absence each seat may use in this "
               "campaign; the stand-in plays the seat while its player is away.",
               minimum=0, maximum=365, ruling="R-AWAY-1"),
        Option("stand_in_after", 2, "Missed deadlines in a row after which the stand-in "
               "plays the seat until its player acts again (0: never).",
               minimum=0, maximum=100, ruling="R-AWAY-2"),
        Option("min_deadline_record", 0, "Share of deadlines (in percent) a player must "
               "have met in their other campaigns to take a seat here (0: anyone; a "
               "player without a record may always join).",
               minimum=0, maximum=100, ruling="R-AWAY-3"),
        Option("missed_turns_alert", 2, "Alert the umpire after this many missed turns "
               "in a row.", minimum=1, maximum=100),
        ]), *_in_group("Players, privacy and notices", [
        Option("umpire_sees_orders", False, "The umpire may read sealed orders before the "
               "reveal (never when the umpire also plays)."),
        Option("playing_umpire_sees_private", False, "An umpire who also plays may read "
               "other players' trades, grants of passage and private journal entries.",
               ruling="R-ORD-10"),
        Option("webhook_url", "", "Optional URL that receives a JSON POST on phase "
               "changes and results (public http(s) addresses only).",
               validator=validate_webhook_url),
        Option("invite_only", True, "Players join only with the campaign's invite code (the "
               "umpire's invitation link carries it); off, anyone signed in may take a "
               "seat during set-up."),
        Option("approve_joins", False, "The umpire approves each seat taken before the "
               "campaign can start (issue 17); a refused seat is removed.",
               label="Approve each seat taken"),
        Option("public", False, "A public league: anyone, signed in or not, reads the map, "
               "the finished battles and their reports (never orders, private journal "
               "entries, deposits or credits).", label="Public league"),
        ]), *_in_group("Map and exploration", [
        # --- map and exploration ---
        Option("deposits_public", False, "Players may see the deposits of territories "
               "they do not own.", ruling="R-MAP-7"),
        Option("station_needed_to_pass", True, "On: units travel through a territory of "
               "theirs (or one they have passage over) only if a station stands there "
               "(the Station: \"allows your units to travel through it\"); without one it "
               "can only be a destination. Off: the Move Phase sentence read plainly, \"any "
               "territory you control, or any territory adjacent to a territory you "
               "control\", through any territory you control, station or not.",
               ruling="R-MAP-9"),
        Option("shipping_allowance", "player", "Five containers per commercial turn for "
               "each landing pad: pooled over every operating pad the player owns, or "
               "per territory (only the pads where the shipment leaves).",
               choices=("player", "territory"), ruling="R-ECO-11"),
        ]), *_in_group("Battles", [
        # --- battles ---
        Option("battle_mode", "engine", "Resolve battles with the rules engine, or enter "
               "results played on the table.", choices=("engine", "tabletop")),
        Option("battle_max_rounds", 200, "Rounds after which a battle ends and the "
               "defender holds.", minimum=10, maximum=1000, ruling="R-BAT-3"),
        Option("battle_stalemate_rounds", 6, "Quiet rounds (nobody hurt, nobody closer) "
               "after which the attackers withdraw (0: never).", minimum=0, maximum=200,
               ruling="R-BAT-32"),
        Option("battle_first_player", "initiative", "Who plays first in a battle: the "
               "best Init (ties to the defender), the defender or the attacker.",
               choices=("initiative", "defender", "attacker"), ruling="R-BAT-4"),
        Option("battle_force_field_projectile", "refused", "A missile or grenade aimed "
               "into another force field: refused before it is fired (no dice, no CDT), "
               "or fired and wasted at the field (CDT taken).",
               choices=("refused", "wasted"), ruling="R-BAT-11"),
        Option("battle_max_attempts", 3, "Attempts before a failing battle job is "
               "quarantined.", minimum=1, maximum=10),
        Option("command_center_reinforcements", "adjacent", "An active command center "
               "brings the owner's units from adjacent territories it holds into a battle "
               "on its territory (\"adjacent\"), or never (\"off\").",
               choices=("adjacent", "off"), ruling="R-BJ-3"),
        Option("pilot_of_destroyed_unit", "survives", "The pilot of a destroyed unit "
               "ejects and survives (without the survival XP), or dies with it.",
               choices=("survives", "dies"), ruling="R-BJ-6"),
        Option("odds_max_simulations", 1000, "Most simulations one odds request may ask "
               "for.", minimum=10, maximum=10000),
        ]), *_in_group("Table readings", [
        # --- table readings ---
        Option("bandit_level8_row", "corrected", "Level-8 Bandit skills: the corrected "
               "progression, or the row as printed (17 13 1 1 5).",
               choices=("corrected", "as_printed"), ruling="R-TAB-1"),
        Option("xp_table_reading", "to_next_level", "How the XP table reads: the XP under "
               "a level is what it takes to leave it (5 XP makes level 2, 35 level 8), or "
               "what it takes to reach it (10 XP level 2, 40 level 8).",
               choices=("to_next_level", "to_reach_level"), ruling="R-TAB-2"),
    ])]
}


class CampaignOptions:
    """Read access to a campaign's options with defaults filled in."""

    def __init__(self, stored: dict[str, Any] | None = None):
        self._stored = dict(stored or {})

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            option = OPTIONS[key]
        except KeyError as exc:
            raise AttributeError(f"no campaign option {key!r}") from exc
        return self._stored.get(key, option.default)

    def as_dict(self) -> dict[str, Any]:
        return {key: self._stored.get(key, o.default) for key, o in OPTIONS.items()}


def clean_options(data: Any) -> dict[str, Any]:
    """Validate a partial options dict; raise ValueError with a readable message."""
    if not isinstance(data, dict):
        raise ValueError("settings must be an object of option names to values.")
    cleaned: dict[str, Any] = {}
    for key, value in data.items():
        option = OPTIONS.get(key)
        if option is None:
            raise ValueError(f"unknown setting '{key}'.")
        cleaned[key] = option.clean(value)
    return cleaned
