"""The tabletop result form of any ruleset, drawn from the JSON Schema the ruleset
publishes (`tabletop_schema`) and the battle's input: what a person reads off the table in
the ruleset's own words (30 Minute Missions: sections destroyed, damage per section, AP
stored; one-page: figures lost; battle dice: hits and void shields; Unlimit3d 8: fate and
hit points), and the parsing of the posted form back into the report the API takes.

`fields(...)` lists the inputs; `parse(...)` builds the report (the service then checks it
against the schema and the ruleset, exactly as for `POST .../tabletop/`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from campaign.errors import InvalidInput

Json = dict[str, Any]


class FormData(Protocol):
    def get(self, key: str, default: Any = None) -> Any: ...

    def getlist(self, key: str) -> list[str]: ...


@dataclass(frozen=True)
class Input:
    """One control: `kind` is number, checkbox, select, text or choices (checkboxes)."""

    name: str
    label: str
    kind: str
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    options: tuple[tuple[str, str], ...] = ()


@dataclass
class UnitBlock:
    id: int
    name: str
    side: str
    inputs: list[Input] = field(default_factory=list)


@dataclass
class Form:
    winners: list[tuple[str, str]]
    top: list[Input]
    units: list[UnitBlock]


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _int_bounds(spec: Json) -> tuple[int | None, int | None]:
    return spec.get("minimum"), spec.get("maximum")


def _is_int(spec: Json) -> bool:
    kind = spec.get("type")
    return kind == "integer" or (isinstance(kind, list) and "integer" in kind)


def _section_keys(unit: Json) -> list[str]:
    return [str(s["key"]) for s in unit.get("sections") or () if isinstance(s, dict)
            and "key" in s]


def _unit_inputs(uid: int, unit: Json, props: Mapping[str, Json]) -> list[Input]:
    out = []
    for key, spec in props.items():
        if key == "id":
            continue
        name, label, hint = f"u{uid}.{key}", _label(key), str(spec.get("description", ""))
        if "enum" in spec:
            out.append(Input(name, label, "select", hint,
                             options=tuple((str(v), _label(str(v))) for v in spec["enum"])))
        elif _is_int(spec):
            lo, hi = _int_bounds(spec)
            out.append(Input(name, label, "number", hint, lo, hi))
        elif spec.get("type") == "boolean":
            out.append(Input(name, label, "checkbox", hint))
        elif spec.get("type") == "array":
            items = spec.get("items") or {}
            choices = ([str(v) for v in items["enum"]] if "enum" in items
                       else _section_keys(unit) if items.get("type") == "string" else [])
            if choices:
                out.append(Input(name, label, "choices", hint,
                                 options=tuple((c, _label(c)) for c in choices)))
        elif spec.get("type") == "object" and _is_int(spec.get("additionalProperties") or {}):
            lo, hi = _int_bounds(spec["additionalProperties"])
            for section in _section_keys(unit):
                out.append(Input(f"{name}.{section}", f"{label}: {_label(section)}",
                                 "number", hint, lo, hi))
    return out


def fields(schema: Json, battle_input: Json, names: Mapping[int, str]) -> Form:
    """The form for one battle: the winner, the report's other top-level entries a person
    can type (text, a number per side), and one block of inputs per unit that fought."""
    sides = [str(s) for s in (battle_input.get("sides") or {})]
    winners = [("", "Nobody (a draw)")] + [
        (s, names.get(int(s), f"player {s}") if s.isdigit() else s) for s in sides]
    props: Mapping[str, Json] = schema.get("properties") or {}
    top: list[Input] = []
    for key, spec in props.items():
        if key in ("winner", "units"):
            continue
        if spec.get("type") == "string":
            top.append(Input(key, _label(key), "text", str(spec.get("description", ""))))
        elif spec.get("type") == "object" and _is_int(spec.get("additionalProperties") or {}):
            lo, hi = _int_bounds(spec["additionalProperties"])
            for s, who in winners[1:]:
                top.append(Input(f"{key}.{s}", f"{_label(key)}: {who}", "number",
                                 str(spec.get("description", "")), lo, hi))
    unit_props = ((props.get("units") or {}).get("items") or {}).get("properties") or {}
    units = []
    for side, roster in (battle_input.get("sides") or {}).items():
        for unit in roster:
            uid = int(unit["id"])
            units.append(UnitBlock(uid, str(unit.get("name") or f"Unit {uid}"), str(side),
                                   _unit_inputs(uid, unit, unit_props)))
    return Form(winners=winners, top=top, units=units)


def _number(data: FormData, inp: Input) -> int | None:
    raw = str(data.get(inp.name, "") or "").strip()
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise InvalidInput(f"{inp.label} must be a whole number (got {raw[:20]!r}).",
                           code="invalid_report") from None


def parse(form: Form, data: FormData) -> Json:
    """The report the form describes. Empty numbers and unticked boxes are left out, so
    a unit nobody touched is reported as the ruleset's default (untouched)."""
    winner_raw = str(data.get("winner", "") or "")
    if winner_raw not in {w for w, _ in form.winners}:
        raise InvalidInput("Choose the winner among the players who fought.",
                           code="invalid_winner")
    report: Json = {"winner": int(winner_raw) if winner_raw.isdigit() else None}
    for inp in form.top:
        if inp.kind == "text":
            text = str(data.get(inp.name, "") or "").strip()
            if text:
                report[inp.name] = text
        elif (value := _number(data, inp)) is not None:
            key, sub = inp.name.split(".", 1)
            report.setdefault(key, {})[sub] = value
    units = []
    for block in form.units:
        item: Json = {"id": block.id}
        for inp in block.inputs:
            key = inp.name.split(".", 1)[1]
            if inp.kind == "select":
                item[key] = str(data.get(inp.name, "") or inp.options[0][0])
            elif inp.kind == "checkbox":
                if data.get(inp.name):
                    item[key] = True
            elif inp.kind == "choices":
                picked = [v for v in data.getlist(inp.name) if v in dict(inp.options)]
                if picked:
                    item[key] = picked
            elif (value := _number(data, inp)) is not None:
                if "." in key:
                    prop, section = key.split(".", 1)
                    item.setdefault(prop, {})[section] = value
                else:
                    item[key] = value
        if len(item) > 1:
            units.append(item)
    report["units"] = units
    return report


def _words(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in sorted(value.items()))
    if isinstance(value, list):
        return ", ".join(_words(v) for v in value)
    return str(value)


def describe(proposed: Json | None, names: Mapping[int, str],
             units: Sequence[UnitBlock]) -> list[str]:
    """A proposed result in sentences (what was entered), for the players asked to
    confirm it."""
    entered: Any = None
    for entry in (proposed or {}).get("log") or ():
        if isinstance(entry, dict) and entry.get("event") == "tabletop":
            entered = entry.get("entered")
    if not isinstance(entered, dict):
        return []
    winner = entered.get("winner")
    lines = [f"Winner: {names.get(int(winner), winner) if winner is not None else 'nobody'}"]
    # Keys in name order: PostgreSQL's jsonb does not keep the order they were entered in.
    for key, value in sorted(entered.items()):
        if key not in ("winner", "units") and value not in (None, "", {}, []):
            lines.append(f"{_label(key)}: {_words(value)}")
    by_id: dict[int | None, str] = {u.id: u.name for u in units}
    for item in entered.get("units") or ():
        if not isinstance(item, dict):
            continue
        parts = [f"{_label(k).lower()} {_words(v)}" for k, v in sorted(item.items())
                 if k != "id"]
        lines.append(f"{by_id.get(item.get('id'), item.get('id'))}: {'; '.join(parts)}")
    return lines
