"""The after-action report of a finished battle, in names a player knows (issue 16;
API.md "History, spectators, people": `"report": {"narrative", "sides": [...]}`).

Built from what the campaign recorded: the `battle_opened` and `battle_result` journal
entries (who defended and why, fates, retreats, loot), the participants and the units
and pilots they name, and the battle's own log (the dice). Ids stay beside the names for
clients. Nothing private leaks: pilots' XP is the owner's private journal and is not
in the report; what the report names (units, pilots' class and level) the battle itself
showed every side.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

from battles.models import Battle, BattleParticipant
from campaign.models import Event, Player
from economy.labels import unit_label
from economy.models import Operative, Unit
from territories.models import Territory

FATE_WORDS = {"intact": "came through intact", "damaged": "was damaged",
              "destroyed": "was destroyed", "retreated": "retreated",
              "captured": "was captured"}
REASON_WORDS = {"owner": "its owner", "already_there": "already there before the moves",
                "lot": "chosen by lot"}


def display_names(units: list[tuple[Any, str, str, str | None]]) -> dict[Any, str]:
    """Names a player knows for the units of one battle: (id, owner, model, the name its
    owner gave or None) -> the given name, else "bob's Lycaon" (numbered when bob
    fielded two). Database ids never stand in for a name (issue 16)."""
    bases = {uid: f"{owner}'s {str(model).replace('_', ' ').capitalize()}"
             for uid, owner, model, given in units if not given}
    counts = Counter(bases.values())
    seen: Counter[str] = Counter()
    out = {}
    for uid, _owner, _model, given in sorted(units, key=lambda u: str(u[0])):
        if given:
            out[uid] = given
            continue
        base = bases[uid]
        seen[base] += 1
        out[uid] = base if counts[base] == 1 else f"{base} {seen[base]}"
    return out


def given_name(name: object, model: object, uid: object) -> str | None:
    """The name a player gave a unit, or None for an automatic one (its model's label,
    or the "model #id" of older battles)."""
    text = str(name or "")
    automatic = (f"{model} #{uid}", unit_label(SimpleNamespace(name="", model=model)))
    return None if not text or text in automatic else text


def _dice_summary(log: list[Any]) -> dict[str, Any]:
    """How many dice the battle rolled, and the notable rolls (every die at its highest
    face: a triple 8 in Unlimit3d 8; sixes elsewhere)."""
    dice = 0
    rolls = 0
    notable: list[dict[str, Any]] = []
    for entry in log:
        if not isinstance(entry, dict):
            continue
        faces: list[int] = []
        if isinstance(entry.get("dice"), dict):  # Unlimit3d 8: active, passive, nemesis
            faces = [int(entry["dice"].get(k, 0)) for k in ("active", "passive", "nemesis")]
            top = 8
        elif isinstance(entry.get("rolls"), list):
            faces = [int(f) for f in entry["rolls"] if isinstance(f, int)]
            top = 6
        elif isinstance(entry.get("symbols"), list):
            dice += len(entry["symbols"]) + len(entry.get("shields") or [])
            rolls += 1
            continue
        if not faces:
            continue
        dice += len(faces)
        rolls += 1
        if len(faces) >= 3 and all(f == top for f in faces):
            notable.append({"turn": entry.get("turn"), "round": entry.get("round"),
                            "faces": faces,
                            "text": entry.get("text") or f"a perfect roll ({faces})"})
    return {"rolls": rolls, "dice": dice, "notable": notable[:10]}


def battle_report(battle: Battle) -> dict[str, Any] | None:
    """The report of a finished battle (None before it is recorded)."""
    if battle.status != Battle.Status.FINISHED:
        return None

    events = {e.kind: e.data for e in Event.objects.filter(
        campaign_id=battle.campaign_id, kind__in=("battle_opened", "battle_result"),
        data__battle=battle.pk)}
    opened = events.get("battle_opened") or {}
    result = events.get("battle_result") or {}
    players = {p.pk: p.user.get_username() for p in
               Player.objects.filter(campaign_id=battle.campaign_id).select_related("user")}
    participants = list(BattleParticipant.objects.filter(battle=battle))
    units = Unit.objects.in_bulk([p.unit_id for p in participants])
    pilots = Operative.objects.in_bulk([p.pilot_id for p in participants if p.pilot_id])
    retreat_to = {int(r["unit"]): int(r["to"]) for r in result.get("retreats") or []}
    places = dict(Territory.objects.filter(pk__in=[*retreat_to.values(), battle.territory_id])
                  .values_list("pk", "name"))
    fates = {int(u["unit"]): u for u in result.get("units") or []}
    territory = places.get(battle.territory_id, f"territory {battle.territory_id}")

    shown = display_names([
        (p.unit_id, players.get(p.player_id, f"player {p.player_id}"),
         units[p.unit_id].model if p.unit_id in units else "unit",
         units[p.unit_id].name or None if p.unit_id in units else None)
        for p in participants])
    sides = []
    for side in battle.sides:
        pid = int(side["player"])
        lines = []
        for p in (x for x in participants if x.player_id == pid):
            unit = units.get(p.unit_id)
            pilot = pilots.get(p.pilot_id) if p.pilot_id else None
            fate = fates.get(p.unit_id, {})
            owner = players.get(pid, f"player {pid}")
            line: dict[str, Any] = {
                "id": p.unit_id, "name": shown[p.unit_id],
                "model": unit.model if unit else None,
                "pilot": ({"id": pilot.pk,
                           "name": pilot.name or f"{owner}'s {pilot.klass}",
                           "class": pilot.klass, "level": pilot.level} if pilot else None),
                "fate": fate.get("fate", "intact"), "reinforcement": p.reinforcement}
            for key in ("hit_points_left", "state"):
                if key in fate:
                    line[key] = fate[key]
            if p.unit_id in retreat_to:
                line["retreated_to"] = {"id": retreat_to[p.unit_id],
                                        "name": places.get(retreat_to[p.unit_id])}
            if p.unit_id in (result.get("off_map") or []):
                line["off_map"] = True
            lines.append(line)
        sides.append({"player": pid, "username": players.get(pid, f"player {pid}"),
                      "role": side.get("role"), "units": lines})
    report = {
        "territory": {"id": battle.territory_id, "name": territory},
        "defender": {"id": battle.defender_id, "username": None if battle.defender_id is None
                     else players.get(battle.defender_id),
                     "why": REASON_WORDS.get(opened.get("defender_reason", ""), "")},
        "winner": ({"id": battle.winner_id, "username": players.get(battle.winner_id)}
                   if battle.winner_id else None),
        "owner_changed": bool(result.get("owner_changed")),
        "rounds": result.get("rounds"), "end_reason": result.get("end_reason"),
        "sides": sides,
        "buildings_destroyed": result.get("buildings_destroyed") or [],
        "loot": {k: result[k] for k in ("missiles_fired", "cargo", "lab_piracies")
                 if result.get(k)},
        "dice": _dice_summary(battle.log or []),
        "plans": plans_shown(battle, players),
    }
    report["narrative"] = narrative(battle, report)
    return report


STANCE_WORDS = {"attack": "attack", "hold": "hold its ground", "withdraw": "withdraw at once"}
FOCUS_WORDS = {"nearest": "the nearest enemy", "weakest": "the weakest enemy",
               "strongest": "the strongest enemy"}


def sealed_plans(battle: Battle) -> list[tuple[int, dict[str, Any]]]:
    """(player id, plan) for each side that fought a finished battle with a sealed plan
    (the input keys its sides by player id), with the neutral plan's defaults filled in;
    nothing before the battle is over (issue 29: plans stay sealed until then)."""
    if battle.status != Battle.Status.FINISHED:
        return []
    return [(int(side), {"stance": plan.get("stance", "attack"),
                         "retreat_at": int(plan.get("retreat_at", 100)),
                         "focus": plan.get("focus", "nearest")})
            for side, plan in sorted(((battle.input or {}).get("plans") or {}).items())
            if str(side).isdigit()]


def plans_shown(battle: Battle, players: dict[int, str]) -> list[dict[str, Any]]:
    """The sides' sealed plans, once the battle is over (issue 29), each with the sentence
    the report reads and whether the plan decided how the side left the field: a ruleset
    marks a withdrawal its plan caused with a `plan_withdraw` log entry (side, share lost)."""
    plans = sealed_plans(battle)
    withdrew = {str(e.get("side")): e for e in battle.log or []
                if isinstance(e, dict) and e.get("event") == "plan_withdraw"} if plans else {}
    shown = []
    for pid, plan in plans:
        side = str(pid)
        who = players.get(pid, "a player")
        stance, share = plan["stance"], plan["retreat_at"]
        sentence = (f"{who} planned to {STANCE_WORDS.get(stance, stance)}, "
                    f"{FOCUS_WORDS.get(plan['focus'], 'the nearest enemy')} "
                    "first, "
                    + ("fighting to the end" if share >= 100
                       else f"withdrawing at {share}% losses") + ".")
        decided = withdrew.get(side)
        if decided is not None:
            lost = decided.get("lost")
            sentence += (f" {who}'s force withdrew at {lost}% losses, as planned."
                         if lost is not None and stance != "withdraw"
                         else f" {who}'s force withdrew, as planned.")
        shown.append({"player": pid, "username": who, "stance": stance, "retreat_at": share,
                      "focus": plan["focus"], "decided": decided is not None,
                      "sentence": sentence})
    return shown


def _names(lines: list[dict[str, Any]]) -> str:
    names = [str(line["name"]) for line in lines]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(number: Any, word: str) -> str:
    """ "1 round", "10 rounds"."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def narrative(battle: Battle, report: dict[str, Any]) -> str:
    """One paragraph a person reads, generated from the report."""
    where = report["territory"]["name"]
    defender = report["defender"]
    attackers = [s["username"] for s in report["sides"] if s["player"] != defender["id"]]
    why = f" ({defender['why']})" if defender.get("why") else ""
    text = [f"On turn {battle.turn}, {' and '.join(attackers) or 'nobody'} attacked {where}, "
            f"defended by {defender['username']}{why}."]
    rounds = report.get("rounds")
    if report["winner"]:
        took = " and took the territory" if report["owner_changed"] else " and held the field"
        text.append(f"After {_count(rounds, 'round')}, {report['winner']['username']} won{took}."
                    if rounds else f"{report['winner']['username']} won{took}.")
    else:
        text.append("Nobody held the field.")
    for side in report["sides"]:
        by_fate: Counter[str] = Counter(u["fate"] for u in side["units"])
        lost = [u for u in side["units"] if u["fate"] == "destroyed"]
        gone = [u for u in side["units"] if u.get("retreated_to")]
        bits = []
        if lost:
            bits.append(f"lost {_names(lost)}")
        if gone:
            bits.append("pulled " + _names(gone) + " back to "
                        + ", ".join(sorted({str(u["retreated_to"]["name"]) for u in gone})))
        if by_fate.get("damaged"):
            bits.append(f"had {_count(by_fate['damaged'], 'unit')} damaged")
        if bits:
            text.append(f"{side['username']} " + "; ".join(bits) + ".")
    if report["buildings_destroyed"]:
        kinds = ", ".join(str(b["kind"]).replace("_", " ")
                          for b in report["buildings_destroyed"])
        text.append(f"Buildings destroyed: {kinds}.")
    loot = report["loot"]
    if loot.get("missiles_fired"):
        text.append(f"{_count(len(loot['missiles_fired']), 'silo missile')} fired.")
    if loot.get("cargo"):
        text.append(f"{_count(len(loot['cargo']), 'container')} changed hands or lost.")
    if loot.get("lab_piracies"):
        points = sum(int(p.get("research_points") or 0) for p in loot["lab_piracies"])
        text.append(f"Pirates stole {_count(points, 'research point')}.")
    for plan in report.get("plans") or ():
        text.append(plan["sentence"])
    dice = report["dice"]
    if dice["rolls"]:
        text.append(f"{_count(dice['rolls'], 'roll')}, {dice['dice']} dice in all.")
    return " ".join(text)


def report_markdown(battle: Battle, report: dict[str, Any]) -> str:
    """The report as Markdown a league pastes into its forum or Discord (issue 16)."""
    lines = [f"## Battle of {report['territory']['name']}, turn {battle.turn}", "",
             report["narrative"], ""]
    for side in report["sides"]:
        role = f" ({side['role']})" if side.get("role") else ""
        lines.append(f"**{side['username']}**{role}")
        for unit in side["units"]:
            pilot = (f", pilot {unit['pilot']['name']} ({unit['pilot']['class']}, level "
                     f"{unit['pilot']['level']})" if unit.get("pilot") else "")
            where = (f" to {unit['retreated_to']['name']}" if unit.get("retreated_to")
                     else "")
            lines.append(f"- {unit['name']}{pilot}: {unit['fate']}{where}")
        lines.append("")
    dice = report["dice"]
    lines.append(f"_{_count(dice['rolls'], 'roll')}, {dice['dice']} dice._")
    return "\n".join(lines) + "\n"
