"""Thousands of rows of one table written as plain values, without a model instance each
(the clock's production: a unit for every vehicle a factory makes, a stock row for every
kind of goods that changed; issue 32).

Building a model instance costs more CPU than writing its row, and Django's
`bulk_create`/`bulk_update` prepare every value through the field again (and
`bulk_update` writes `CASE WHEN id = .. THEN ..` branches, compared with every row). Here
a row is a tuple of the values its columns hold in the database (numbers, text,
booleans, ids, JSON text), and:

- `insert_rows` sends them in one statement: `INSERT .. SELECT FROM unnest(..)` on
  PostgreSQL (each column one array), one `executemany` elsewhere (SQLite runs it as one
  prepared statement); the columns not given take their fields' defaults.
- `update_rows` sets columns by primary key: `UPDATE .. FROM (VALUES ..)` on PostgreSQL,
  one `executemany` of `UPDATE .. WHERE id = ?` elsewhere.

Either is one statement for the query counters whatever the number of rows.
"""

from __future__ import annotations

import json
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
        with connection.cursor() as cursor:
            cursor.execute(sql, arrays)
        return
    tail = tuple(value for _field, value in rest)
    sql = (f"INSERT INTO {table} ({', '.join(columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(*row, *tail) for row in rows])


def update_rows(model: type[Model], fields: Sequence[str],
                rows: Sequence[tuple[Any, ...]]) -> None:
    """Set `fields` of existing rows: each row is (primary key, *database values)."""
    if not rows:
        return
    using = router.db_for_write(model)
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    table = quote(meta.db_table)
    concrete = [model_field(model, name) for name in fields]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            values = ", ".join(["(" + ", ".join(["%s"] * (len(concrete) + 1)) + ")"]
                               * len(rows))
            names = ", ".join(["pk_", *[f"v{i}" for i in range(len(concrete))]])
            sets = ", ".join(f"{quote(column_of(f))} = v.v{i}::{f.db_type(connection)}"
                             for i, f in enumerate(concrete))
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM (VALUES {values}) AS v({names}) "
                f"WHERE {table}.{quote(column_of(pk))} = v.pk_::{pk.db_type(connection)}",
                [value for row in rows for value in row])
            return
        sets = ", ".join(f"{quote(column_of(f))} = %s" for f in concrete)
        cursor.executemany(f"UPDATE {table} SET {sets} WHERE {quote(column_of(pk))} = %s",
                           [(*row[1:], row[0]) for row in rows])
