"""Unlimit3d 8's rule tables as JSON, in the shape of `GET /api/rules/` (docs API.md,
"The rules"): the strategic layer's (`campaign.rules.tables`) and its battle's
(`tables.py`), one document (`Unlimit3d8.tables`).

Pure Python; the view only returns `rules_as_json()`. Energy "None" is 0 and a "-"
of the seed is null. Keys beyond the contract are additions (allowed by API.md).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from battles.rulesets.unlimit3d8 import tables as bt
from campaign.rules import tables as t


def _plain(value: Any) -> Any:
    """Dataclasses, tuples and dicts to JSON-native dicts, lists and scalars."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _without_key(spec: Any) -> dict[str, Any]:
    data: dict[str, Any] = _plain(spec)
    data.pop("key", None)
    return data


def _constants() -> dict[str, Any]:
    names = [
        "GRID_SIZE", "STARTING_CREDITS", "STARTING_BUILDINGS", "POWER_PLANT_OUTPUT",
        "ENHANCED_GENERATORS_MULTIPLIER", "CONTAINER_UNITS", "WAREHOUSE_CONTAINERS",
        "CONTAINER_ITEM_CAPACITY", "CONTAINERS_PER_PAD", "CONVERSION_PER_TURN",
        "FACTORY_RECIPE_PER_100", "FACTORY_LIMIT", "FACTORY_LIMIT_EXTENDED", "MISSILE_COST",
        "SILO_CAPACITY", "MISSILE_DAMAGE", "MISSILE_RADIUS", "DESIGNATOR_RANGE",
        "BUNKER_CAPACITY", "FORCE_FIELD_ARMOR", "FORCE_FIELD_GENERATORS",
        "FORCE_FIELD_GENERATOR_HP", "SURVIVAL_XP", "BONUS_XP", "MAX_LEVEL",
        "BUILDING_DEFENSE", "BASE_DEFENSE_CONSTANT", "BASE_DEFENSE_MINIMUM",
        "SKILL_MULTIPLIERS", "MAX_TEMPLATES", "MAX_PASSIVE_TEMPLATES", "EXTENSION_COST",
        "EXTENSION_WEIGHT", "EXTENSION_VEHICLES", "WEAPON_WEIGHT", "SLOT_ACCEPTS",
        "PURE_PASSIVE_MIN", "PURE_PRICE_PERCENT", "UNSTABLE_NEMESIS_MAX", "UNSTABLE_FAIL_FACE",
        "DISCOVERY_NEMESIS_MIN", "WEAPON_MIN_PRICE",
    ]
    # One list, in the document's order; each constant read from the module that keeps it.
    return {name.lower(): _plain(getattr(bt if name in bt.__all__ else t, name))
            for name in names}


def rules_as_json(*, bandit_level8_row: str = "corrected",
                  xp_table_reading: str = "to_next_level") -> dict[str, Any]:
    """Every table, JSON-serialisable, for the campaign options given (defaults: R-TAB-1/2)."""
    pilot_classes = {}
    for key, spec in t.PILOT_CLASSES.items():
        pilot_classes[key] = {
            "name": spec.name,
            "hiring_cost": spec.hiring_cost,
            "levels": [_plain(t.skill_line(key, lv, bandit_level8_row=bandit_level8_row))
                       for lv in range(1, t.MAX_LEVEL + 1)],
            "bonus_xp": list(spec.bonus_xp),
            "bonus_xp_text": [t.BONUS_XP_TEXT[b] for b in spec.bonus_xp],
        }
    weapons = {}
    for key, weapon_spec in t.WEAPONS.items():
        data = _without_key(weapon_spec)
        data["size"] = t.weapon_size(key)
        weapons[key] = data
    templates = {}
    for key, template_spec in t.TEMPLATES.items():
        data = _without_key(template_spec)
        data["cost"] = template_spec.cost_text
        templates[key] = data
    return {
        "buildings": {k: _without_key(b) for k, b in t.BUILDINGS.items()},
        "resources": [
            {"key": r.key, "name": r.name, "scores": [r.low, r.high], "raw_value": r.raw_value,
             "refined_value": r.refined_value, "refined_with": list(r.refined_with)}
            for r in t.RESOURCES
        ],
        "pilot_classes": pilot_classes,
        "xp_levels": [{"level": lv, "xp": xp} for lv, xp in t.XP_LEVELS],
        "level_min_xp": [
            {"level": lv, "xp": t.xp_for_level(lv, reading=xp_table_reading)}
            for lv in range(1, t.MAX_LEVEL + 1)
        ],
        "weapons": weapons,
        "special_rules": dict(t.SPECIAL_RULES_TEXT),
        "templates": templates,
        "vehicles": {k: _without_key(v) for k, v in t.VEHICLES.items()},
        "mine_yield": [{"face": f, "units": u} for f, u in t.MINE_YIELD.items()],
        "discoveries": [_plain(d) for d in t.DISCOVERIES],
        "move_table": [
            {"weight": [low, high],
             "cells": [{"pilot_skill": col, "move_increment": inc, "max_move": mx}
                       for col, (inc, mx) in enumerate(row, start=1)]}
            for (low, high), row in zip(bt.MOVE_WEIGHT_BANDS, bt.MOVE_TABLE, strict=True)
        ],
        "shields": {k: _without_key(s) for k, s in bt.SHIELDS.items()},
        "j_row": [{"low": lo, "high": hi, "column": c, "multiplier": bt.SKILL_MULTIPLIERS[c]}
                  for lo, hi, c in bt.J_ROW],
        "constants": _constants(),
        "options": {"bandit_level8_row": bandit_level8_row,
                    "xp_table_reading": xp_table_reading},
    }


__all__ = ["rules_as_json"]
