"""Create a benchmark's PostgreSQL database when it does not exist yet (`make bench` on a
fresh machine: `DATABASE_URL` may name a database nobody has created)."""

from __future__ import annotations

from urllib.parse import urlparse


def ensure_database(database_url: str) -> None:
    """CREATE DATABASE for a `postgres://` URL whose database is missing; anything else
    (SQLite) is left alone."""
    url = urlparse(database_url)
    if url.scheme not in ("postgres", "postgresql", "pgsql"):
        return
    import psycopg

    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
