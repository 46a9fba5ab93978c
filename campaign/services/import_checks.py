"""The whole import document checked before anything is written (issue 30.1; API.md
"Trust (wave 3)"): first against the published JSON Schema (docs/export.schema.json),
then the rules a schema cannot state: every row's values fit its column (types, lengths,
ranges, choices), ids are unique, names that must be unique are, and every reference
names a row of the document loaded before it. The first fault is a 400 `invalid_import`
whose `fields` names its path (`players[2].username`)."""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from jsonschema import Draft202012Validator
from jsonschema.exceptions import relevance

from campaign.errors import InvalidInput
from campaign.models import Campaign, Phase, Player


def path_of(parts: Iterable[Any]) -> str:
    """`players[2].username` for ("players", 2, "username")."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


def refuse(parts: Iterable[Any], sentence: str) -> InvalidInput:
    where = path_of(parts)
    return InvalidInput(f"The document cannot be imported: {where}: {sentence}",
                        code="invalid_import", fields={where: sentence})


@functools.cache
def _validator() -> Any:
    schema = json.loads((Path(settings.BASE_DIR) / "docs" / "export.schema.json")
                        .read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def check_schema(document: object) -> None:
    """The published schema; the first fault (in document order) refused by its path."""
    errors = list(_validator().iter_errors(document))
    if errors:
        error = min(errors, key=lambda e: (len(e.absolute_path) == 0, relevance(e)))
        where = list(error.absolute_path)
        if error.validator == "required" and isinstance(error.instance, dict):
            missing = [k for k in error.validator_value if k not in error.instance]
            if missing:  # name the missing field itself
                raise refuse([*where, missing[0]], "is missing.")
        message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
        raise refuse(where, f"is not valid ({message}).")


def check_head(document: dict[str, Any]) -> None:
    """The campaign itself and its seats."""
    head = document["campaign"]
    name_field = Campaign._meta.get_field("name")
    assert isinstance(name_field, models.CharField)
    if not head["name"].strip() or len(head["name"]) > (name_field.max_length or 120):
        raise refuse(("campaign", "name"), f"must be 1 to {name_field.max_length} "
                     "characters.")
    if head["status"] not in Campaign.Status.values:
        raise refuse(("campaign", "status"), "must be one of "
                     f"{', '.join(Campaign.Status.values)}.")
    if head["phase"] not in ("", *Phase.values):
        raise refuse(("campaign", "phase"), f"must be one of {', '.join(Phase.values)} "
                     "or empty.")
    for key in ("turn", "seed"):
        value = head[key]
        if not 0 <= value <= 2**31 - 1:
            raise refuse(("campaign", key), "must be a whole number from 0 to 2147483647.")
    if head.get("created_at") is not None:
        _value(Campaign._meta.get_field("created_at"), head["created_at"],
               ("campaign", "created_at"))
    seen_ids: set[int] = set()
    seen_names: set[str] = set()
    for i, p in enumerate(document["players"]):
        if p["id"] in seen_ids:
            raise refuse(("players", i, "id"), "repeats another seat's id.")
        seen_ids.add(p["id"])
        name = p["username"]
        if not name.strip() or len(name) > 120:
            raise refuse(("players", i, "username"), "must be 1 to 120 characters.")
        if name in seen_names:
            raise refuse(("players", i, "username"), "repeats another seat's name.")
        seen_names.add(name)
        for key, field in (("credits", "credits"), ("research_points", "research_points"),
                           ("missed_turns", "missed_turns"), ("color", "color")):
            if p.get(key) is not None:
                _value(Player._meta.get_field(field), p[key], ("players", i, key))
        if p["credits"] < 0:
            raise refuse(("players", i, "credits"), "may not be negative.")


def _value(field: Any, value: Any, where: tuple[Any, ...]) -> Any:
    """`value` as the column stores it, or the refusal naming `where`."""
    if value is None:
        if field.null:
            return None
        raise refuse(where, "may not be null.")
    if isinstance(field, models.JSONField):
        return value
    if isinstance(value, (dict, list)):
        raise refuse(where, "must be a single value, not a list or an object.")
    if isinstance(field, (models.IntegerField, models.FloatField, models.DecimalField)) \
            and isinstance(value, str):
        raise refuse(where, "must be a number.")
    if isinstance(field, models.BooleanField) and not isinstance(value, bool):
        raise refuse(where, "must be true or false.")
    if isinstance(field, (models.DateTimeField, models.DateField, models.DurationField)) \
            and not isinstance(value, str):
        raise refuse(where, "must be a date or time written as text.")
    try:
        python = field.to_python(value)
        if python is None and not field.null:
            raise ValidationError("empty")
        field.run_validators(python)
        if field.choices and python not in {k for k, _label in field.flatchoices}:
            raise ValidationError("choice")
    except (ValidationError, ValueError, TypeError, OverflowError):
        raise refuse(where, _expected(field)) from None
    if isinstance(python, datetime.datetime) and timezone.is_naive(python):
        python = timezone.make_aware(python, datetime.UTC)  # a time without a zone: UTC
    return python


def _expected(field: Any) -> str:
    if field.choices:
        listed = ", ".join(str(k) for k, _label in field.flatchoices)
        return f"must be one of {listed[:300]}."
    if isinstance(field, models.CharField):
        return f"must be text of at most {field.max_length} characters."
    if isinstance(field, models.IntegerField):
        return "must be a whole number in the range the column holds."
    if isinstance(field, (models.DateTimeField, models.DateField)):
        return "must be a date and time in ISO 8601."
    if isinstance(field, models.DurationField):
        return "must be a duration."
    return "is not a valid value."
