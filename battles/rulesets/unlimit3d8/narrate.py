"""An Unlimit3d 8 battle log read by a person (issue 26): each entry one sentence that
says whose unit acts ("ben's Golem fires its Light cannon at alice's Spider"), with the
raw dice and the test's arithmetic kept apart for a reader who unfolds them.

Pure Python behind the ruleset seam (`Unlimit3d8.narrate`): the page hands in the names
players know (`names["unit"]`, `names["side"]`, `names["building"]`, keyed by the log's
ids as strings); an id it cannot name is "a unit", never the number.
The events and their fields are the engine's (`engine/*`, `state.record` and
`actions/attack.skill_test`); the rules they follow are cited there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from campaign.rules import tables as T

Names = Mapping[str, Mapping[str, str]]

#: what a skill test was for, in words (`skill_test(purpose=...)`)
PURPOSES = {"ranged": "a shot", "assault": "an assault shot", "close_combat": "a blow",
            "ram": "ramming", "tackle": "a tackle", "warp": "a warp jump",
            "repair": "a repair", "piracy": "piracy", "designation": "a designation",
            "blast": "the blast"}
#: what dealt damage (`deal_damage(source=...)`), when it is not a weapon's key
SOURCES = {"combustion": "the fire", "missile": "a missile", "ram": "the ramming",
           "ram_backlash": "ramming's backlash", "tackle": "the tackle",
           "warp_blastwave": "a warp blast wave"}
END_REASONS = {"side_eliminated": "one side is left on the field",
               "stalemate": "a stalemate", "turn_limit": "the turn limit",
               "round_limit": "the round limit", "withdrawal": "a withdrawal"}


class _Reader:
    def __init__(self, entry: Mapping[str, Any], names: Names) -> None:
        self.entry = entry
        self.names = names

    def name(self, table: str, value: Any, unknown: str) -> str:
        if value is None:
            return unknown
        return str((self.names.get(table) or {}).get(str(value)) or unknown)

    def unit(self, key: str = "unit") -> str:
        value = self.entry.get(key)
        found = self.name("unit", value, "")
        return found or self.name("building", value, "a unit")

    def side(self, key: str = "side") -> str:
        return self.name("side", self.entry.get(key), "a side")

    def building(self, key: str = "building") -> str:
        return self.name("building", self.entry.get(key), "a building")

    def weapon(self, key: str = "weapon") -> str:
        value = self.entry.get(key)
        spec = T.WEAPONS.get(str(value))
        return spec.name if spec is not None else str(value or "weapon").replace("_", " ")

    def number(self, key: str) -> str:
        value = self.entry.get(key)
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value if value is not None else "")

    def at(self, key: str = "to") -> str:
        value = self.entry.get(key)
        if isinstance(value, list | tuple) and len(value) == 2:
            return "(" + ", ".join(_num(v) for v in value) + ")"
        return "somewhere"


def _num(value: Any) -> str:
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.1f}"
    return str(value)


def _cooldown(r: _Reader) -> str:
    cdt = r.entry.get("cdt")
    return f" (cool-down {cdt})" if isinstance(cdt, int) and cdt else ""


def _roll(r: _Reader) -> str:
    purpose = str(r.entry.get("purpose", ""))
    what = PURPOSES.get(purpose) or (
        f"a {purpose.split(':', 1)[1].replace('_', ' ')} order" if purpose.startswith("order:")
        else purpose.replace("_", " ") or "a test")
    verdict = "succeeds" if r.entry.get("success") else "fails"
    against = f" against {r.unit('target')}" if r.entry.get("target") is not None else ""
    effects = [e.replace("_", " ") for e in r.entry.get("effects") or []
               if isinstance(e, str) and e != "hit"]
    more = f": {', '.join(effects)}" if effects else ""
    return f"{r.unit('actor')}'s {r.entry.get('skill', 'skill')} test for {what}" \
           f"{against} {verdict}{more}."


def _damage(r: _Reader) -> str:
    whom = r.unit("target") if r.entry.get("target") is not None else r.building()
    source = str(r.entry.get("source") or "")
    key, _, barricade = source.partition(":")
    spec = T.WEAPONS.get(key)
    words = SOURCES.get(source) or (f"the {spec.name}" if spec is not None
                                    else source.replace("_", " "))
    by = f" from {words}{' through a barricade' if barricade else ''}" if source else ""
    lost = r.number("lost")
    end = " and is destroyed" if r.entry.get("destroyed") else \
        f" ({r.number('hp_left')} hit points left)"
    return f"{whom} takes {lost} damage{by}{end}."


SENTENCES: dict[str, Callable[[_Reader], str]] = {
    "deploy": lambda r: "The forces deploy on the battlefield.",
    "action": lambda r: "",  # the action's own entry follows and says it
    "pass": lambda r: f"{r.side()} passes.",
    "move": lambda r: f"{r.unit()} moves {r.number('distance')}\" to {r.at()}"
                      f"{_cooldown(r)}.",
    "warp": lambda r: f"{r.unit()} warps {r.number('distance')}\" to {r.at()}.",
    "ranged_attack": lambda r: f"{r.unit()} fires its {r.weapon()} at {r.unit('target')}"
                               f"{_cooldown(r)}.",
    "assault": lambda r: f"{r.unit()} charges to {r.at()} and fires its {r.weapon()} at "
                         f"{r.unit('target')}.",
    "close_combat": lambda r: f"{r.unit()} strikes {r.unit('target')} with its "
                              f"{r.weapon()}.",
    "ram": lambda r: f"{r.unit()} rams {r.unit('target')}.",
    "tackle": lambda r: f"{r.unit()} tackles {r.unit('target')}"
                        + (" hard." if r.entry.get("aggressive") else "."),
    "turret_fire": lambda r: f"{r.unit('turret')} fires its {r.weapon()} at "
                             f"{r.unit('target')}.",
    "blocked": lambda r: f"A force field stops {r.unit('actor')}'s {r.weapon()} before it "
                         f"reaches {r.unit('target')}.",
    "roll": _roll,
    "damage": _damage,
    "retreat": lambda r: f"{r.unit()} retreats from the battlefield.",
    "plan_withdraw": lambda r: (f"{r.side()} withdraws as planned"
                                + ("." if r.entry.get("stance") == "withdraw" else
                                   f", having lost {r.entry.get('lost')}% of its strength.")),
    "withdraw": lambda r: f"{r.unit()} withdraws"
                          + (f" ({str(r.entry['reason']).replace('_', ' ')})."
                             if r.entry.get("reason") else "."),
    "order": lambda r: f"{r.unit()} gives a {str(r.entry.get('kind', '')).replace('_', ' ')} "
                       f"order.",
    "order_void": lambda r: f"An order to {r.unit()} comes to nothing.",
    "lift": lambda r: f"{r.unit()} lifts {r.unit('cargo')} into {r.unit('into')}.",
    "enter_bunker": lambda r: f"{r.unit()} takes shelter in {r.unit('bunker')}.",
    "leave_bunker": lambda r: f"{r.unit()} leaves {r.unit('bunker')}.",
    "repair": lambda r: f"{r.unit()} repairs {r.unit('target')}.",
    "designate": lambda r: f"{r.unit()} designates {r.unit('target')} for a missile.",
    "missile_strike": lambda r: f"{r.side()}'s missile strikes near {r.unit('target')}"
                                + (", but is blocked." if r.entry.get("blocked") else "."),
    "piracy": lambda r: f"{r.unit()} hacks into {r.unit('target')}.",
    "combustion": lambda r: f"{r.unit()} burns.",
    "combustion_out": lambda r: f"The fire on {r.unit()} goes out.",
    "cargo_lost": lambda r: f"Cargo is lost with {r.unit('lorry')}.",
    "cargo_dropped": lambda r: f"{r.unit()} drops its cargo at {r.at('at')}.",
    "force_field_down": lambda r: f"{r.building()}'s force field goes down.",
    "unsheltered": lambda r: f"{r.unit()} loses its shelter in {r.unit('bunker')}.",
    "stalemate": lambda r: f"Stalemate after {r.number('rounds')} quiet rounds: the "
                           "attackers withdraw and the defender holds.",
    "end": lambda r: (f"The battle ends: {r.side('winner')} wins"
                      if r.entry.get("winner") is not None else
                      "The battle ends with no winner")
                     + f" ({END_REASONS.get(str(r.entry.get('reason')), 'the end')}).",
}


def dice_detail(entry: Mapping[str, Any]) -> str:
    """The raw dice and the test's arithmetic, for a reader who unfolds them."""
    dice = entry.get("dice")
    if isinstance(dice, dict):
        faces = ", ".join(f"{k} die {v}" for k, v in dice.items() if k != "total")
        parts = [f"Dice {faces}, total {dice.get('total')}"]
        if entry.get("skill_value") is not None:
            parts.append(f"{entry.get('skill', 'skill')} skill {entry['skill_value']}")
        if entry.get("score") is not None:
            parts.append(f"score {entry['score']} against difficulty "
                         f"{entry.get('difficulty')}")
        return "; ".join(parts) + "."
    if entry.get("event") == "damage":
        return (f"{entry.get('raw')} raw damage less {entry.get('armor')} armour"
                + (f" and {entry.get('shield_absorbed')} taken by the shield"
                   if entry.get("shield_absorbed") else "") + ".")
    return ""


def narrate(entry: Mapping[str, Any], names: Names) -> dict[str, str]:
    """{"text": one sentence, "dice": the folded detail ("" when none)}. An entry of an
    unknown kind reads as its kind and actor, never as its fields."""
    event = str(entry.get("event", ""))
    reader = _Reader(entry, names)
    write = SENTENCES.get(event)
    if write is None:
        who = reader.unit() if entry.get("unit") is not None else ""
        text = f"{who}: {event.replace('_', ' ')}." if who else \
            f"{event.replace('_', ' ').capitalize()}."
    else:
        text = write(reader)
    return {"text": text, "dice": dice_detail(entry)}
