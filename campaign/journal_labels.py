"""Human words for the journal (issues 16 and 26): a label for every kind of entry and
ONE table of sentences, kind -> what a person reads, with the names a player knows
(players, territories, units, pilots) instead of ids. Read by the history page, the
turn's Markdown, the dashboard and the mails; nothing else writes journal prose."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.hooks import Hook
from campaign.models import Event, Player

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
    "seat_handed_over": "Seat handed over", "seat_removed": "Player removed",
    "away_started": "Away", "away_ended": "Back", "stand_in_started": "Stand-in plays",
    "stand_in_ended": "Stand-in stops", "grace_granted": "Grace period",
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


# ---------------------------------------------------------------------------------------
# Names: the journal stores ids; a reader sees the names players know. The core looks up
# its players itself; the apps above it connect a lookup for what they own (territories,
# units, pilots, buildings, battles) in their connections.py, so the core imports none.
# ---------------------------------------------------------------------------------------

#: (campaign id, ids) -> {id: name}; one query per kind of thing, whatever the page.
journal_names_found: Hook[[int, set[int]], dict[int, str]] = Hook("journal_names_found", """How
an app names its things in the journal.

Called by `campaign.journal_labels.journal_names` as `receiver(campaign id, ids)` for the
receiver connected under the kind of thing (`key="territory"`, a value of `KEY_KINDS`),
once per kind per page; it returns {id: name} in one query, leaving out what it cannot
find (the reader is then told `UNKNOWN`).""")

#: which data key names which kind of thing (the journal's own keys, written once)
KEY_KINDS: dict[str, str] = {
    **dict.fromkeys(("player", "winner", "defender", "attacker", "from_player", "to_player",
                     "grantor", "grantee", "first_picker", "previous_owner", "owner",
                     "owner_before", "loser"), "player"),
    **dict.fromkeys(("territory", "destination", "origin", "territories"), "territory"),
    **dict.fromkeys(("unit", "from_unit", "to_unit"), "unit"),
    **dict.fromkeys(("pilot", "operative"), "pilot"),
    **dict.fromkeys(("building", "laboratory"), "building"),
    "battle": "battle",
}
#: what a reader is told when a name cannot be found (never the id)
UNKNOWN = {"player": "a player", "territory": "a territory", "unit": "a unit",
           "pilot": "a pilot", "building": "a building", "battle": "a battle"}


@dataclass
class Names:
    """The names of everything some journal entries mention, fetched at once."""

    of: dict[str, dict[int, str]] = field(default_factory=dict)
    #: a private entry's reader: whose purchase, repair or production it was
    actors: dict[int, str] = field(default_factory=dict)

    def name(self, what: str, value: Any) -> str:
        if isinstance(value, str) and not value.isdigit():
            return value
        try:
            key = int(value)
        except (TypeError, ValueError):
            return UNKNOWN.get(what, "something")
        return self.of.get(what, {}).get(key) or UNKNOWN.get(what, "something")


def _ids(data: Any, wanted: dict[str, set[int]]) -> None:
    """Every id under a KEY_KINDS key, however deep (production lines, moves)."""
    if isinstance(data, list):
        for item in data:
            _ids(item, wanted)
        return
    if not isinstance(data, dict):
        return
    for key, value in data.items():
        what = KEY_KINDS.get(key)
        if what is not None:
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, int) and not isinstance(v, bool):
                    wanted.setdefault(what, set()).add(v)
        if isinstance(value, dict | list):
            _ids(value, wanted)


def journal_names(campaign_id: int, events: Iterable[Any]) -> Names:
    """The names the given entries mention, and the reader of each private one: a query
    per kind of thing named, whatever the number of entries."""
    events = list(events)
    wanted: dict[str, set[int]] = {}
    for e in events:
        _ids(e.data or {}, wanted)
    names = Names()
    names.of["player"] = dict(Player.objects.filter(campaign_id=campaign_id)
                              .values_list("pk", "user__username"))
    for what, ids in wanted.items():
        lookup = journal_names_found.one(what)
        if what != "player" and lookup is not None and ids:
            names.of[what] = lookup(campaign_id, ids)
    private = [e.pk for e in events if e.visibility == Event.Visibility.PRIVATE]
    if private:
        seen: dict[int, list[int]] = {}
        for event_id, player_id in Event.viewers.through.objects.filter(
                event_id__in=private).values_list("event_id", "player_id"):
            seen.setdefault(event_id, []).append(player_id)
        names.actors = {eid: names.name("player", pids[0]) for eid, pids in seen.items()
                        if len(pids) == 1}
    return names


# ---------------------------------------------------------------------------------------
# Sentences: ONE table, kind -> how a person reads it. Read by the history page, the
# turn's Markdown, the dashboard and the mails.
# ---------------------------------------------------------------------------------------


@dataclass
class Reading:
    """One entry as its sentence sees it: its fields by name, things by their names."""

    data: Mapping[str, Any]
    names: Names
    actor: str = "someone"

    def __getitem__(self, key: str) -> Any:
        return self.data.get(key)

    def who(self, key: str = "player") -> str:
        if self.data.get(key) is None:
            return self.actor if key == "player" else "nobody"
        return self.names.name("player", self.data.get(key))

    def where(self, key: str = "territory") -> str:
        value = self.data.get(key)
        if key == "territory" and (self.data.get("territory_name") or self.data.get("name")):
            return str(self.data.get("territory_name") or self.data.get("name"))
        if isinstance(value, list):
            return _and([self.names.name("territory", v) for v in value]) or "no territory"
        return self.names.name("territory", value)

    def thing(self, what: str, key: str | None = None) -> str:
        return self.names.name(what, self.data.get(key or what))

    def words(self, key: str) -> str:
        return str(self.data.get(key) or "").replace("_", " ")

    def phase(self, key: str = "phase") -> str:
        value = str(self.data.get(key) or "")
        return PHASE_WORDS.get(value, value.replace("_", " "))


def _a(thing: str) -> str:
    """ "a Golem", "an artifact"; a name stays as it is."""
    if not thing or thing[:1].isdigit():
        return thing
    return ("an " if thing[:1].lower() in "aeiou" else "a ") + thing


def _and(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _credits(value: Any) -> str:
    return f"{value} SC" if value not in (None, "") else "nothing"


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _who_did(value: Any, r: Reading) -> str:
    """`by` of an umpire's or a player's act: "the umpire", or the player's name."""
    if value in (None, "", "umpire", "system", "clock", "deadline", "all_ready"):
        return {"all_ready": "everyone being ready", "deadline": "the deadline",
                "clock": "the clock"}.get(str(value), "the umpire")
    return r.names.name("player", value) if isinstance(value, int) else str(value)


def _phase_opened(r: Reading) -> str:
    return f"Turn {r['turn']}: the {r.phase()} opens."


def _player_joined(r: Reading) -> str:
    faction = f" as {r.words('faction')}" if r["faction"] else ""
    return f"{r['username'] or r.who()} takes a seat{faction}."


def _territory_taken(r: Reading) -> str:
    how = "after a battle" if r["reason"] == "battle" else "unopposed"
    return f"{r.who()} takes {r.where()} ({how})."


def _losses(r: Reading) -> str:
    """" alice loses 2 units, bob 1." from the units' fates (issue 27: what happened)."""
    lost: dict[Any, int] = {}
    for line in r["units"] or []:
        if isinstance(line, Mapping) and line.get("player") is not None:
            lost.setdefault(line["player"], 0)
            lost[line["player"]] += line.get("fate") == "destroyed"
    if not any(lost.values()):
        return " Nobody loses a unit." if lost else ""
    losers = [(r.names.name("player", pk), n) for pk, n in lost.items() if n]
    (name, count), *rest = losers
    head = f"{name} loses {count} unit{'' if count == 1 else 's'}"
    return " " + _and([head, *(f"{who} {n}" for who, n in rest)]) + "."


def _battle_result(r: Reading) -> str:
    if r["winner"] is None:
        return f"Battle of {r.where()}: nobody holds the field." + _losses(r)
    took = ", and takes it" if r["owner_changed"] else ""
    return f"Battle of {r.where()}: {r.who('winner')} wins{took}." + _losses(r)


def _battle_order(r: Reading) -> str:
    return f"The lot is drawn: {r.who('first_picker')} picks the first battle."


def _dice(r: Reading, verb: str) -> str:
    return f"The dice of turn {r['turn']}, {r.phase()}, are {verb}."


def _trade(r: Reading, verb: str) -> str:
    if r["summary"]:  # what it carries, in words (issue 26, item 4)
        return f"A trade {verb}: {r['summary']}."
    return f"{r.who('from_player')} and {r.who('to_player')}: a trade {verb}."


def _rolled_back(r: Reading) -> str:
    who = _who_did(r["by"], r)
    who = who[:1].upper() + who[1:] if who.startswith("the ") else who
    why = f" ({r['reason']})" if isinstance(r["reason"], str) and r["reason"] else ""
    kept = [f"turn {s.get('turn')}, {PHASE_WORDS.get(str(s.get('phase')), s.get('phase'))}"
            for s in r["seeds_kept"] or [] if isinstance(s, Mapping)]
    dice = (" The dice committed since keep their seeds: " + "; ".join(kept) + "."
            if kept else "")
    return (f"{who} rolls the campaign back to the start of turn {r['to_turn']}, "
            f"{r.phase('to_phase')}{why}.{dice}")


def _away_ended(r: Reading) -> str:
    who = r["username"] or r.who()
    return {"back": f"{who} is back and plays the seat again.",
            "over": f"{who}'s absence is over.",
            "replaced": f"{who} changes the dates of their absence."}.get(
        str(r["why"]), f"{who}'s absence ends.")


def _stand_in_ended(r: Reading) -> str:
    who = r["username"] or r.who()
    return f"{who} is back: the stand-in no longer plays the seat."


def _explored(r: Reading) -> str:
    resource = r.words("resource") or "nothing worth mining"
    pure = " (a pure deposit)" if r["pure"] else ""
    found = f", and finds {_a(r.words('discovery'))}" if r["discovery"] else ""
    paid = f", worth {_credits(r['credits'])}" if r["credits"] else ""
    return f"{r.who()} explores {r.where()}: {resource}{pure}{found}{paid}."


def _purchase(r: Reading) -> str:
    item = r.words("item")
    if "(" in item:  # a pilot hired by name: "Lt. Rhea Voss (Soldier)"
        return f"{r.who()} hires {item} at {r.where()} for {_credits(r['cost'])}."
    return f"{r.who()} buys {_a(item) or 'an item'} at {r.where()} for " \
           f"{_credits(r['cost'])}."


def _xp(r: Reading) -> str:
    up = r["level_up"]
    level = f" and reaches level {up.get('to')}" if isinstance(up, dict) else ""
    where = f" in {r.thing('battle')}" if r["battle"] is not None else ""
    return f"{r.thing('pilot', 'operative')} gains {r['xp']} XP{where}{level}."


def _missed(r: Reading) -> str:
    people = [f"{m.get('username') or r.names.name('player', m.get('player'))} "
              f"({_plural(m.get('missed_turns'), 'turn')} in a row)"
              for m in r["missed"] or [] if isinstance(m, dict)]
    if not people:
        return "Every player gave orders."
    return f"No orders from {_and(people)}."


def _moves_revealed(r: Reading) -> str:
    moves = [f"{r.names.name('player', a.get('player'))} moves into "
             f"{a.get('territory_name') or r.names.name('territory', a.get('territory'))}"
             for a in r["announcements"] or [] if isinstance(a, dict)]
    return f"{_and(moves)}." if moves else "Nobody moves."


def _production(r: Reading) -> str:
    lines = [x for x in r["lines"] or [] if isinstance(x, dict)]
    if not lines:
        return f"{r.actor}'s buildings produce nothing this turn."
    said = [_production_line(x, r) for x in lines[:6]]
    more = f" And {_plural(len(lines) - 6, 'more line')}." if len(lines) > 6 else ""
    return " ".join(said) + more


def _production_line(x: Mapping[str, Any], r: Reading) -> str:
    where = r.names.name("territory", x.get("territory")) if x.get("territory") is not None \
        else "a territory"
    kind = str(x.get("kind", ""))
    if kind == "mined":
        return f"The mines of {where} yield {x.get('produced', 0)} " \
               f"{str(x.get('resource', '')).replace('_', ' ')}."
    if kind == "refined":
        units = x.get("units") or {}
        made = _and([f"{v} {str(k).replace('_', ' ')}" for k, v in units.items()]) \
            if isinstance(units, dict) else ""
        return f"A refinery at {where} makes {made or 'nothing'}."
    if kind == "factory_built":
        return f"The factory at {where} builds {x.get('product', 'its line')}."
    if kind == "factory_idle":
        return f"The factory at {where} stands idle: {x.get('reason', '')}."
    if kind == "research":
        return f"The laboratory at {where} makes {x.get('points', 0)} research points."
    if kind == "missile_built":
        return f"The silo at {where} builds a missile for {_credits(x.get('cost'))}."
    if kind == "missile_not_built":
        return f"The silo at {where} builds no missile: {x.get('reason', '')}."
    if kind == "no_room":
        return f"{x.get('name') or where} has no room left to store what it made."
    if kind == "power_failure":
        return "A power failure stops the buildings of " \
               f"{_and([r.names.name('territory', t) for t in x.get('territories') or []])}."
    if kind == "mine_no_deposit":
        return f"The mines of {where} have no deposit to dig."
    if kind == "unstable_ground_roll":
        return f"Unstable ground at {where}: the shaft {x.get('decided', 'rolls')}."
    if kind == "factory_refitted":
        return f"The factory at {where} is refitted for {x.get('product', 'a new line')}."
    return f"{kind.replace('_', ' ').capitalize()} at {where}."


def _unit_changed(r: Reading) -> str:
    said = []
    if "pilot" in r.data:
        said.append(f"{r.thing('pilot')} now pilots {r.thing('unit')}" if r["pilot"]
                    is not None else f"{r.who()} takes the pilot out of {r.thing('unit')}")
    if "weapons" in r.data:
        fitted = r["weapons"] if isinstance(r["weapons"], list) else []
        said.append(f"{r.who()} refits {r.thing('unit')} with "
                    f"{_plural(len(fitted), 'weapon')}")
    return ("; ".join(said) or f"{r.who()} changes {r.thing('unit')}") + "."


def _correction(r: Reading) -> str:
    parts = []
    if r["credits"] is not None:
        parts.append(f"credits by {r['credits']} SC")
    for what in ("unit", "pilot", "building", "weapon"):
        if r[what] is not None:
            parts.append(f"a {what}")
    return "The umpire corrects " + (_and(parts) or "what you hold") + "."


def _ownership(r: Reading) -> str:
    new = r.who() if r["player"] is not None else "nobody"
    why = f" ({r['reason']})" if r["reason"] else ""
    return f"The umpire gives {r.where()} to {new}{why}."


def _settings(r: Reading) -> str:
    changes = r["changes"] if isinstance(r["changes"], dict) else {}
    return "The umpire changes " + (_and([k.replace("_", " ") for k in sorted(changes)])
                                    or "the settings") + "."


def _clock(r: Reading, what: str) -> str:
    return f"The umpire {what}."


SENTENCES: dict[str, Callable[[Reading], str]] = {
    "artifact_housed": lambda r: f"{r.who()} houses an artifact in the laboratory at "
                                 f"{r.where()}.",
    "artifact_sold": lambda r: f"{r.who()} sells an artifact found at {r.where()} for "
                               f"{_credits(r['credits'])}.",
    "battle_opened": lambda r: f"Battle of {r.where()}: {r.who('defender')} defends.",
    "battle_order": _battle_order,
    "battle_quarantined": lambda r: f"The battle of {r.where()} is set aside after "
                                    f"{_plural(r['attempts'], 'failed attempt')}.",
    "battle_result": _battle_result,
    "battle_retried": lambda r: f"The umpire runs the battle of {r.where()} again.",
    "building_bought": lambda r: f"{r.who()} builds a {r.words('kind')} at {r.where()} "
                                 f"for {_credits(r['cost'])}.",
    "building_upgraded": lambda r: f"{r.who()} fits {r.words('upgrade')} to a building "
                                   f"for {_credits(r['cost'])}.",
    "buildings_activated": lambda r: f"{r.who()} powers "
                                     f"{_plural(len(r['active'] or []), 'building')} at "
                                     f"{r.where()}.",
    "campaign_created": lambda r: f"{r['umpire']} creates the campaign {r['name']}.",
    "campaign_started": lambda r: f"The campaign starts with {r['players']} players, "
                                  "each on a home territory.",
    "campaign_rolled_back": _rolled_back,
    "clock_paused": lambda r: _clock(r, "pauses the clock"),
    "clock_resumed": lambda r: _clock(r, "restarts the clock"),
    "deadline_set": lambda r: _clock(r, "sets the phase's deadline"),
    "grace_granted": lambda r: _clock(r, "gives everyone "
                                      + (_plural(r["hours"], "more hour")
                                         if type(r["hours"]) is int else "more time")
                                      + (f" ({r['reason']})" if isinstance(r["reason"], str)
                                         and r["reason"] else "")),
    "dice_committed": lambda r: _dice(r, "committed (kept secret until the phase ends)")
    if not r["kept"] else f"The dice of turn {r['turn']}, {r.phase()}, keep the seed "
                          "committed before the rollback (R-DICE-4).",
    "dice_revealed": lambda r: _dice(r, "revealed"),
    "equipment_exchanged": lambda r: f"{r.who()} moves a weapon from "
                                     f"{r.thing('unit', 'from_unit')} to "
                                     f"{r.thing('unit', 'to_unit')}.",
    "factory_product_set": lambda r: f"{r.who()} sets a factory to build "
                                     f"{r['refit_to'] or r['product'] or 'nothing'}.",
    "missed_turns": _missed,
    "moves_carried_out": lambda r: f"{r.who()}'s moves are carried out.",
    "moves_revealed": _moves_revealed,
    "ownership_corrected": _ownership,
    "passage_granted": lambda r: f"{r.who('grantor')} lets {r.who('grantee')} pass "
                                 f"through {r.where('territories')}.",
    "passage_revoked": lambda r: f"{r.who('grantor')} closes {r.where('territories')} "
                                 f"to {r.who('grantee')}.",
    "phase_opened": _phase_opened,
    "player_joined": _player_joined,
    "player_approved": lambda r: f"The umpire approves {r['username'] or r.who()}'s seat.",
    "player_ready": lambda r: f"{r.who()} is ready.",
    "player_removed": lambda r: f"The umpire removes {r['username'] or 'a player'}.",
    "production": _production,
    "purchase": _purchase,
    "repair": lambda r: f"{r.who()} repairs {r.thing('unit')} for {_credits(r['cost'])}.",
    "sandbox_created": lambda r: f"A sandbox copy of the campaign at turn {r['turn']}, "
                                 f"{r.phase()}.",
    "seat_claimed": lambda r: f"{r['username'] or r.who()} takes {r['seat'] or 'an'}'s "
                              "imported seat.",
    "seat_removed": lambda r: f"The umpire removes {r['username'] or 'a player'} from the "
                              "campaign; the seat keeps what it holds, unplayed, until the "
                              "umpire hands it over.",
    "away_started": lambda r: f"{r['username'] or r.who()} is away; the stand-in plays "
                              "the seat meanwhile.",
    "away_ended": _away_ended,
    "stand_in_started": lambda r: f"{r['username'] or r.who()} let "
                                  + (f"{_plural(r['missed'], 'deadline')}"
                                     if type(r["missed"]) is int else "deadlines")
                                  + " pass in a row: the stand-in plays the seat until "
                                  "they act again.",
    "stand_in_ended": _stand_in_ended,
    "seat_handed_over": lambda r: f"The umpire hands {r['from'] or 'a'}'s seat to "
                                  f"{r['to']}.",
    "settings_changed": _settings,
    "shipment": lambda r: f"{r.who()} ships goods from {r.where()} for "
                          f"{_credits(r['value'])}.",
    "tabletop_result_confirmed": lambda r: f"{_who_did(r['by'], r)} confirms the result "
                                           f"of {r.thing('battle')}.",
    "tabletop_result_entered": lambda r: f"{_who_did(r['by'], r)} enters the result of "
                                         f"{r.thing('battle')}: {r.who('winner')} wins.",
    "territory_explored": _explored,
    "territory_taken": _territory_taken,
    "trade_accepted": lambda r: _trade(r, "is agreed"),
    "trade_offered": lambda r: _trade(r, "is offered"),
    "trade_declined": lambda r: _trade(r, "is declined"),
    "trade_cancelled": lambda r: _trade(r, "is withdrawn"),
    "turret_fitted": lambda r: f"{r.who()} arms a turret with a "
                               f"{r.words('weapon') or 'new weapon'}.",
    "umpire_correction": _correction,
    "unit_changed": _unit_changed,
    "xp_awarded": _xp,
}


def sentence(kind: str, data: Mapping[str, Any], names: Names | Mapping[int, str],
             actor: str = "someone") -> str:
    """The sentence a person reads for one entry (never a `key: value` dump, never an
    id): the table's, else the kind's label."""
    if not isinstance(names, Names):
        names = Names(of={"player": dict(names)})
    write = SENTENCES.get(kind)
    if write is None:  # a kind of entry no code writes today: its label and its prose
        prose = [str(data[k]) for k in ("text", "detail") if isinstance(data.get(k), str)]
        return " ".join([label(kind) + ".", *prose])
    try:
        return write(Reading(data=data or {}, names=names, actor=actor))
    except (AttributeError, KeyError, TypeError, ValueError):  # an entry of older shape
        return label(kind) + "."


def dice_text(data: Mapping[str, Any]) -> str:
    """The raw dice of an entry, for a reader who unfolds them ("" when none)."""
    dice = data.get("dice") if isinstance(data, Mapping) else None
    if not isinstance(dice, dict):
        return ""
    faces = ", ".join(f"{k} {v}" for k, v in dice.items() if k != "total")
    total = f" (total {dice['total']})" if "total" in dice else ""
    return f"Dice: {faces}{total}"


@dataclass(frozen=True)
class Read:
    """One entry as a person reads it."""

    label: str
    summary: str
    dice: str


def read_entries(campaign_id: int, events: Sequence[Any]) -> list[Read]:
    """Each entry's label, sentence and folded dice text, in order; also set on each
    event (`summary`, `label`, `dice`) for the templates."""
    names = journal_names(campaign_id, events)
    out = []
    for e in events:
        read = Read(label=label(e.kind), dice=dice_text(e.data or {}),
                    summary=sentence(e.kind, e.data or {}, names,
                                     actor=names.actors.get(e.pk, "someone")))
        for key in ("label", "summary", "dice"):
            setattr(e, key, getattr(read, key))
        out.append(read)
    return out
