"""The schema is built by the alembic migrations on every backend, and is idempotent."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from pbem.store import InboundMessage, init, migrate


def test_migrate_creates_every_table(db_url: str) -> None:
    engine = init(db_url)
    names = set(inspect(engine).get_table_names())
    assert {"game", "seat", "inboundmessage", "logentry", "snapshot", "outboundmessage",
            "alembic_version"} <= names
    migrate(db_url)  # a second run is a no-op
    engine.dispose()


def test_message_id_is_unique(db_url: str) -> None:
    engine = init(db_url)
    with Session(engine) as s:
        s.add(InboundMessage(message_id="<a@x>", raw=b"one"))
        s.commit()
        s.add(InboundMessage(message_id="<a@x>", raw=b"two"))
        with pytest.raises(IntegrityError):
            s.commit()
    engine.dispose()


def test_raw_bytes_round_trip(db_url: str) -> None:
    engine = init(db_url)
    raw = bytes(range(256))
    with Session(engine) as s:
        s.add(InboundMessage(message_id="<b@x>", raw=raw))
        s.commit()
    with Session(engine) as s:
        row = s.exec(select(InboundMessage)).one()
        assert row.raw == raw
    engine.dispose()


def test_migrations_match_the_models(db_url: str) -> None:
    """A column added to tables.py without a migration (or the reverse) fails here."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    engine = init(db_url)
    with engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    structural = [d for d in diffs if isinstance(d, tuple) and d[0] in
                  {"add_table", "remove_table", "add_column", "remove_column"}]
    assert structural == []
    engine.dispose()


def test_concurrent_first_runs_on_an_empty_database_do_not_race(db_url: str) -> None:
    """Workers started together on an empty PostgreSQL database all migrate it (one does the
    work under the advisory lock, the others find it done)."""
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite takes one writer at a time by itself")
    import subprocess
    import sys

    code = "import sys; from pbem.store import migrate; migrate(sys.argv[1])"
    procs = [subprocess.Popen([sys.executable, "-c", code, db_url], stderr=subprocess.PIPE,
                              text=True) for _ in range(4)]
    failures = [p.communicate(timeout=120)[1] for p in procs if p.wait(timeout=120) != 0]
    assert failures == []
    engine = init(db_url)
    assert {"game", "seat", "inboundmessage"} <= set(inspect(engine).get_table_names())
    engine.dispose()
