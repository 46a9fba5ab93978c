"""A whole campaign as one versioned JSON document (issue 18; API.md "Trust":
`GET /api/campaigns/{id}/export/` for the umpire, `manage.py export_campaign`).

The core writes its own tables (campaign, settings and ruleset, players, phases, the
journal with each entry's visibility, the dice: commitments, and seeds once revealed);
every other app registers the sections of its tables (`sections_exported`): territories
(map, explorations, passages), economy (holdings, ledger, trades...), orders (orders
once revealed), battles (inputs, logs, records). The document's shape is published as
a JSON Schema (docs/export.schema.json). Never in it: sealed orders, an open phase's
seed, the invite code.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import re
import secrets
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import (
    BinaryField,
    BooleanField,
    DateField,
    DateTimeField,
    DecimalField,
    DurationField,
    FloatField,
    JSONField,
    Model,
    QuerySet,
    TextField,
    TimeField,
    UUIDField,
)
from django.db.models.functions import Cast
from django.utils import timezone

from campaign import rulesets
from campaign.hooks import Hook
from campaign.models import Campaign, Event, PhaseChange, PhaseSeed, PhaseStart, Player
from campaign.sql import column_of

FORMAT = "unlimit3d-campaign"
#: 2: each player has its `faction` (issue 14); version 1 documents are read and upgraded
#: by `campaign.services.imports.upgrade`.
VERSION = 2

sections_exported: Hook[[Campaign], dict[str, list[dict[str, Any]]]] = Hook(
    "sections_exported", """An app's sections of a campaign's export document.

Called by `campaign.services.export` (`export_campaign`, its text and SQL forms: the
download, a rollback point, a sandbox) with the campaign; a receiver returns {section
name: rows}, each row a dict of column values (`rows`). `is_complete()` says whether the
document is a complete one (a rollback point, never shown), so the orders app keeps
sealed orders out of the others. Receivers are keyed by app (`key="economy"`).""")


#: Set while an exporter runs for a complete document (a rollback point, never shown):
#: `is_complete()` then lets it keep its secrets (the orders app: sealed orders).
_complete: contextvars.ContextVar[bool] = contextvars.ContextVar("export_complete",
                                                                 default=False)


def is_complete() -> bool:
    """The document being exported is complete (`export_campaign(complete=True)`)."""
    return _complete.get()


class _RawJSON:
    """A JSON column's text as the database holds it, written into the document as it is
    (`export_campaign_text`): decoding every row's JSON only to encode it again is most
    of the time a complete export takes."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


#: Set while `export_campaign_text` runs: `rows` then reads JSON columns as text.
_raw_json: contextvars.ContextVar[bool] = contextvars.ContextVar("export_raw_json",
                                                                 default=False)


class _SQLRows(list):  # type: ignore[type-arg]
    """`rows` on PostgreSQL for `export_campaign_sql`: the statement that builds the
    section (a JSON array of the rows, in id order) in the database."""

    def __init__(self, sql: str, params: tuple[Any, ...]) -> None:
        super().__init__()
        self.sql, self.params = sql, params


#: Set while `export_campaign_sql` runs: `rows` then returns statements.
_in_database: contextvars.ContextVar[bool] = contextvars.ContextVar("export_in_database",
                                                                    default=False)


#: Times and durations spelt in SQL as `ExportEncoder` spells them in Python.
_UTC_MS = """to_char({c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"""
_ISO_DURATION = (
    "CASE WHEN {c} IS NULL THEN NULL ELSE 'P' || extract(day from justify_hours({c}))::int"
    " || 'DT' || lpad(extract(hour from {c})::int::text, 2, '0') || 'H'"
    " || lpad(extract(minute from {c})::int::text, 2, '0') || 'M'"
    " || lpad(floor(extract(second from {c}))::int::text, 2, '0')"
    " || CASE WHEN mod(extract(microseconds from {c})::bigint, 1000000) <> 0 THEN '.'"
    " || lpad(mod(extract(microseconds from {c})::bigint, 1000000)::text, 6, '0')"
    " ELSE '' END || 'S' END")


def _rows_sql(qs: QuerySet[Any], names: list[str], extra: str = "") -> _SQLRows:
    model: type[Model] = qs.model
    sql, params = qs.order_by("pk").values(*names).query.sql_with_params()
    quote = connection.ops.quote_name
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    columns = []
    for name in names:
        field = by_attname[name]
        column = f"r.{quote(column_of(field))}"
        if isinstance(field, DateTimeField):
            columns.append(f"{_UTC_MS.format(c=column)} AS {quote(name)}")
        elif isinstance(field, DurationField):
            columns.append(f"{_ISO_DURATION.format(c=column)} AS {quote(name)}")
        else:
            columns.append(f"{column} AS {quote(name)}")
    pk = quote(column_of(model._meta.pk))
    return _SQLRows(f"(SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t.{pk}), '[]'::jsonb) FROM "
                    f"(SELECT {', '.join(columns)}{extra} FROM ({sql}) r) t)", tuple(params))


class _SQLiteRows(list):  # type: ignore[type-arg]
    """`rows` on SQLite for `export_campaign_text`: the section as the JSON text SQLite
    built from its rows (they never become Python values)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


#: Set while `export_campaign_text` runs on SQLite: `rows` then has SQLite write each
#: section as JSON text (`_rows_sqlite`), the keeping of a phase start's cost (issue 32).
_in_sqlite: contextvars.ContextVar[bool] = contextvars.ContextVar("export_in_sqlite",
                                                                  default=False)

#: A time in SQLite's text (Django writes "YYYY-MM-DD HH:MM:SS[.ffffff]", UTC) spelt as
#: `ExportEncoder` spells it: milliseconds, truncated, always written.
_SQLITE_UTC_MS = ("CASE WHEN {c} IS NULL THEN NULL ELSE substr({c}, 1, 10) || 'T' || "
                  "substr({c}, 12, 8) || '.' || substr(substr({c}, 21) || '000', 1, 3) "
                  "|| 'Z' END")


def _sqlite_value(field: Any, column: str) -> str | None:
    """The SQLite expression of one column's value in the JSON document (None: a kind
    of column not spelt here, so the section is read in Python)."""
    if isinstance(field, JSONField):
        return f"json({column})"
    if isinstance(field, BooleanField):
        return (f"CASE WHEN {column} IS NULL THEN NULL WHEN {column} THEN json('true') "
                f"ELSE json('false') END")
    if isinstance(field, DateTimeField):
        return _SQLITE_UTC_MS.format(c=column)
    if isinstance(field, FloatField):  # 17 digits: the same double read back
        return (f"CASE WHEN {column} IS NULL THEN NULL "
                f"ELSE json(printf('%%!.17g', {column})) END")
    if isinstance(field, (DurationField, DecimalField, DateField, TimeField, UUIDField,
                          BinaryField)):
        return None
    return column


def _rows_sqlite(qs: QuerySet[Any], fields: list[Any]) -> _SQLiteRows | None:
    """The rows of `rows` as SQLite's JSON text (an array of objects in id order), or
    None when a column is of a kind `_sqlite_value` does not spell."""
    statement = _section_sqlite(qs, fields)
    if statement is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        text: str = cursor.fetchone()[0]
    return _SQLiteRows(text)


class _SQLiteSection(_SQLRows):
    """`rows` on SQLite for `export_campaign_sql`: the statement that has SQLite write the
    section as JSON (`_rows_sqlite`'s, not run), so the document is built in the database
    as on PostgreSQL."""


#: Set while `export_campaign_sql` runs on SQLite: `rows` then returns statements.
_in_sqlite_sql: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "export_in_sqlite_sql", default=False)


def _section_sqlite(qs: QuerySet[Any], fields: list[Any]) -> tuple[str, list[Any]] | None:
    """The SQLite statement of `_rows_sqlite` (a JSON array of the rows as objects, in id
    order), or None when a column is of a kind `_sqlite_value` does not spell."""
    quote = connection.ops.quote_name
    pairs = []
    for field in fields:
        value = _sqlite_value(field, f"r.{quote(column_of(field))}")
        if value is None:
            return None
        pairs.append(f"'{field.attname}', {value}")
    sql, params = qs.order_by("pk").values(*[f.attname for f in fields]).query \
        .sql_with_params()
    # The subquery's order is the array's (SQLite does not flatten an ordered subquery
    # into an aggregate).
    return (f"SELECT json_group_array(json_object({', '.join(pairs)})) FROM ({sql}) r",
            list(params))


def rows(qs: QuerySet[Any], exclude: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Every concrete field of every row (foreign keys as ids), in id order."""
    model: type[Model] = qs.model
    fields = [f for f in model._meta.concrete_fields if f.name not in exclude]
    if _in_database.get():
        return _rows_sql(qs, [f.attname for f in fields])
    if _in_sqlite_sql.get():
        statement = _section_sqlite(qs, fields)
        if statement is not None:
            return _SQLiteSection(f"({statement[0]})", tuple(statement[1]))
        return [dict(r) for r in qs.order_by("pk").values(*[f.attname for f in fields])]
    if _in_sqlite.get():
        found = _rows_sqlite(qs, fields)
        if found is not None:
            return found
    if not _raw_json.get() or not any(isinstance(f, JSONField) for f in fields):
        return [dict(r) for r in qs.order_by("pk").values(*[f.attname for f in fields])]
    texts = {f"_raw_{f.attname}": Cast(f.attname, output_field=TextField())
             for f in fields if isinstance(f, JSONField)}
    names = [f.attname for f in fields if not isinstance(f, JSONField)]
    result = []
    for r in qs.order_by("pk").values(*names, **texts):
        row = {}
        for f in fields:
            if isinstance(f, JSONField):
                text = r[f"_raw_{f.attname}"]
                row[f.attname] = None if text is None else _RawJSON(text)
            else:
                row[f.attname] = r[f.attname]
        result.append(row)
    return result


def _python_rows(qs: QuerySet[Any]) -> list[dict[str, Any]]:
    """`rows` read in Python whatever the export (rows a caller goes on working with)."""
    token, statements = _in_sqlite.set(False), _in_sqlite_sql.set(False)
    try:
        return rows(qs)
    finally:
        _in_sqlite_sql.reset(statements)
        _in_sqlite.reset(token)


def _journal(campaign: Campaign, complete: bool = False) -> list[dict[str, Any]]:
    """Every entry with its visibility and readers; entries that hold sealed orders are
    left out until those orders are revealed (the move phase of this turn)."""
    qs = Event.objects.filter(campaign=campaign)
    if campaign.phase == "move" and not complete:
        qs = qs.exclude(sealed=True, turn=campaign.turn)
    if _in_database.get():
        through = connection.ops.quote_name(Event.viewers.through._meta.db_table)
        return _rows_sql(qs, [f.attname for f in Event._meta.concrete_fields], extra=(
            f", (SELECT coalesce(jsonb_agg(v.player_id ORDER BY v.player_id), '[]'::jsonb) "
            f"FROM {through} v WHERE v.event_id = r.id) AS viewers"))
    readers: dict[int, list[int]] = {}
    for event_id, player_id in Event.viewers.through.objects.filter(
            event__campaign=campaign).values_list("event_id", "player_id"):
        readers.setdefault(event_id, []).append(player_id)
    found = _python_rows(qs)
    for row in found:
        row["viewers"] = sorted(readers.get(row["id"], []))
    return found


def journal_until(campaign_id: int, through: int) -> list[dict[str, Any]]:
    """The journal of a complete document as it stood when its last entry was `through`
    (a phase start's, `PhaseStart.document`): the entries up to that id, as
    `export_campaign` writes them."""
    qs = Event.objects.filter(campaign_id=campaign_id, pk__lte=through)
    readers: dict[int, list[int]] = {}
    for event_id, player_id in Event.viewers.through.objects.filter(
            event__campaign_id=campaign_id, event_id__lte=through).values_list(
            "event_id", "player_id"):
        readers.setdefault(event_id, []).append(player_id)
    found = _python_rows(qs)
    for row in found:
        row["viewers"] = sorted(readers.get(row["id"], []))
    entries: list[dict[str, Any]] = json.loads(json.dumps(found, cls=ExportEncoder))
    return entries


def last_entry(campaign: Campaign) -> int:
    """The id of the campaign's last journal entry (0: none), one indexed read."""
    found = (Event.objects.filter(campaign=campaign).order_by("-pk")
             .values_list("pk", flat=True).first())
    return found or 0


def export_campaign(campaign: Campaign, *, complete: bool = False) -> dict[str, Any]:
    """The document; `complete` (a rollback point, never shown to anyone) also keeps
    sealed orders, the entries that hold them, every seed and the seats' state."""
    # One JSON round trip: dates as ISO text, the same document whatever the caller.
    document: dict[str, Any] = json.loads(
        json.dumps(_document(campaign, complete=complete), cls=ExportEncoder))
    return document


def _document(campaign: Campaign, *, complete: bool, journal: bool = True
              ) -> dict[str, Any]:
    info = rulesets.get(campaign.settings.ruleset)
    document: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exported_at": timezone.now(),
        "campaign": {"id": campaign.pk, "name": campaign.name, "status": campaign.status,
                     "turn": campaign.turn, "phase": campaign.phase, "seed": campaign.seed,
                     "created_at": campaign.created_at, "umpire": campaign.umpire.username},
        "settings": campaign.settings.as_dict(),
        "ruleset": {"name": campaign.settings.ruleset,
                    "version": info.version if info else None},
        "catalogue": info.catalogue(None, campaign.settings.ruleset_options) if info else [],
        # An unclaimed seat (an import's) under the name it was imported with.
        "players": [{"id": p.pk, "username": p.user.first_name if p.claim_code
                     else p.user.get_username(), "color": p.color,
                     "credits": p.credits, "research_points": p.research_points,
                     "missed_turns": p.missed_turns, "faction": p.faction}
                    for p in Player.objects.filter(campaign=campaign).select_related("user")
                    .order_by("pk")],
        "phases": rows(PhaseChange.objects.filter(campaign=campaign)),
        **({"journal": _journal(campaign, complete)} if journal
           else {PhaseStart.JOURNAL_THROUGH: last_entry(campaign)}),
        "dice": [{"turn": s.turn, "phase": s.phase, "commitment": s.commitment,
                  "seed": s.secret if s.revealed_at else None}
                 for s in PhaseSeed.objects.filter(campaign=campaign)],
    }
    if complete:
        document["seeds"] = rows(PhaseSeed.objects.filter(campaign=campaign))
        document["seats"] = rows(Player.objects.filter(campaign=campaign))
        found = rows(Campaign.objects.filter(pk=campaign.pk))
        document["campaign_row"] = (
            _python_rows(Campaign.objects.filter(pk=campaign.pk))[0]
            if isinstance(found, (_SQLiteRows, _SQLiteSection))
            else _SQLRows(f"({found.sql}) -> 0", found.params) if isinstance(found, _SQLRows)
            else found[0])
    token = _complete.set(complete)
    try:
        # By app name, as the document always was (the JSON keeps the sections' order).
        for connection in sorted(sections_exported.connections(), key=lambda c: c.key):
            document.update(connection.fn(campaign))
    finally:
        _complete.reset(token)
    return document


def export_campaign_sql(campaign: Campaign, *, complete: bool = False, journal: bool = True
                        ) -> tuple[str, tuple[Any, ...]]:
    """An SQL expression (and its parameters) that builds the document of
    `export_campaign` in the database, the rows never leaving it (the clock keeps a
    complete one at every phase opening). On PostgreSQL as jsonb: times come as
    PostgreSQL writes them (ISO 8601 with an offset), which every reader of the document
    parses alike. On SQLite as JSON text, the document of `export_campaign_text` (`journal`
    must be False there: the journal's readers are read in Python)."""
    if connection.vendor == "sqlite":
        return _export_sqlite_sql(campaign, complete=complete, journal=journal)
    token = _in_database.set(True)
    try:
        document = _document(campaign, complete=complete, journal=journal)
    finally:
        _in_database.reset(token)
    plain = {k: v for k, v in document.items() if not isinstance(v, _SQLRows)}
    sections = [(k, v) for k, v in document.items() if isinstance(v, _SQLRows)]
    params: list[Any] = [json.dumps(plain, cls=ExportEncoder)]
    parts = []
    for i in range(0, len(sections), 40):  # jsonb_build_object takes 100 arguments
        pairs = []
        for key, section in sections[i:i + 40]:
            pairs.append(f"%s, {section.sql}")
            params += [key, *section.params]
        parts.append(f"jsonb_build_object({', '.join(pairs)})")
    return "(%s::jsonb || " + " || ".join(parts) + ")", tuple(params)


#: Pairs of one json_object call (SQLite takes at most 127 arguments a function).
_SQLITE_PAIRS = 50


def _export_sqlite_sql(campaign: Campaign, *, complete: bool, journal: bool
                       ) -> tuple[str, tuple[Any, ...]]:
    """`export_campaign_sql` on SQLite: one json_object of the document's keys in their
    order, each section the statement that has SQLite write it (issue 32: a phase start's
    rows never travel to Python and back as one parameter of megabytes)."""
    if journal:
        raise ValueError("On SQLite the journal is exported as text (export_campaign_text).")
    token = _in_sqlite_sql.set(True)
    try:
        document = _document(campaign, complete=complete, journal=journal)
    finally:
        _in_sqlite_sql.reset(token)
    parts = []
    params: list[Any] = []
    items = list(document.items())
    for i in range(0, len(items), _SQLITE_PAIRS):
        pairs = []
        for key, value in items[i:i + _SQLITE_PAIRS]:
            if isinstance(value, _SQLiteSection):
                pairs.append(f"%s, {value.sql}")
                params += [key, *value.params]
            else:
                pairs.append("%s, json(%s)")
                params += [key, json.dumps(value, cls=ExportEncoder)]
        parts.append(f"json_object({', '.join(pairs)})")
    sql = parts[0]
    for part in parts[1:]:  # the keys of the next object after those of the first
        sql = f"json_patch({sql}, {part})"
    return f"({sql})", tuple(params)


def export_campaign_text(campaign: Campaign, *, complete: bool = False,
                         journal: bool = True) -> str:
    """`export_campaign` as JSON text, with the JSON columns copied as the database holds
    them instead of decoded and encoded again: the same document, in a fraction of the
    time (the clock keeps one, complete, at every phase opening)."""
    token = _raw_json.set(True)
    # On SQLite the database writes each section's JSON (the rows never become Python
    # values), as PostgreSQL does for `export_campaign_sql`.
    in_sqlite = _in_sqlite.set(connection.vendor == "sqlite")
    try:
        document = _document(campaign, complete=complete, journal=journal)
    finally:
        _in_sqlite.reset(in_sqlite)
        _raw_json.reset(token)
    document = {k: _RawJSON(v.text) if isinstance(v, _SQLiteRows) else v
                for k, v in document.items()}
    raws: list[str] = []
    nonce = secrets.token_hex(8)  # no text of the campaign can spell a placeholder

    class Encoder(ExportEncoder):
        def default(self, o: Any) -> Any:
            if isinstance(o, _RawJSON):
                raws.append(o.text)
                return f"\x00{nonce}:{len(raws) - 1}\x00"
            return super().default(o)

    text = json.dumps(document, cls=Encoder)
    # A placeholder comes out of the encoder as "\u0000<nonce>:<n>\u0000".
    placeholder = re.compile(r'"\\u0000' + nonce + r':(\d+)\\u0000"')
    return placeholder.sub(lambda m: raws[int(m.group(1))], text)


class ExportEncoder(DjangoJSONEncoder):
    """Every time with its milliseconds, even when they are zero. DjangoJSONEncoder drops
    the fraction of a time whose microseconds are 0, so a time exported as ".000Z" (and
    stored so by an import) came back as "...56Z": an export of the copy differed from
    the original's by its spelling alone."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime) and timezone.is_aware(o):
            return o.astimezone(datetime.UTC).isoformat(timespec="milliseconds") \
                .replace("+00:00", "Z")
        return super().default(o)
