"""Unit datasheets of 30 Minute Missions: the format, its validation, and the starter set.

The seed refers to a "Unit Datasheet Creation" page that is not in it: "The Datasheet
contains your unit's information. Defense, Weapons, and other special abilities will all be
listed here." R-30-1 writes the format as JSON (`SCHEMA`); `validate` adds the seed's unit
type requirements with messages a person understands; R-30-3 builds the starter set.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from battles.rulesets.base import RulesetError
from battles.rulesets.thirtymm import tables as T

Json = dict[str, Any]

_SLUG = "^[a-z][a-z0-9_]{0,39}$"

SCHEMA: Json = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "30 Minute Missions unit datasheet",
    "type": "object",
    "additionalProperties": False,
    "required": ["key", "name", "type", "pilot", "accuracy", "assault", "evasion",
                 "sections", "weapons", "deployment_cost"],
    "properties": {
        "key": {"type": "string", "pattern": _SLUG},
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "type": {"enum": list(T.UNIT_TYPES)},
        "drone": {"enum": ["none", "ai"], "description": "AI drones are units of their own;"
                  " non-AI drones are equipment of a main unit, not units."},
        "pilot": {"enum": list(T.PILOTS)},
        "accuracy": {"type": "integer", "minimum": T.MIN_STAT, "maximum": 8},
        "assault": {"type": "integer", "minimum": T.MIN_STAT, "maximum": 8},
        "evasion": {"type": "integer", "minimum": T.MIN_STAT, "maximum": 8},
        "sections": {"type": "array", "minItems": 1, "maxItems": 12, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["key", "kind", "durability", "defense"],
            "properties": {
                "key": {"type": "string", "pattern": _SLUG},
                "kind": {"enum": list(T.SECTION_KINDS)},
                "durability": {"type": "integer", "minimum": 1, "maximum": 200},
                "defense": {"type": "integer", "minimum": 0, "maximum": 200}}}},
        "weapons": {"type": "array", "maxItems": 12, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["key", "name", "kind", "range", "damage", "ap", "mount", "section"],
            "properties": {
                "key": {"type": "string", "pattern": _SLUG},
                "name": {"type": "string", "minLength": 1, "maxLength": 80},
                "kind": {"enum": ["ranged", "melee"]},
                "range": {"type": "integer", "minimum": 1, "maximum": 16},
                "damage": {"type": "integer", "minimum": 1, "maximum": 100},
                "ap": {"type": "integer", "minimum": 1, "maximum": T.AP_CAP},
                "mount": {"enum": list(T.WEAPON_MOUNTS)},
                "section": {"type": "string", "pattern": _SLUG},
                "two_handed": {"type": "boolean"},
                "main_cannon": {"type": "boolean"},
                "missile_pod": {"type": "boolean"}}}},
        "systems": {"type": "array", "maxItems": 10, "uniqueItems": True,
                    "items": {"enum": list(T.SYSTEMS)}},
        "mods": {"type": "array", "maxItems": 10, "items": {"type": "string",
                                                            "maxLength": 60}},
        "deployment_cost": {"type": "integer", "minimum": 1, "maximum": 5000},
        "ruling": {"type": "string", "maxLength": 400},
    },
}


def _shape_errors(sheet: Any) -> list[str]:
    """The JSON-shape problems of a datasheet (the schema, checked by hand so the
    ruleset stays free of third-party imports and every message names the field)."""
    if not isinstance(sheet, dict):
        return ["a datasheet must be an object"]
    props = SCHEMA["properties"]
    errors = [f"'{k}' is missing" for k in SCHEMA["required"] if k not in sheet]
    errors += [f"'{k}' is not a datasheet field" for k in sheet if k not in props]
    for key, spec in props.items():
        if key in sheet:
            errors += _check(key, sheet[key], spec)
    return errors


def _check(where: str, value: Any, spec: Json) -> list[str]:
    if "enum" in spec:
        return [] if value in spec["enum"] else [
            f"{where} must be one of {', '.join(map(str, spec['enum']))}"]
    kind = spec.get("type")
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{where} must be a whole number"]
        lo, hi = spec.get("minimum"), spec.get("maximum")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return [f"{where} must be between {lo} and {hi}"]
        return []
    if kind == "boolean":
        return [] if isinstance(value, bool) else [f"{where} must be true or false"]
    if kind == "string":
        if not isinstance(value, str):
            return [f"{where} must be text"]
        if len(value) < spec.get("minLength", 0) or len(value) > spec.get("maxLength", 10**6):
            return [f"{where} must be 1 to {spec.get('maxLength')} characters"]
        if "pattern" in spec and not re.match(spec["pattern"], value):
            return [f"{where} must be lower-case letters, digits and _ (like 'left_arm')"]
        return []
    if kind == "array":
        if not isinstance(value, list):
            return [f"{where} must be a list"]
        if len(value) < spec.get("minItems", 0) or len(value) > spec.get("maxItems", 10**6):
            return [f"{where} must hold {spec.get('minItems', 0)} to {spec['maxItems']} items"]
        out: list[str] = []
        for i, item in enumerate(value):
            out += _check(f"{where}[{i}]", item, spec["items"])
        return out
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{where} must be an object"]
        out = [f"{where}.{k} is missing" for k in spec.get("required", ()) if k not in value]
        out += [f"{where}.{k} is not a field" for k in value if k not in spec["properties"]]
        for k, sub in spec["properties"].items():
            if k in value:
                out += _check(f"{where}.{k}", value[k], sub)
        return out
    return []


def unit_type_problems(kind: str, sections: Sequence[Json], systems: Sequence[str],
                       weapons: Sequence[Json] = (), drone: str = "none",
                       pilot: str = "rookie") -> list[str]:
    """The seed's requirements of each unit type (Unit Types), as sentences."""
    count = Counter(s["kind"] for s in sections)
    problems = []
    mains = sum(count[k] for k in T.MAIN_SECTIONS)
    if mains != 1:
        problems.append("a unit has exactly one main section (torso, cockpit or AI cockpit)")
    if pilot == "ai" and not count["ai_cockpit"]:
        problems.append("an AI pilot sits in an AI Cockpit section")
    if drone == "ai" and pilot != "ai":
        problems.append("the pilot of an AI drone must be an AI")
    if kind == "mech":
        if count["cockpit"]:
            problems.append("a mech holds its pilot in a Torso, not a Cockpit")
        if not (count["leg"] or count["arm"] or count["torso"]):
            problems.append("a mech uses legs, relies on arms, or has a clear torso")
    else:
        if count["torso"]:
            problems.append("vehicles must have a Cockpit Unit Section in place of a Torso")
        if count["arm"]:
            problems.append("a vehicle does not have any form of arms")
        if "jump" in systems:
            problems.append("vehicles cannot obtain the Jump Ability")
        if any(w.get("mount") == "equipped" for w in weapons):
            problems.append("vehicles cannot pick up objects: their weapons are mounted")
    if kind == "terrestrial":
        if count["terra_drive"] < 2:
            problems.append("a terrestrial vehicle must contain at least two Terra Drive "
                            "sections")
        if count["aerial_drive"] or count["aquatic_drive"]:
            problems.append("a terrestrial vehicle contains no aerial or aquatic drive")
    if kind == "aerial":
        if count["aerial_drive"] < 1:
            problems.append("an aerial vehicle must contain at least one Flight Core Part "
                            "(an aerial drive)")
        if count["terra_drive"] or count["aquatic_drive"]:
            problems.append("an aerial vehicle contains no terra or aquatic drive")
    if kind == "aquatic":
        if count["aquatic_drive"] < 1:
            problems.append("an aquatic vehicle must contain at least one Aquatic Drive")
        if count["terra_drive"] or count["aerial_drive"]:
            problems.append("an aquatic vehicle must not contain terra or aerial drives")
    return problems


def validate(sheet: Any) -> Json:
    """The datasheet, checked; RulesetError lists every problem in one sentence."""
    errors = _shape_errors(sheet)
    if not errors:
        keys = [s["key"] for s in sheet["sections"]]
        if len(set(keys)) != len(keys):
            errors.append("section keys must be different")
        wkeys = [w["key"] for w in sheet["weapons"]]
        if len(set(wkeys)) != len(wkeys):
            errors.append("weapon keys must be different")
        kinds = {s["key"]: s["kind"] for s in sheet["sections"]}
        for w in sheet["weapons"]:
            if w["section"] not in kinds:
                errors.append(f"weapon {w['key']} sits on section {w['section']!r}, which "
                              "the datasheet does not have")
            elif w["mount"] == "equipped" and kinds[w["section"]] != "arm":
                errors.append(f"weapon {w['key']} is equipped: it is held in an arm's hand")
        errors += unit_type_problems(sheet["type"], sheet["sections"],
                                     sheet.get("systems", []), sheet["weapons"],
                                     sheet.get("drone", "none"), sheet["pilot"])
    if errors:
        name = sheet.get("key", "?") if isinstance(sheet, dict) else "?"
        raise RulesetError(f"Datasheet {name}: " + "; ".join(errors) + ".")
    return dict(sheet)


def validate_all(sheets: Any) -> list[Json]:
    if not isinstance(sheets, list):
        raise RulesetError("thirtymm_datasheets must be a list of datasheets.")
    out = [validate(s) for s in sheets]
    keys = [s["key"] for s in out]
    dupes = sorted(k for k, n in Counter(keys).items() if n > 1)
    if dupes:
        raise RulesetError(f"Datasheet keys must be different: {', '.join(dupes)}.")
    return out


def total_defense(sheet: Mapping[str, Any]) -> int:
    """"This is determined by the Total Defense value of all of Core Parts combined."""
    return sum(int(s["defense"]) for s in sheet["sections"])


def price(sheet: Mapping[str, Any], cost_per_sc: int) -> int:
    """R-30-2: SC = deployment cost / `thirtymm_cost_per_sc`, rounded up."""
    return math.ceil(int(sheet["deployment_cost"]) / max(1, int(cost_per_sc)))


def _section(key: str, kind: str, durability: int, defense: int) -> Json:
    return {"key": key, "kind": kind, "durability": durability, "defense": defense}


def _weapon(key: str, name: str, kind: str, rng: int, damage: int, ap: int, mount: str,
            section: str, **flags: bool) -> Json:
    return {"key": key, "name": name, "kind": kind, "range": rng, "damage": damage,
            "ap": ap, "mount": mount, "section": section, **flags}


#: R-30-3: the starter set, one of each unit type the seed names, built so each meets its
#: type's requirements and lands in a different classification.
STARTERS: tuple[Json, ...] = (
    {"key": "standard_mech", "name": "Standard mech", "type": "mech", "drone": "none",
     "pilot": "rookie", "accuracy": 5, "assault": 5, "evasion": 6,
     "sections": [_section("head", "head", 10, 20), _section("torso", "torso", 30, 40),
                  _section("left_arm", "arm", 15, 20), _section("right_arm", "arm", 15, 20),
                  _section("left_leg", "leg", 20, 25), _section("right_leg", "leg", 20, 25)],
     "weapons": [_weapon("beam_rifle", "Beam rifle", "ranged", 5, 8, 3, "equipped",
                         "right_arm"),
                 _weapon("beam_saber", "Beam saber", "melee", 1, 10, 2, "equipped",
                         "left_arm"),
                 _weapon("head_vulcan", "Head vulcan", "ranged", 2, 2, 1, "mounted", "head")],
     "systems": ["thrusters"], "mods": [], "deployment_cost": 600,
     "ruling": "R-30-3: the seed's 'Mechs normally have a head, two arms, two legs, as well "
               "as a Torso'; Total Defense 150, class 2."},
    {"key": "assault_tank", "name": "Assault tank", "type": "terrestrial", "drone": "none",
     "pilot": "rookie", "accuracy": 5, "assault": 7, "evasion": 7,
     "sections": [_section("cockpit", "cockpit", 30, 50),
                  _section("left_tread", "terra_drive", 20, 40),
                  _section("right_tread", "terra_drive", 20, 40)],
     "weapons": [_weapon("main_cannon", "Main cannon", "ranged", 7, 12, 7, "mounted",
                         "cockpit", main_cannon=True),
                 _weapon("machine_gun", "Machine gun", "ranged", 3, 3, 1, "mounted",
                         "cockpit")],
     "systems": [], "mods": [], "deployment_cost": 500,
     "ruling": "R-30-3: 'at least two Terra Drive Unit Sections'; Total Defense 130, class 2;"
               " its main cannon costs 7 AP, 4 after the terrestrial reduction."},
    {"key": "gunship", "name": "Gunship", "type": "aerial", "drone": "none",
     "pilot": "rookie", "accuracy": 5, "assault": 7, "evasion": 5,
     "sections": [_section("cockpit", "cockpit", 20, 30),
                  _section("rotor", "aerial_drive", 15, 25)],
     "weapons": [_weapon("missile_pod", "Missile pod", "ranged", 4, 5, 2, "mounted",
                         "cockpit", missile_pod=True),
                 _weapon("chin_gun", "Chin gun", "ranged", 2, 4, 2, "mounted", "cockpit")],
     "systems": ["thrusters", "hover", "flight"], "mods": [], "deployment_cost": 450,
     "ruling": "R-30-3: 'at least one Flight Core Part'; Total Defense 55, class 1."},
    {"key": "patrol_boat", "name": "Patrol boat", "type": "aquatic", "drone": "none",
     "pilot": "rookie", "accuracy": 5, "assault": 7, "evasion": 6,
     "sections": [_section("cockpit", "cockpit", 25, 35),
                  _section("hull_drive", "aquatic_drive", 20, 30)],
     "weapons": [_weapon("missile_pod", "Missile pod", "ranged", 6, 5, 2, "mounted",
                         "cockpit", missile_pod=True),
                 _weapon("deck_gun", "Deck gun", "ranged", 4, 6, 2, "mounted", "cockpit")],
     "systems": ["cruise"], "mods": [], "deployment_cost": 350,
     "ruling": "R-30-3: 'at least one Aquatic Drive Unit Section'; Total Defense 65, class 1;"
               " it fights from the river (R-30-10)."},
    {"key": "scout_drone", "name": "Scout drone", "type": "mech", "drone": "ai",
     "pilot": "ai", "accuracy": 6, "assault": 6, "evasion": 5,
     "sections": [_section("core", "ai_cockpit", 10, 15),
                  _section("left_leg", "leg", 8, 10), _section("right_leg", "leg", 8, 10)],
     "weapons": [_weapon("drone_gun", "Drone gun", "ranged", 3, 3, 1, "mounted", "core")],
     "systems": [], "mods": [], "deployment_cost": 200,
     "ruling": "R-30-3: an A.I. drone is its own unit: 'The pilot for this Unit must be an "
               "AI'; a single AI Cockpit on two legs; Total Defense 35, class 1."},
)
