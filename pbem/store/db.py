"""Engines, sessions and the schema migrations (alembic, run from Python)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Connection, Engine, event, text
from sqlalchemy.engine import ExceptionContext
from sqlmodel import Session, create_engine

from pbem.store.faults import is_transient

MIGRATIONS = Path(__file__).parent / "migrations"
# Set in a SQLite connection's info while its commits do not wait for the disk (see
# commit_unsynced); WAL_ON when the connection is in WAL mode.
_UNSYNCED = "pbem_unsynced"
_WAL_ON = "pbem_wal"

SessionFactory = Callable[[], Session]


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get their folder created and foreign keys on."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)

    @event.listens_for(engine, "handle_error")
    def _discard_after_fault(ctx: ExceptionContext) -> None:
        # A connection that met a database fault may still be inside its transaction (a
        # failed COMMIT leaves it open, and the pool does not roll back what it believes has
        # ended): the next user would see, and later commit, the failed work. Discard it.
        if is_transient(ctx.original_exception):
            ctx.is_disconnect = True
            ctx.invalidate_pool_on_disconnect = False

    if engine.dialect.name == "sqlite":
        @event.listens_for(engine, "connect")
        def _fk_on(dbapi_conn, record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            # WAL: a commit is one append and readers never block the writer. FULL (not
            # WAL's usual NORMAL) syncs every commit, so a mail moved after its commit
            # can never be lost with it on power failure.
            mode = cur.execute("PRAGMA journal_mode=WAL").fetchone()
            record.info[_WAL_ON] = bool(mode) and str(mode[0]).lower() == "wal"
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()

    # What puts a connection's commits back to waiting for the disk (see begin_unsynced).
    synced = {"postgresql": "RESET synchronous_commit",
              "sqlite": "PRAGMA synchronous=FULL"}.get(engine.dialect.name)
    if synced is not None:
        @event.listens_for(engine, "reset")
        def _synced_again(dbapi_conn, record, _state):  # type: ignore[no-untyped-def]
            # Back in the pool after begin_unsynced: synced again before anyone else's
            # commit. Should this fail, the pool discards the connection instead.
            if record.info.pop(_UNSYNCED, False):
                dbapi_conn.rollback()  # SQLite refuses the PRAGMA inside a transaction
                cur = dbapi_conn.cursor()
                cur.execute(synced)
                cur.close()
                dbapi_conn.commit()  # PostgreSQL: a RESET rolled back would undo itself
    return engine


def commit_unsynced(session: Session) -> None:
    """Let the transaction ``session`` is about to begin commit without waiting for the disk.

    Only for a record whose loss costs a repeat and never a loss or a double: the outbox's
    mark of a sent mail (pbem.outbox.delivery). Call it before the session's first
    statement. PostgreSQL: ``SET LOCAL synchronous_commit = off``, for this transaction only.
    SQLite in WAL mode: ``synchronous=NORMAL`` on this connection until it goes back to the
    pool. Either way the commit is at once visible to everyone and survives the process
    dying; only a power failure (or operating system crash) within the next moment can
    undo it, never corrupt anything, and never a commit made after it (the log is one
    sequence: the next synced commit makes every earlier one durable).
    """
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET LOCAL synchronous_commit = off")
    else:
        begin_unsynced(conn)


def begin_unsynced(conn: Connection) -> None:
    """:func:`commit_unsynced` for a connection held across several such transactions (one
    per sent mail's mark, each maybe a lone statement in autocommit): call it before each
    one's first statement. The setting is made once, and holds until the connection goes
    back to the pool, which restores it. (On PostgreSQL that saves a round trip a mark, and
    costs one restore a pass; a lone transaction keeps ``SET LOCAL``, which needs no
    restore.)"""
    if conn.dialect.name == "postgresql":
        if not conn.info.get(_UNSYNCED):
            # Before the SET: the pool's reset restores the setting. A transaction that
            # rolls back takes the SET with it: its later marks are synced, never less.
            conn.info[_UNSYNCED] = True
            conn.exec_driver_sql("SET synchronous_commit = off")
        return
    if conn.dialect.name != "sqlite" or not conn.info.get(_WAL_ON) or conn.info.get(_UNSYNCED):
        return  # outside WAL, NORMAL could corrupt on power failure: keep FULL
    dbapi = conn.connection.dbapi_connection
    if dbapi is None or getattr(dbapi, "in_transaction", True):
        return  # the PRAGMA is refused inside a transaction: keep FULL
    conn.info[_UNSYNCED] = True  # before the PRAGMA: the pool's reset restores FULL
    conn.exec_driver_sql("PRAGMA synchronous=NORMAL")


# pg_advisory_lock key for schema migrations (any constant: it only has to be the same for
# every pbem process on one database).
MIGRATION_LOCK = 0x7062656D  # "pbem"


def migrate(url: str) -> None:
    """Bring the schema at ``url`` to the newest revision (creates it from nothing too).

    On PostgreSQL the migration runs under an advisory lock: two workers starting at once on
    an empty database would otherwise both create the tables, and one would fail.
    """
    if url.startswith("sqlite:///"):
        _new_sqlite_file(Path(url.removeprefix("sqlite:///")))
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if not url.startswith("postgresql"):
        command.upgrade(cfg, "head")
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            conn.commit()
            try:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                conn.commit()
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
                conn.commit()
    finally:
        engine.dispose()


def _new_sqlite_file(path: Path) -> None:
    """A new SQLite file starts with incremental auto-vacuum, so the space a prune frees can
    go back to the disk without rewriting the file (pbem.store.space); the mode can only be
    chosen before the first table (an older file gets it from one VACUUM)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if str(path).startswith(":memory:") or path.exists():
        return
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
        conn.execute("VACUUM")  # writes the header, and with it the mode
    finally:
        conn.close()


def session_factory(engine: Engine) -> SessionFactory:
    """Sessions that keep loaded rows usable after commit."""
    def make() -> Session:
        return Session(engine, expire_on_commit=False)
    return make


def init(url: str) -> Engine:
    """Migrate and return an engine: what every entry point calls first."""
    migrate(url)
    return make_engine(url)
