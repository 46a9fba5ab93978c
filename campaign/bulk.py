"""Writing many rows of one table in one statement (the clock's hooks, issue 15).

Django's `bulk_update` writes `SET f = CASE WHEN id = 1 THEN .. WHEN id = 2 THEN ..`: the
database compares every row with every branch, so the statement grows with the square
of the rows (seconds for a few thousand). `bulk_set` writes the same values with one
`UPDATE .. FROM (VALUES ..)` join on PostgreSQL (and SQLite >= 3.33); elsewhere it falls
back to `bulk_update`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model


def bulk_set(objs: Sequence[Model], fields: Sequence[str]) -> int:
    """Save `fields` of `objs` (instances of one model, already changed in memory) in
    one statement. Returns the number of rows written."""
    if not objs:
        return 0
    model = type(objs[0])
    using = router.db_for_write(model)
    connection = connections[using]
    if connection.vendor != "postgresql":
        return model._default_manager.db_manager(using).bulk_update(objs, list(fields))
    meta = model._meta
    concrete = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    pk = meta.pk
    assert pk is not None
    columns = [pk, *concrete]
    params: list[Any] = []
    rows = []
    for obj in objs:
        rows.append("(" + ", ".join(["%s"] * len(columns)) + ")")
        params.append(pk.get_db_prep_save(obj.pk, connection))
        for field in concrete:
            params.append(field.get_db_prep_save(getattr(obj, field.attname), connection))
    names = ["pk_", *[f"v{i}" for i in range(len(concrete))]]
    sets = ", ".join(f"{quote(field.column)} = v.v{i}::{field.db_type(connection)}"
                     for i, field in enumerate(concrete))
    sql = (f"UPDATE {quote(meta.db_table)} SET {sets} FROM (VALUES {', '.join(rows)}) "
           f"AS v({', '.join(names)}) WHERE {quote(meta.db_table)}.{quote(pk.column)} "
           f"= v.pk_::{pk.db_type(connection)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
