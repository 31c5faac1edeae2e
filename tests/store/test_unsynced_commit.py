"""commit_unsynced: only the transaction it is called for skips the disk wait; every other
commit on the same pooled connection is synced again (synchronous=FULL, synchronous_commit on)."""

from __future__ import annotations

from sqlalchemy import text
from sqlmodel import Session

from pbem.store import SessionFactory
from pbem.store.db import commit_unsynced


def durability(session: Session) -> str:
    if session.get_bind().dialect.name == "postgresql":
        return str(session.execute(text("SHOW synchronous_commit")).scalar_one())
    return {0: "off", 1: "normal", 2: "full", 3: "extra"}[
        session.execute(text("PRAGMA synchronous")).scalar_one()]


def relaxed(session: Session) -> str:
    return "off" if session.get_bind().dialect.name == "postgresql" else "normal"


def synced(session: Session) -> str:
    return "on" if session.get_bind().dialect.name == "postgresql" else "full"


def test_only_the_unsynced_transaction_skips_the_disk_wait(factory: SessionFactory) -> None:
    for _ in range(3):  # the same pooled connection each time
        with factory() as s:
            commit_unsynced(s)
            assert durability(s) == relaxed(s)
            s.execute(text("UPDATE game SET status = 'active' WHERE id = -1"))
            s.commit()
        with factory() as s:
            assert durability(s) == synced(s)
            s.commit()


def test_a_failed_unsynced_transaction_leaves_the_connection_synced(
        factory: SessionFactory) -> None:
    with factory() as s:
        commit_unsynced(s)
        s.execute(text("UPDATE game SET status = 'active' WHERE id = -1"))
        # closed without a commit: rolled back, and the next user is synced
    with factory() as s:
        assert durability(s) == synced(s)


def test_called_inside_a_transaction_it_keeps_the_commit_synced(
        factory: SessionFactory) -> None:
    with factory() as s:
        s.execute(text("UPDATE game SET status = 'active' WHERE id = -1"))
        commit_unsynced(s)  # SQLite refuses the PRAGMA here: it must keep FULL, not fail
        if s.get_bind().dialect.name == "sqlite":
            assert durability(s) == "full"
        s.commit()
    with factory() as s:
        assert durability(s) == synced(s)


def test_a_held_connection_relaxes_once_and_goes_back_to_the_pool_synced(
        factory: SessionFactory) -> None:
    """The outbox's marks: one connection, a transaction per sent mail. The setting is made
    before the first (one statement, not one per mark) and undone when the connection goes
    back to the pool."""
    from sqlalchemy import event

    from pbem.store.db import begin_unsynced

    engine = factory().get_bind()
    postgres = engine.dialect.name == "postgresql"
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_a: object) -> None:
        if "synchronous" in sql.lower() and "=" in sql:  # a setting, not a look at one
            seen.append(sql)

    event.listen(engine, "before_cursor_execute", record)
    try:
        with engine.connect() as conn:  # type: ignore[union-attr]
            for _ in range(3):
                begin_unsynced(conn)
                conn.execute(text("UPDATE game SET status = 'active' WHERE id = -1"))
                with Session(bind=conn) as s:
                    assert durability(s) == relaxed(s)
                conn.commit()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert seen == (["SET synchronous_commit = off"] if postgres
                    else ["PRAGMA synchronous=NORMAL"])
    with factory() as s:
        assert durability(s) == synced(s)


def test_a_held_connection_whose_first_mark_failed_stays_synced(
        factory: SessionFactory) -> None:
    """PostgreSQL undoes a SET with the transaction that made it: the marks after a failed
    first one are synced (slower, never less durable), and the pool's connection too."""
    from pbem.store.db import begin_unsynced

    engine = factory().get_bind()
    with engine.connect() as conn:  # type: ignore[union-attr]
        begin_unsynced(conn)
        conn.rollback()
        begin_unsynced(conn)
        if engine.dialect.name == "postgresql":
            with Session(bind=conn) as s:
                assert durability(s) == "on"
        conn.commit()
    with factory() as s:
        assert durability(s) == synced(s)
