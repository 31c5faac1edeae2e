"""Engines, sessions and the schema migrations (alembic, run from Python)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Engine, event
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).parent / "migrations"

SessionFactory = Callable[[], Session]


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get their folder created and foreign keys on."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        @event.listens_for(engine, "connect")
        def _fk_on(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            # WAL: a commit is one append and readers never block the writer. FULL (not
            # WAL's usual NORMAL) syncs every commit, so a mail moved after its commit
            # can never be lost with it on power failure.
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()
    return engine


def migrate(url: str) -> None:
    """Bring the schema at ``url`` to the newest revision (creates it from nothing too)."""
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(cfg, "head")


def session_factory(engine: Engine) -> SessionFactory:
    """Sessions that keep loaded rows usable after commit."""
    def make() -> Session:
        return Session(engine, expire_on_commit=False)
    return make


def init(url: str) -> Engine:
    """Migrate and return an engine: what every entry point calls first."""
    migrate(url)
    return make_engine(url)
