"""Statements sent as text on the hottest request: an order POST (one per unit per player
per turn, most of them in the last minutes before the deadline).

Django compiles a queryset anew on every call: about 0.25 ms of CPU per query on the
two-core bench machine, against 0.04 ms for the same statement sent as text, and an
order POST reads five things. Issue 15's target for it (p95 under 50 clients <= 1.5x the
p95 of `GET /api/rules/`) is met by sending those few reads as text -- and only those:
everywhere else the ORM's clarity is worth more than its compile time.

Column lists are taken from the models' metadata, so a new field needs no edit here, and
rows come back as model instances (`Model.from_db`, as the ORM builds them). Every
statement built on this module has a test comparing its answer with the ORM's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model
from django.db.models.expressions import Col

M = TypeVar("M", bound=Model)


def quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def column_of(field: Field[Any, Any]) -> str:
    """A field's column name (None only before the field joins its model)."""
    if field.column is None:
        raise ValueError(f"{field!r} has no column")
    return field.column


def model_field(model: type[Model], name: str) -> Field[Any, Any]:
    """The field `name` of `model` that has a column (never a reverse relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise ValueError(f"{model.__name__}.{name} is a reverse relation, not a field")
    return field


def table(model: type[Model]) -> str:
    return quoted(model._meta.db_table)


def columns(model: type[Model], alias: str = "") -> str:
    """`alias.col, alias.col, ...` (or `col, col, ...` without an alias: a `RETURNING`
    list): every concrete column of the model, in field order."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{quoted(column_of(f))}" for f in model._meta.concrete_fields)


def width(model: type[Model]) -> int:
    return len(model._meta.concrete_fields)


@functools.cache
def _converters(model: type[Model], vendor: str) -> list[list[tuple[Callable, Col]]]:
    """Per column, the converters the ORM's compiler applies to it (the backend's, e.g.
    SQLite's datetimes, then the field's, e.g. JSON), with the column they are given."""
    per_field = []
    for field in model._meta.concrete_fields:
        col = field.get_col(model._meta.db_table)
        per_field.append([(converter, col) for converter in
                          connection.ops.get_db_converters(col)
                          + col.get_db_converters(connection)])
    return per_field


def instance(model: type[M], row: Sequence[Any], start: int = 0) -> M:
    """The model instance made of `row[start:start + width(model)]` (the columns of
    `columns(model, ...)`), built as the ORM builds it (`Model.from_db`)."""
    fields = model._meta.concrete_fields
    values = list(row[start:start + len(fields)])
    for i, converters in enumerate(_converters(model, connection.vendor)):
        for converter, col in converters:
            values[i] = converter(values[i], col, connection)
    return model.from_db(connection.alias, [f.attname for f in fields], values)


def lock_clause(*, shared: bool) -> str:
    """` FOR SHARE` / ` FOR UPDATE` on PostgreSQL; nothing on SQLite, which has no row
    locks (its writers are serialised anyway)."""
    if connection.vendor != "postgresql":
        return ""
    return " FOR SHARE" if shared else " FOR UPDATE"


def _cursor() -> Any:
    """A cursor for this module's statements. On PostgreSQL it binds its parameters on the
    server (`psycopg.Cursor`), so psycopg prepares a statement once the connection has
    sent it `prepare_threshold` times (settings, `DATABASE_PREPARE_THRESHOLD`) and
    PostgreSQL plans it once per connection instead of on every request: planning was
    about half of the database's CPU for a plan PUT. Django's own cursors bind on the
    client and never prepare, so only these few statements are prepared. Wrapped as
    `connection.cursor()` wraps its own (errors translated). Where queries are logged
    (DEBUG, a test counting them) Django's own cursor is used: a prepared statement's log
    would show no text."""
    db = connections[DEFAULT_DB_ALIAS]  # the thread's own, looked up once
    if db.vendor != "postgresql" or db.queries_logged:
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        # Any: django-stubs type make_cursor's argument as the wrapper it returns
        raw: Any = psycopg.Cursor(db.connection)
    return db.make_cursor(raw)


def fetch_one(sql: str, params: Sequence[Any]) -> tuple | None:
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def fetch_ids(sql: str, params: Sequence[Any]) -> set[int]:
    """The first column of every row, as a set."""
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0] for row in cursor.fetchall()}
