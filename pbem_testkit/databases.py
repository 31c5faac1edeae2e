"""Scratch PostgreSQL databases beside a given one, made and dropped by name (for tests and
benches): the server's own database runs the CREATE and DROP DATABASE statements."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def run_as_admin(url: str, *statements: str) -> None:
    """Run ``statements`` outside a transaction on the server of ``url``."""
    admin = create_engine(make_url(url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        admin.dispose()


def database_url(url: str, database: str) -> str:
    """``url`` naming ``database`` on the same server, password kept."""
    return make_url(url).set(database=database).render_as_string(hide_password=False)


@contextlib.contextmanager
def scratch_database(url: str, prefix: str, template: str | None = None) -> Iterator[str]:
    """A new, empty database on the server of ``url`` (a copy of ``template``'s, a database
    URL, when given), dropped afterwards with every connection to it; yields its URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    copy = f' TEMPLATE "{make_url(template).database}"' if template else ""
    run_as_admin(url, f'CREATE DATABASE "{name}"{copy}')
    try:
        yield database_url(url, name)
    finally:
        run_as_admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
