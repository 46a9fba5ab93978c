"""Writing many rows of one table in one statement (the clock's hooks, issue 15).

Django's `bulk_update` writes `SET f = CASE WHEN id = 1 THEN .. WHEN id = 2 THEN ..`: the
database compares every row with every branch, so the statement grows with the square
of the rows (seconds for a few thousand). `bulk_set` writes the same values with one
`UPDATE .. FROM (VALUES ..)` join on PostgreSQL (and SQLite >= 3.33); elsewhere it falls
back to `bulk_update`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from django.db import connections, models, router
from django.db.models import Model

from campaign.sql import column_of, model_field


def bulk_set(objs: Sequence[Model], fields: Sequence[str]) -> int:
    """Save `fields` of `objs` (instances of one model, already changed in memory) in
    one statement. Returns the number of rows written. A row listed twice keeps its
    first values, as with `bulk_update`."""
    if not objs:
        return 0
    model = type(objs[0])
    using = router.db_for_write(model)
    connection = connections[using]
    if connection.vendor == "sqlite":
        return _bulk_set_sqlite(objs, fields, connection)
    if connection.vendor != "postgresql":
        return model._default_manager.db_manager(using).bulk_update(objs, list(fields))
    meta = model._meta
    concrete = [model_field(model, name) for name in fields]
    quote = connection.ops.quote_name
    pk = meta.pk
    assert pk is not None
    columns = [pk, *concrete]
    params: list[Any] = []
    rows = []
    seen: set[Any] = set()
    for obj in objs:
        if obj.pk in seen:  # a row listed twice keeps its first values (bulk_update's)
            continue
        seen.add(obj.pk)
        rows.append("(" + ", ".join(["%s"] * len(columns)) + ")")
        params.append(pk.get_db_prep_save(obj.pk, connection))
        for field in concrete:
            params.append(field.get_db_prep_save(getattr(obj, field.attname), connection))
    names = ["pk_", *[f"v{i}" for i in range(len(concrete))]]
    sets = ", ".join(f"{quote(column_of(field))} = v.v{i}::{field.db_type(connection)}"
                     for i, field in enumerate(concrete))
    sql = (f"UPDATE {quote(meta.db_table)} SET {sets} FROM (VALUES {', '.join(rows)}) "
           f"AS v({', '.join(names)}) WHERE {quote(meta.db_table)}.{quote(column_of(pk))} "
           f"= v.pk_::{pk.db_type(connection)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _bulk_set_sqlite(objs: Sequence[Model], fields: Sequence[str], connection: Any) -> int:
    """`bulk_set` on SQLite (>= 3.33: `UPDATE .. FROM`): the values (a `VALUES` list)
    joined on the id, as many rows a statement as SQLite takes parameters
    (a quarter of a million here: one statement). A row listed twice keeps its first
    values, as `bulk_update` does."""
    model = type(objs[0])
    meta = model._meta
    concrete = [model_field(model, name) for name in fields]
    quote = connection.ops.quote_name
    pk = meta.pk
    assert pk is not None
    columns = [pk, *concrete]
    seen: set[Any] = set()
    values: list[list[Any]] = []
    for obj in objs:
        if obj.pk in seen:
            continue
        seen.add(obj.pk)
        values.append([pk.get_db_prep_save(obj.pk, connection),
                       *[field.get_db_prep_save(getattr(obj, field.attname), connection)
                         for field in concrete]])
    connection.ensure_connection()
    limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per_statement = max(1, limit // len(columns))
    table = quote(meta.db_table)
    # A VALUES list's columns are column1, column2... (and a statement that begins with
    # WITH has no row count in Python's sqlite3: the values are a subquery).
    names = ", ".join(f"column{i + 1} AS {name}" for i, name in
                      enumerate(["pk_", *[f"v{i}" for i in range(len(concrete))]]))
    sets = ", ".join(f"{quote(column_of(field))} = v.v{i}" for i, field in enumerate(concrete))
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    written = 0
    with connection.cursor() as cursor:
        for start in range(0, len(values), per_statement):
            batch = values[start:start + per_statement]
            cursor.execute(f"UPDATE {table} SET {sets} FROM (SELECT {names} FROM "
                           f"(VALUES {', '.join([row] * len(batch))})) AS v "
                           f"WHERE {table}.{quote(column_of(pk))} = v.pk_",
                           [value for row_values in batch for value in row_values])
            written += cursor.rowcount
    return written


_PLAIN = (models.BigIntegerField, models.IntegerField, models.SmallIntegerField,
          models.PositiveIntegerField, models.PositiveSmallIntegerField,
          models.PositiveBigIntegerField, models.CharField, models.TextField,
          models.BooleanField, models.ForeignKey, models.FloatField)


def bulk_insert(objs: Sequence[Model]) -> None:
    """Insert new rows of one model whose ids are already set (random ids), as
    `bulk_create` would. On PostgreSQL, models of plain columns (numbers, text, booleans,
    foreign keys, JSON) go in one `INSERT .. SELECT FROM unnest(..)` with each column
    sent as one binary array, without Django's per-value preparation (thousands of rows
    per turn: a unit made by every factory). Anything else uses `bulk_create`."""
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
    quote = connection.ops.quote_name
    columns, arrays, types = [], [], []
    for field in fields:
        values = [getattr(o, field.attname) for o in objs]
        if isinstance(field, models.JSONField):
            values = [None if v is None else json.dumps(v, cls=field.encoder)
                      for v in values]
            types.append("jsonb[]")
            arrays.append(values)
            columns.append(quote(column_of(field)))
            continue
        if isinstance(field, models.CharField | models.TextField):
            values = [None if v is None else str(v) for v in values]
        columns.append(quote(column_of(field)))
        types.append(f"{field.db_type(connection)}[]")  # a foreign key: its target's type
        arrays.append(values)
    selects = ", ".join(f"%s::{t}" if t != "jsonb[]" else "%s::text[]::jsonb[]"
                        for t in types)
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) "
           f"SELECT * FROM unnest({selects})")
    connection.ensure_connection()
    # A cursor binding its parameters on the server (each array sent in binary), wrapped
    # as Django wraps its own: counted, logged and passed to execute wrappers alike.
    raw = connection.connection.cursor()
    wrapped = (connection.make_debug_cursor(raw) if connection.queries_logged
               else connection.make_cursor(raw))
    with wrapped as cursor:
        cursor.execute(sql, arrays)
