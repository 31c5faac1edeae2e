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


def test_0008_gives_existing_seats_english_and_utc_and_goes_back(db_url: str) -> None:
    """Games and seats made before languages existed read English and UTC after 0008."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from pbem.store.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", db_url.replace("%", "%%"))
    command.upgrade(cfg, "0007")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO game (game_type, tag, options_json, seed, status, created, "
            "timeout_policy, vacation_days) VALUES ('x', 'x-1', '{}', 's', 'active', "
            "CURRENT_TIMESTAMP, 'pause', 14)"))
        conn.execute(text(
            "INSERT INTO seat (game_id, \"index\", name, address, secret_salt, secret_hash, "
            "status, vacation_days_used, mail_mode, bounce_reason) SELECT id, 0, 'Ann', "
            "'ann@example.org', 's', 'h', 'active', 0, 'every', '' FROM game"))
    command.upgrade(cfg, "0008")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT language FROM game")).scalar_one() == "en"
        assert tuple(conn.execute(text("SELECT language, timezone FROM seat")).one()) == (
            "en", "UTC")
    command.downgrade(cfg, "0007")
    assert "language" not in {c["name"] for c in inspect(engine).get_columns("seat")}
    command.upgrade(cfg, "head")
    engine.dispose()


def test_0009_stores_outbound_mail_uncompressed_on_postgresql_and_goes_back(
        db_url: str) -> None:
    """pglz cost ~9 ms per status mail and shrank nothing: outbound bytes are stored as they
    are (STORAGE EXTERNAL) on PostgreSQL; SQLite has nothing to change."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from pbem.store.db import MIGRATIONS

    def storage() -> dict[str, str]:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT a.attname, a.attstorage FROM pg_attribute a "
                "WHERE a.attrelid = 'outboundmessage'::regclass "
                "AND a.attname IN ('raw', 'raw_once_sent')")).all()
            return {str(name): str(kind) for name, kind in rows}

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", db_url.replace("%", "%%"))
    command.upgrade(cfg, "head")
    engine = create_engine(db_url)
    raw = b"From: a@b\r\n\r\n" + bytes(range(256)) * 500
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO outboundmessage (to_addr, kind, raw, status, attempts, "
                          "last_error, next_attempt_at, created) VALUES ('p@x', 'status', :r, "
                          "'queued', 0, '', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"), {"r": raw})
    with engine.connect() as conn:
        assert conn.execute(text("SELECT raw FROM outboundmessage")).scalar_one() == raw
    if engine.dialect.name == "postgresql":
        assert storage() == {"raw": "e", "raw_once_sent": "e"}
        command.downgrade(cfg, "0008")
        assert storage() == {"raw": "x", "raw_once_sent": "x"}
    else:
        command.downgrade(cfg, "0008")
    command.upgrade(cfg, "head")
    engine.dispose()
