"""Writing many rows of one table in one statement (the clock's hooks, issues 15 and 32).

Two levels, one implementation of each statement:

- rows as plain tuples of database values (numbers, text, booleans, ids, JSON text), for
  the thousands of rows a turn writes without a model instance each (production: a unit
  for every vehicle a factory makes, a stock row for every kind of goods that changed):
  `insert_rows` and `update_rows`;
- model instances already changed in memory: `bulk_set` and `bulk_insert`, which turn
  them into such rows.

Django's `bulk_update` writes `SET f = CASE WHEN id = 1 THEN .. WHEN id = 2 THEN ..`: the
database compares every row with every branch, so the statement grows with the square of
the rows (seconds for a few thousand). Here an update is one `UPDATE .. FROM (VALUES ..)`
join on the id (PostgreSQL, and SQLite >= 3.33), an insert one `INSERT .. SELECT FROM
unnest(..)` on PostgreSQL (each column one array) or one `executemany` on SQLite (one
prepared statement). Each is one statement for the query counters whatever the number of
rows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from django.db import connections, models, router
from django.db.models import Model

from campaign.sql import column_of, model_field


def json_value(value: Any) -> str:
    """A JSON column's value as `insert_rows` and `update_rows` take it."""
    return json.dumps(value)


def _defaults(model: type[Model], given: Sequence[str]) -> list[tuple[models.Field[Any, Any],
                                                                       Any]]:
    """The concrete fields not given, each with its default as the database holds it
    (one value for every row: a default may not be drawn per row, as a random id is)."""
    result = []
    meta = model._meta
    for field in meta.concrete_fields:
        if field.attname in given or field.name in given:
            continue
        if field.primary_key and isinstance(field, models.AutoField | models.BigAutoField
                                            | models.SmallAutoField):
            continue  # the database numbers it
        if field.primary_key:
            raise ValueError(f"{model.__name__}: the primary key must be given")
        if not field.has_default() and not field.null:
            raise ValueError(f"{model.__name__}.{field.name} has no default")
        default = field.get_default()
        if isinstance(field, models.JSONField):
            default = None if default is None else json_value(default)
        result.append((field, default))
    return result


def insert_rows(model: type[Model], fields: Sequence[str], rows: Sequence[tuple[Any, ...]]
                ) -> None:
    """Insert `rows` (tuples of database values of `fields`, attnames: `player_id`) as
    new rows of `model`; every other column takes its field's default."""
    if not rows:
        return
    using = router.db_for_write(model)
    connection = connections[using]
    quote = connection.ops.quote_name
    given = [model_field(model, name) for name in fields]
    rest = _defaults(model, fields)
    columns = [quote(column_of(f)) for f in given] + [quote(column_of(f)) for f, _ in rest]
    table = quote(model._meta.db_table)
    if connection.vendor == "postgresql":
        arrays: list[list[Any]] = [list(column) for column in zip(*rows, strict=True)]
        arrays += [[value] * len(rows) for _field, value in rest]
        casts = []
        for field in [*given, *(f for f, _ in rest)]:
            if isinstance(field, models.JSONField):
                casts.append("%s::text[]::jsonb[]")
            else:  # a foreign key: its target's type
                casts.append(f"%s::{field.db_type(connection)}[]")
        sql = (f"INSERT INTO {table} ({', '.join(columns)}) "
               f"SELECT * FROM unnest({', '.join(casts)})")
        connection.ensure_connection()
        # A cursor binding its parameters on the server (each array sent in binary),
        # wrapped as Django wraps its own: counted, logged and passed to execute
        # wrappers alike.
        raw = connection.connection.cursor()
        wrapped = (connection.make_debug_cursor(raw) if connection.queries_logged
                   else connection.make_cursor(raw))
        with wrapped as cursor:
            cursor.execute(sql, arrays)
        return
    tail = tuple(value for _field, value in rest)
    sql = (f"INSERT INTO {table} ({', '.join(columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(*row, *tail) for row in rows])


def update_rows(model: type[Model], fields: Sequence[str],
                rows: Sequence[tuple[Any, ...]]) -> int:
    """Set `fields` of existing rows: each row is (primary key, *database values of
    `fields`). Returns the number of rows written."""
    if not rows:
        return 0
    using = router.db_for_write(model)
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    table = quote(meta.db_table)
    concrete = [model_field(model, name) for name in fields]
    names = ["pk_", *[f"v{i}" for i in range(len(concrete))]]
    row = "(" + ", ".join(["%s"] * (len(concrete) + 1)) + ")"
    if connection.vendor == "postgresql":
        sets = ", ".join(f"{quote(column_of(f))} = v.v{i}::{f.db_type(connection)}"
                         for i, f in enumerate(concrete))
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([row] * len(rows))}) "
                f"AS v({', '.join(names)}) "
                f"WHERE {table}.{quote(column_of(pk))} = v.pk_::{pk.db_type(connection)}",
                [value for values in rows for value in values])
            return int(cursor.rowcount)
    # SQLite: as many rows a statement as it takes parameters (a quarter of a million
    # here: one statement). A VALUES list's columns are column1, column2... (and a
    # statement that begins with WITH has no row count in Python's sqlite3: the values
    # are a subquery).
    connection.ensure_connection()
    limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per_statement = max(1, limit // (len(concrete) + 1))
    aliases = ", ".join(f"column{i + 1} AS {name}" for i, name in enumerate(names))
    sets = ", ".join(f"{quote(column_of(f))} = v.v{i}" for i, f in enumerate(concrete))
    written = 0
    with connection.cursor() as cursor:
        for start in range(0, len(rows), per_statement):
            batch = rows[start:start + per_statement]
            cursor.execute(f"UPDATE {table} SET {sets} FROM (SELECT {aliases} FROM "
                           f"(VALUES {', '.join([row] * len(batch))})) AS v "
                           f"WHERE {table}.{quote(column_of(pk))} = v.pk_",
                           [value for values in batch for value in values])
            written += cursor.rowcount
    return written


def bulk_set(objs: Sequence[Model], fields: Sequence[str]) -> int:
    """Save `fields` of `objs` (instances of one model, already changed in memory) in
    one statement. Returns the number of rows written. A row listed twice keeps its
    first values, as with `bulk_update`."""
    if not objs:
        return 0
    model = type(objs[0])
    using = router.db_for_write(model)
    connection = connections[using]
    if connection.vendor not in ("postgresql", "sqlite"):
        return model._default_manager.db_manager(using).bulk_update(objs, list(fields))
    pk = model._meta.pk
    assert pk is not None
    concrete = [model_field(model, name) for name in fields]
    seen: set[Any] = set()
    rows: list[tuple[Any, ...]] = []
    for obj in objs:
        if obj.pk in seen:  # a row listed twice keeps its first values (bulk_update's)
            continue
        seen.add(obj.pk)
        rows.append((pk.get_db_prep_save(obj.pk, connection),
                     *[field.get_db_prep_save(getattr(obj, field.attname), connection)
                       for field in concrete]))
    return update_rows(model, fields, rows)


_PLAIN = (models.BigIntegerField, models.IntegerField, models.SmallIntegerField,
          models.PositiveIntegerField, models.PositiveSmallIntegerField,
          models.PositiveBigIntegerField, models.CharField, models.TextField,
          models.BooleanField, models.ForeignKey, models.FloatField)


def bulk_insert(objs: Sequence[Model]) -> None:
    """Insert new rows of one model whose ids are already set (random ids), as
    `bulk_create` would. On PostgreSQL, models of plain columns (numbers, text, booleans,
    foreign keys, JSON) go through `insert_rows` without Django's per-value preparation
    (thousands of rows per turn). Anything else uses `bulk_create`."""
    if not objs:
        return
    model = type(objs[0])
    using = router.db_for_write(model)
    connection = connections[using]
    fields = list(model._meta.concrete_fields)
    plain = all(isinstance(f, (*_PLAIN, models.JSONField)) and not getattr(f, "auto_now", False)
                and not getattr(f, "auto_now_add", False) for f in fields)
    if (connection.vendor != "postgresql" or not plain
            or any(getattr(o, "pk", None) is None for o in objs)):
        model._default_manager.db_manager(using).bulk_create(objs)
        return
    columns: list[list[Any]] = []
    for field in fields:
        values = [getattr(o, field.attname) for o in objs]
        if isinstance(field, models.JSONField):
            values = [None if v is None else json.dumps(v, cls=field.encoder) for v in values]
        elif isinstance(field, models.CharField | models.TextField):
            values = [None if v is None else str(v) for v in values]
        columns.append(values)
    insert_rows(model, [f.attname for f in fields], list(zip(*columns, strict=True)))
