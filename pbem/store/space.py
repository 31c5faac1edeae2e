"""The database's size on disk, and giving back the space that deleted or cut rows leave.

SQLite keeps freed pages inside its file until told otherwise: :func:`reclaim` turns the
file to incremental auto-vacuum once (one ``VACUUM``, when enough is free to be worth
rewriting the file), then each later call frees the pages at the file's end at the cost of
a short write. In WAL mode the file shrinks at the checkpoint that follows. Both take
SQLite's write lock like any commit: a pass in another process holds it for one mail at a
time, and the busy timeout waits for it.

PostgreSQL keeps a row's old version until a vacuum marks its space free for reuse; a
plain ``VACUUM`` of the tables retention rewrites (no exclusive lock: workers go on) lets
the next day's mail reuse what the last prune freed, so the tables stop growing at the
retention horizon instead of waiting for autovacuum's thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, text

# Rewriting the whole file is worth it only for this much free space (and this share).
VACUUM_MIN_BYTES = 1 << 20
VACUUM_MIN_SHARE = 0.10
INCREMENTAL = 2  # PRAGMA auto_vacuum's value for incremental


@dataclass(frozen=True)
class Reclaimed:
    before: int  # bytes on disk
    after: int
    how: str  # what was done: "incremental vacuum", "vacuum", "nothing to give back"...


def sqlite_file(engine: Engine) -> Path | None:
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return Path(database)


def size_on_disk(engine: Engine) -> int:
    """The database's bytes: a SQLite file with its WAL, or PostgreSQL's database size."""
    file = sqlite_file(engine)
    if file is not None:
        return sum(p.stat().st_size for p in (file, file.with_name(file.name + "-wal"))
                   if p.exists())
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT pg_database_size(current_database())"))
                       .scalar_one())
    return 0


def reclaim(engine: Engine, tables: tuple[str, ...]) -> Reclaimed:
    """Give back the space freed in ``tables`` (PostgreSQL vacuums those; SQLite the file)."""
    before = size_on_disk(engine)
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f"VACUUM (ANALYZE) {', '.join(tables)}"))
        return Reclaimed(before, size_on_disk(engine), f"vacuum of {', '.join(tables)}")
    if sqlite_file(engine) is None:
        return Reclaimed(before, before, "nothing to give back")
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        mode = int(conn.exec_driver_sql("PRAGMA auto_vacuum").scalar_one())
        free = int(conn.exec_driver_sql("PRAGMA freelist_count").scalar_one())
        page = int(conn.exec_driver_sql("PRAGMA page_size").scalar_one())
        if mode == INCREMENTAL:
            how = "incremental vacuum"
            # Each step of the statement frees one page, and the driver's execute() steps
            # once when no row comes back; executescript runs it to its end.
            driver = conn.connection.dbapi_connection
            assert driver is not None
            driver.executescript("PRAGMA incremental_vacuum;")
        elif free * page >= max(VACUUM_MIN_BYTES, VACUUM_MIN_SHARE * before):
            how = "vacuum (the file frees space incrementally from now on)"
            conn.exec_driver_sql(f"PRAGMA auto_vacuum={INCREMENTAL}")
            conn.exec_driver_sql("VACUUM")
        else:
            return Reclaimed(before, before, "too little free to rewrite the file; "
                             "new rows reuse it")
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    return Reclaimed(before, size_on_disk(engine), how)
