"""Mobius army lists as data: the JSON format (a JSON Schema), its validation with messages
a person understands, and the starter list of every faction the seed names.

The seed says what an army list holds ("a written list of all the Units in your army,
along with all the chosen Options") and how a unit is described (Unit Stats: "Unit ...
Type ... Wargear ... Special Rules ... Special Commands ... Options"; the Standard,
Vehicle and Weapon Stat-Lines) but prints only four profiles: the average soldier, Sonic,
a car, a sword and a pistol. R-MOB-9 writes the format as JSON; R-MOB-7 builds the starter
lists from those profiles and the "Factions Summarised" pages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator

from battles.rulesets.base import RulesetError
from battles.rulesets.mobius import tables as T

Json = dict[str, Any]

_SLUG = "^[a-z][a-z0-9_]{0,39}$"

WEAPON_SCHEMA: Json = {
    "type": "object", "additionalProperties": False,
    "required": ["key", "name", "rng", "st", "ak", "dam", "type"],
    "properties": {
        "key": {"type": "string", "pattern": _SLUG},
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "rng": {"type": "integer", "minimum": 0, "maximum": 120,
                "description": "Range in inches; 0 is CQC (a melee weapon)."},
        "st": {"type": "integer", "minimum": 1, "maximum": 16},
        "ak": {"type": "integer", "minimum": 1, "maximum": 12},
        "ak2": {"type": "integer", "minimum": 1, "maximum": 12,
                "description": "Automatic weapons: the second AK, fired while stationary."},
        "dam": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 20},
                          {"enum": ["D3", "D6"]}]},
        "type": {"enum": list(T.WEAPON_TYPES)},
        "rules": {"type": "array", "maxItems": 8, "uniqueItems": True,
                  "items": {"enum": list(T.WEAPON_RULES)}},
        "power": {"type": "integer", "minimum": 1, "maximum": T.MAX_POWER},
        "blast": {"type": "integer", "minimum": 1, "maximum": 12},
    },
}

UNIT_SCHEMA: Json = {
    "type": "object", "additionalProperties": False,
    "required": ["key", "name", "rank", "type", "points", "models", "move", "rc", "pan",
                 "hp", "weapons"],
    "properties": {
        "key": {"type": "string", "pattern": _SLUG},
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "rank": {"enum": list(T.RANKS)},
        "type": {"enum": list(T.UNIT_TYPES)},
        "subtypes": {"type": "array", "maxItems": 6, "uniqueItems": True,
                     "items": {"enum": list(T.SUBTYPES)}},
        "points": {"type": "integer", "minimum": 1, "maximum": 5000},
        "models": {"type": "integer", "minimum": 1, "maximum": 30},
        "move": {"type": "integer", "minimum": 0, "maximum": 40},
        "move_flying": {"type": "integer", "minimum": 1, "maximum": 60},
        "move_min": {"type": "integer", "minimum": 1, "maximum": 40},
        "cqc": {"type": "integer", "minimum": 0, "maximum": 12},
        "rc": {"type": ["integer", "null"], "minimum": 2, "maximum": 6,
               "description": "The score to hit at range (4 is 4+); null is '-'."},
        "pan": {"type": "integer", "minimum": 2, "maximum": 12},
        "hp": {"type": "integer", "minimum": 1, "maximum": 40},
        "def": {"type": "integer", "minimum": 0, "maximum": 12},
        "arm": {"type": "integer", "minimum": 1, "maximum": 14},
        "transport": {"type": "integer", "minimum": 1, "maximum": 30},
        "weapons": {"type": "array", "maxItems": 8, "items": WEAPON_SCHEMA},
        "rules": {"type": "array", "maxItems": 12, "uniqueItems": True,
                  "items": {"enum": list(T.UNIT_RULES)}},
        "special_commands": {"type": "array", "maxItems": 8, "items": {
            "type": "object", "additionalProperties": False, "required": ["name", "text"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "needed": {"type": "integer", "minimum": 2, "maximum": 6,
                           "description": "The D6 score in brackets, like Healing Mud "
                                          "(3+)."},
                "kinds": {"type": "array", "uniqueItems": True, "items": {
                    "enum": ["repeating", "focus", "unlocked", "melee", "recharge",
                             "uses"]}},
                "text": {"type": "string", "maxLength": 400}}}},
        "options": {"type": "array", "maxItems": 12, "items": {
            "type": "object", "additionalProperties": False, "required": ["name", "points"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "points": {"type": "integer", "minimum": 0, "maximum": 1000},
                "text": {"type": "string", "maxLength": 400}}}},
        "camouflage": {"type": "integer", "minimum": 1, "maximum": 4},
        "shielded": {"type": "integer", "minimum": 2, "maximum": 6},
        "command_bonus": {"type": "string", "maxLength": 200},
        "variant_of": {"type": "string", "pattern": _SLUG},
        "ruling": {"type": "string", "maxLength": 400},
    },
}

SCHEMA: Json = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Mobius army list",
    "type": "object", "additionalProperties": False,
    "required": ["faction", "name", "units"],
    "properties": {
        "faction": {"enum": list(T.FACTIONS)},
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "units": {"type": "array", "minItems": 1, "maxItems": 60, "items": UNIT_SCHEMA},
    },
}

_VALIDATOR = Draft202012Validator(SCHEMA)


def _where(path: Iterable[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the list"


def _message(error: Any) -> str:
    """One schema error as a sentence naming the field."""
    where = _where(error.absolute_path)
    kind = error.validator
    if kind == "required":
        missing = error.message.split("'")[1]
        return f"{where} needs '{missing}'"
    if kind == "additionalProperties":
        extra = error.message.split("(")[0].strip()
        return f"{where} has a field the format does not know ({extra})"
    if kind == "enum":
        return f"{where} must be one of {', '.join(map(str, error.validator_value))}"
    if kind in ("minimum", "maximum"):
        word = "at least" if kind == "minimum" else "at most"
        return f"{where} must be {word} {error.validator_value}"
    if kind == "type":
        return f"{where} must be {error.validator_value}"
    if kind == "pattern":
        return f"{where} must be lower-case letters, digits and _ (like 'royal_army')"
    if kind in ("minItems", "maxItems"):
        return f"{where} must hold {'at least' if kind == 'minItems' else 'at most'} " \
               f"{error.validator_value} items"
    if kind == "oneOf":
        return f"{where} must be a whole number or D3 or D6"
    return f"{where}: {error.message}"


def unit_problems(unit: Mapping[str, Any]) -> list[str]:
    """What the stat-lines require beyond the JSON shape, as sentences."""
    name = unit.get("key", "?")
    out = []
    vehicle = unit["type"] == "vehicle"
    if vehicle and "arm" not in unit:
        out.append(f"{name} is a vehicle: it needs ARM (Vehicle Stat-Lines)")
    if not vehicle and ("cqc" not in unit or "def" not in unit):
        out.append(f"{name} needs CQC and DEF (Standard Stat-Lines)")
    subtypes = set(unit.get("subtypes") or ())
    if ({"flying", "airborne"} & subtypes) and "move_flying" not in unit:
        out.append(f"{name} flies: it needs a second Move value (move_flying)")
    if "move_min" in unit and unit["move_min"] > unit["move"]:
        out.append(f"{name}: its minimum move is more than its Move value")
    if "transport" in unit and "transport" not in subtypes:
        out.append(f"{name} has a transport capacity without the Transport subtype")
    keys = [w["key"] for w in unit["weapons"]]
    if len(set(keys)) != len(keys):
        out.append(f"{name}: weapon keys must be different")
    for w in unit["weapons"]:
        melee = w["type"] == "melee"
        if melee != (w["rng"] == 0) and "combined" not in (w.get("rules") or ()):
            out.append(f"{name}.{w['key']}: a melee weapon has range CQC (0) and only a "
                       "melee weapon does")
        if ("ak2" in w) != (w["type"] == "automatic"):
            out.append(f"{name}.{w['key']}: an automatic weapon has two AK values (ak, "
                       "ak2) and only an automatic weapon does")
        if not melee and unit["rc"] is None:
            out.append(f"{name}.{w['key']}: a model with RC '-' has no ranged weapon")
    return out


def validate(army: Any) -> Json:
    """An army list, checked; RulesetError lists every problem in one sentence."""
    errors = sorted(_message(e) for e in _VALIDATOR.iter_errors(army))
    if not errors:
        for unit in army["units"]:
            errors += unit_problems(unit)
        dupes = sorted(k for k, n in Counter(u["key"] for u in army["units"]).items() if n > 1)
        if dupes:
            errors.append(f"unit keys must be different: {', '.join(dupes)}")
    if errors:
        name = army.get("name", "?") if isinstance(army, dict) else "?"
        raise RulesetError(f"Army list {name}: " + "; ".join(errors) + ".")
    return dict(army)


def validate_all(lists: Any) -> list[Json]:
    if not isinstance(lists, list):
        raise RulesetError("mobius_army_lists must be a list of army lists.")
    out = [validate(a) for a in lists]
    keys = [u["key"] for a in out for u in a["units"]]
    clash = sorted(k for k, n in Counter(keys).items() if n > 1)
    clash += sorted(set(keys) & {u["key"] for a in STARTERS for u in a["units"]})
    if clash:
        raise RulesetError("Unit keys must be different from each other and from the "
                           f"starter lists: {', '.join(sorted(set(clash)))}.")
    return out


def army_problems(units: Sequence[Mapping[str, Any]], points_limit: int) -> list[str]:
    """Army Size and Ranks & Structure: "The total value of all Units in your Army must be
    no more than the game's Points Limit"; "1x HQ, 2x Troops - ... 3 if your game's Points
    Limit is 2,000pts or above ... no more than 3 HQ Units"; Named Characters: "No side may
    have two Named Characters that are Variants Of the same Character"."""
    out = []
    total = sum(int(u["points"]) for u in units)
    if total > points_limit:
        out.append(f"the army costs {total} points, more than the limit of {points_limit}")
    ranks = Counter(str(u["rank"]) for u in units)
    if ranks["hq"] < T.MIN_HQ:
        out.append("an army needs an HQ unit")
    if ranks["hq"] > T.MAX_HQ:
        out.append("an army may not have more than 3 HQ units")
    need = T.MIN_TROOPS_LARGE if points_limit >= T.LARGE_ARMY_POINTS else T.MIN_TROOPS
    if ranks["troops"] < need:
        out.append(f"an army of this size needs {need} Troops units")
    variants = Counter(str(u["variant_of"]) for u in units if u.get("variant_of"))
    out += [f"two variants of {v}" for v, n in sorted(variants.items()) if n > 1]
    return out


def rule_of_quarters(units: Sequence[Mapping[str, Any]]) -> bool:
    """The Rule of Quarters: "no more than 25% of your Army's total Points Value be
    dedicated to Vehicles" (a recommendation; R-MOB-2 does not enforce it)."""
    total = sum(int(u["points"]) for u in units)
    vehicles = sum(int(u["points"]) for u in units if u["type"] == "vehicle")
    return total == 0 or vehicles <= total * T.VEHICLE_SHARE


# --- the starter lists (R-MOB-7) -------------------------------------------------------------
def _w(key: str, name: str, rng: int, st: int, ak: int, dam: int | str, kind: str,
       *rules: str, **extra: int) -> Json:
    w: Json = {"key": key, "name": name, "rng": rng, "st": st, "ak": ak, "dam": dam,
               "type": kind}
    if rules:
        w["rules"] = list(rules)
    w.update(extra)
    return w


#: The seed's own weapons: "Sword CQC 3 1 1 Melee / Pistol 12" 4 1 1 Assault".
SWORD = {"key": "sword", "name": "Sword", **T.SWORD}
PISTOL = {"key": "pistol", "name": "Pistol", **T.PISTOL}
RIFLE = _w("rifle", "Rifle", 24, 4, 1, 1, "assault")
LASER_RIFLE = _w("laser_rifle", "Laser rifle", 24, 5, 1, 1, "assault")
ASSAULT_RIFLE = _w("assault_rifle", "Assault rifle", 24, 4, 1, 1, "automatic", ak2=2)
MACHINE_GUN = _w("machine_gun", "Machine gun", 30, 5, 2, 1, "automatic", ak2=3)
ROCKET = _w("rocket_launcher", "Rocket launcher", 24, 7, 1, "D3", "heavy", "tankbuster")
CANNON = _w("tank_cannon", "Tank cannon", 36, 9, 1, "D3", "heavy")
BLASTER = _w("blaster", "Blaster", 18, 3, 1, 1, "assault")
SPEAR = _w("spear", "Spear", 0, 4, 1, 1, "melee")
JAVELIN = _w("javelins", "Throwing spears", 8, 4, 1, 1, "assault")
AXE = _w("great_axe", "Great axe", 0, 5, 2, 1, "melee", "unwieldy")
BOW = _w("bow", "Bow", 18, 3, 1, 1, "assault")
LONGBOW = _w("longbow", "Longbow", 24, 3, 1, 1, "heavy")
CLAWS = _w("claw_blades", "Claw blades", 0, 4, 2, 1, "melee", "dual_wield")
KATANA = _w("katana", "Katana", 0, 4, 2, 1, "melee", "fast_strike")
SHURIKEN = _w("shuriken", "Shuriken", 12, 3, 2, 1, "assault")
POWER_SWORD = _w("power_sword", "Power sword", 0, 4, 2, 1, "melee", power=1)
LANCE = _w("energy_lance", "Energy lance", 0, 6, 2, "D3", "melee", power=2)
PLASMA = _w("plasma_rifle", "Plasma rifle", 24, 6, 1, 1, "assault")


def _unit(key: str, name: str, rank: str, points: int, models: int, stats: tuple[int, ...],
          weapons: list[Json], *, rc: int | None = 4, subtypes: Sequence[str] = (),
          rules: Sequence[str] = (), why: str, **extra: Any) -> Json:
    """An infantry profile: stats are Move, CQC, PAN, HP, DEF (RC apart: it may be '-')."""
    move, cqc, pan, hp, dfc = stats
    u: Json = {"key": key, "name": name, "rank": rank, "type": "infantry", "points": points,
               "models": models, "move": move, "cqc": cqc, "rc": rc, "pan": pan, "hp": hp,
               "def": dfc, "weapons": weapons}
    if subtypes:
        u["subtypes"] = list(subtypes)
    if rules:
        u["rules"] = list(rules)
    u.update(extra)
    u["ruling"] = f"R-MOB-7: {why}"
    return u


def _vehicle(key: str, name: str, rank: str, points: int, stats: tuple[int, ...],
             weapons: list[Json], *, subtypes: Sequence[str] = (), why: str,
             **extra: Any) -> Json:
    """A vehicle profile: stats are Move, RC, PAN, ARM, HP (the Vehicle Stat-Line)."""
    move, rc, pan, arm, hp = stats
    u: Json = {"key": key, "name": name, "rank": rank, "type": "vehicle", "points": points,
               "models": 1, "move": move, "rc": rc, "pan": pan, "arm": arm, "hp": hp,
               "weapons": weapons}
    if subtypes:
        u["subtypes"] = list(subtypes)
    u.update(extra)
    u["ruling"] = f"R-MOB-7: {why}"
    return u


AVG = "the seed's Average stat-line (Move 6, CQC 3, RC 4+, PAN 6, HP 1, DEF 3)"

STARTERS: tuple[Json, ...] = (
    {"faction": "kingdom_of_acorn", "name": "Royal Army of Acorn", "units": [
        _unit("acorn_officer", "Royal Army officer", "hq", 40, 1, (6, 4, 8, 3, 3),
              [PISTOL, SWORD], why=f"{AVG}, raised to lead: CQC 4, PAN 8, HP 3; the seed's "
              "pistol and sword."),
        _unit("acorn_royal_army", "Royal Army squad", "troops", 90, 10, (6, 4, 6, 1, 3),
              [RIFLE, SWORD], why=f"{AVG} with CQC 4: 'The infantry of the Royal Army, "
              "while slightly better at Melee'; rifle and bayonet (a sword)."),
        _unit("sonic", "Sonic the Hedgehog", "heroes", 250, 1,
              tuple(int(T.SONIC[k] or 0) for k in ("move", "cqc", "pan", "hp", "def")),
              [_w("spin_attack", "Spin attack", 0, 5, 3, 1, "melee", "fast_strike")],
              rc=None, subtypes=("super_speed",), rules=("escapist",), variant_of="sonic",
              why="the seed's stat-line 'Sonic 18\" 9 - 10 16 4'; Super Speed ('Sonic "
              "alone is an example that speed can provide one hell of an advantage'); "
              "RC '-' so no ranged weapon."),
        _unit("acorn_royal_artillery", "Royal Artillery battery", "support", 80, 3,
              (6, 3, 6, 1, 3),
              [_w("field_gun", "Field gun", 48, 8, 1, "D3", "artillery"), PISTOL],
              subtypes=("artillery",),
              why=f"'the Royal Artillery and Tank Corps provide plenty of backup': {AVG} "
                  "crewing a field gun (Artillery: 'the gun itself is a separate Model to "
                  "its firer(s)')."),
        _vehicle("acorn_car", "Royal Army car", "transport", 50,
                 tuple(T.CAR[k] for k in ("move", "rc", "pan", "arm", "hp")),
                 [_w("door_gun", "Door gun", 18, 4, 2, 1, "assault")],
                 subtypes=("transport",), transport=4,
                 why="the seed's 'Car 6\" 4+ 7 4 4'; a door gun and room for four so it "
                     "has a part to play."),
        _vehicle("acorn_cuirassier", "Cuirassier tank", "support", 170, (8, 4, 8, 7, 8),
                 [CANNON, MACHINE_GUN],
                 why="'a Cuirassier tank' (Factions Summarised): a Car with heavy armour "
                     "and a cannon that out-ranges the small arms."),
    ]},
    {"faction": "eggman_empire", "name": "Eggman Empire", "units": [
        _unit("egg_boss", "Egg Boss", "hq", 60, 1, (6, 4, 9, 4, 5), [LASER_RIFLE, SWORD],
              why="a robot commander: tougher than the average soldier (DEF 5, HP 4)."),
        _unit("egg_pawns", "Egg Pawns", "troops", 50, 10, (6, 2, 5, 1, 3), [BLASTER],
              rc=5, rules=("extremely_stupid",),
              why="'Egg Pawns come in Units of ten to thirty', cheap and 'Extremely Stupid "
                  "... can't even Take Cover': worse than average at everything."),
        _unit("swatbots", "SWATbots", "troops", 70, 5, (6, 4, 8, 2, 4), [LASER_RIFLE],
              why="'Even the tougher SWATbots are cheaper than your typical Luminaires or "
                  "GUN Soldiers'."),
        _unit("buzz_bombers", "Buzz Bombers", "support", 60, 5, (6, 2, 6, 1, 3), [BLASTER],
              rc=5, subtypes=("flying",), move_flying=12,
              why="the Empire's flying robots: 'Whether they use jetpacks, wings, or "
                  "superpowers, Flying Units can soar above the battlefield' (6\"/12\")."),
        _unit("egg_walker", "Egg Walker", "support", 190, 1, (8, 5, 9, 10, 6),
              [_w("heavy_laser", "Heavy laser", 36, 7, 2, "D3", "heavy", "tankbuster"),
               _w("crusher_claws", "Crusher claws", 0, 7, 3, 2, "melee")],
              subtypes=("giant",),
              why="'a few heavy Support options': a Giant robot (two ranged attacks, "
                  "Heavy Duty, All-Terrain)."),
    ]},
    {"faction": "gun", "name": "Guardian Units of the Nations", "units": [
        _unit("gun_commander", "GUN commander", "hq", 70, 1, (6, 3, 9, 3, 4),
              [ASSAULT_RIFLE], rc=3, rules=("chain_of_command", "overwatch"),
              why="'most HQ Units have Chain of Command'; GUN's 'superior firepower' (RC "
                  "3+)."),
        _unit("gun_soldiers", "GUN soldiers", "troops", 120, 8, (6, 2, 7, 1, 4),
              [ASSAULT_RIFLE], rc=3, rules=("overwatch",),
              why="'armed and armoured in several thousand dollars' worth of armour' (DEF "
                  "4, RC 3+) and 'severely lacking in the Melee department' (CQC 2)."),
        _unit("shadow", "Shadow the Hedgehog", "heroes", 240, 1, (18, 8, 10, 14, 4),
              [_w("chaos_spear", "Chaos spear", 18, 6, 2, 2, "assault"),
               _w("homing_attack", "Homing attack", 0, 5, 2, 1, "melee")], rc=3,
              subtypes=("super_speed",), variant_of="shadow",
              why="'Team Dark - Shadow the Hedgehog': Sonic's stat-line with a ranged "
                  "attack and two HP less."),
        _vehicle("gun_apc", "GUN armoured carrier", "transport", 140, (10, 4, 8, 6, 6),
                 [MACHINE_GUN], subtypes=("transport",), transport=10,
                 why="GUN's longer RNG and higher ST: a machine gun on an armoured car."),
    ]},
    {"faction": "wolf_pack_nation", "name": "Wolf Pack Nation", "units": [
        _unit("wolf_chieftain", "Wolf chieftain", "hq", 55, 1, (7, 6, 9, 3, 3), [AXE],
              rc=5, rules=("cry_of_the_wolf",),
              why="'focus almost entirely on Melee Combat, arming themselves with the "
                  "finest swords, axes, and spears'."),
        _unit("wolf_warriors", "Wolf warriors", "troops", 90, 8, (7, 5, 7, 1, 3),
              [SPEAR, JAVELIN], rc=5, rules=("cry_of_the_wolf",),
              why="'athletic spear throwers' whose 'primitive weapons are underwhelming' "
                  "at range (RC 5+) but strong in melee (CQC 5)."),
        _unit("wolf_hunters", "Wolf hunters", "troops", 60, 5, (7, 4, 7, 1, 3), [BOW, SPEAR],
              rc=4, rules=("ambush",), why="'ambushing Hunters' with bows."),
    ]},
    {"faction": "dark_egg_legion", "name": "Dark Egg Legion", "units": [
        _unit("kommissar", "Kommissar", "hq", 65, 1, (6, 4, 8, 3, 4), [LASER_RIFLE,
                                                                     POWER_SWORD],
              why="'a Kommissar' leads cyborgs that are 'all-rounders'."),
        _unit("legionnaires", "Legionnaires", "troops", 90, 6, (6, 4, 7, 1, 3),
              [LASER_RIFLE, SWORD],
              why="'the cyborg Legionnaires are all-rounders'; Steel Skin comes from the "
                  "faction."),
        _unit("legion_heavies", "Legion heavy team", "support", 75, 3, (5, 3, 7, 1, 3),
              [ROCKET], why="an anti-tank team: every faction needs an answer to ARM."),
    ]},
    {"faction": "felidae_kingdom", "name": "Felidae Kingdom", "units": [
        _unit("felidae_captain", "Felidae captain", "hq", 75, 1, (8, 6, 8, 3, 3),
              [CLAWS], rc=5, subtypes=("super_speed",), rules=("furious_charge",),
              why="'the Felidae Kingdom rely on their Super Speed status and almost all "
                  "their Units having Furious Charge'."),
        _unit("cat_guard", "Cat guard", "troops", 110, 8, (8, 5, 7, 1, 3), [CLAWS], rc=5,
              subtypes=("super_speed",), rules=("furious_charge",),
              why="melee troops with Super Speed and Furious Charge."),
        _unit("cat_skirmishers", "Cat skirmishers", "troops", 70, 6, (8, 4, 7, 1, 3),
              [BLASTER, SWORD], rc=4, subtypes=("super_speed",), rules=("furious_charge",),
              why="'only Cat technology is good enough for the Cat people'."),
    ]},
    {"faction": "echidna_covenants", "name": "Echidna Covenants", "units": [
        _unit("albion_commander", "Albion knight commander", "hq", 110, 1, (6, 6, 10, 4, 6),
              [PLASMA, LANCE], rc=3,
              why="'Albion Knights, who wear the finest armour and weapons Mobius has to "
                  "offer'."),
        _unit("albion_knights", "Albion knights", "troops", 130, 3, (6, 5, 9, 2, 6),
              [PLASMA, SWORD], rc=3,
              why="'more akin to waking tanks than infantry' and 'the most expensive "
                  "standard Units in the game'."),
        _unit("echidna_security", "Echidna security force", "troops", 85, 6,
              (6, 3, 7, 1, 4), [LASER_RIFLE], rc=4,
              why="'more akin to a modern-day Mobian Army and sacrifice the extra armour "
                  "for a few extra numbers'."),
    ]},
    {"faction": "dingo_regime", "name": "Dingo Regime", "units": [
        _unit("dingo_officer", "Dingo officer", "hq", 50, 1, (6, 4, 8, 3, 3),
              [ASSAULT_RIFLE], rc=4, rules=("hatred_echidnas",),
              why="'all-rounders with a slight emphasis on Ranged combat'."),
        _unit("dingo_troopers", "Dingo troopers", "troops", 85, 8,
              tuple(T.AVERAGE[k] for k in ("move", "cqc", "pan", "hp", "def")),
              [ASSAULT_RIFLE], rc=4, rules=("hatred_echidnas",),
              why="the Average soldier with an assault rifle and Hatred for Echidnas."),
        _vehicle("dingo_tank", "Dingo battle tank", "support", 210, (7, 4, 8, 8, 9),
                 [CANNON, MACHINE_GUN], subtypes=("heavy",),
                 why="'Their true strength lies in their Vehicles, with thick armour, "
                     "powerful guns' (Heavy: ARM 8)."),
    ]},
    {"faction": "kingdom_of_mercia", "name": "Kingdom of Mercia", "units": [
        _unit("mercian_lord", "Mercian lord", "hq", 70, 1, (6, 6, 9, 3, 4), [SWORD, PISTOL],
              shielded=5, why="a chivalrous leader with sword and shield (Shielded 5+)."),
        _unit("jetbike_knights", "Jetbike knights", "troops", 120, 4, (10, 5, 8, 2, 4),
              [_w("lance", "Lance", 0, 5, 1, 1, "melee")], rc=5, subtypes=("cavalry",),
              why="'Chivalrous Knights ride turbo-powered Jetbikes' (Cavalry)."),
        _unit("mercian_guards", "Mercian guards", "troops", 70, 8, (6, 4, 7, 1, 3), [SPEAR],
              rc=None, why="'the latter lacking any Ranged Weapons at all!'"),
        _unit("longbowmen", "Longbowmen", "support", 60, 8, (6, 3, 6, 1, 2), [LONGBOW],
              rc=4, why="'longbowmen and peasants in their Support slots, who'd rather rely "
                        "on number of shots'."),
    ]},
    {"faction": "iron_dominion", "name": "Iron Dominion", "units": [
        _unit("iron_general", "Iron general", "hq", 90, 1, (8, 7, 9, 3, 3),
              [KATANA, SHURIKEN], rc=4, rules=("surprise_strike",), camouflage=1,
              why="'Ninjas, elite Units specialising in stealth and close-range killing'."),
        _unit("raiju_ninjas", "Raiju clan ninjas", "troops", 110, 5, (8, 6, 8, 1, 2),
              [KATANA, SHURIKEN], rc=4, rules=("furious_charge", "surprise_strike"),
              camouflage=1,
              why="'The Raiju Clan focus on aggression and gain the Furious Charge'; "
                  "'lack any defences save their camouflage' (DEF 2, Camouflage 1)."),
        _unit("yagyu_ninjas", "Yagyu clan ninjas", "troops", 120, 5, (8, 6, 8, 1, 2),
              [KATANA, SHURIKEN], rc=4, rules=("terrifying", "surprise_strike"),
              camouflage=1, why="'the Yagyu Clan focus on terror tactics, giving them the "
                                "Terrifying Special Rule'."),
    ]},
)


def starter_units() -> list[tuple[str, Json]]:
    """Every starter unit with its faction key."""
    return [(a["faction"], u) for a in STARTERS for u in a["units"]]
