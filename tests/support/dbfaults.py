"""Transient database faults, injected where a real one would strike.

``DbFaults(engine).every(n)`` makes the first run of every step (a statement, named by its
verb and table, or COMMIT), then about one in n, chosen by a seeded random draw, fail with
the error the driver itself raises for a locked database, a full disk or a dropped
connection. On PostgreSQL a dropped connection is real: the server is told to terminate the
session's backend (``pg_terminate_backend``) just before the statement, so the driver meets
AdminShutdown on its own. The other faults are the driver's exception classes raised at the
cursor, which SQLAlchemy wraps exactly as it wraps the driver's own.
"""

from __future__ import annotations

import random
import re
import sqlite3
from typing import Any

from sqlalchemy import Engine, create_engine, event, text

KINDS = ("locked", "full", "dropped")
_STEP = re.compile(r"^\s*(?:(UPDATE)|(SELECT|INSERT|DELETE)\b.*?\b(?:FROM|INTO))\s+\"?(\w+)",
                   re.I | re.S)


def step(statement: str) -> str:
    """A statement named by what it does and to which table: ``UPDATE seat``."""
    found = _STEP.match(statement)
    if found is None:
        return statement.split()[0].upper() if statement.split() else "?"
    verb = found.group(1) or found.group(2)
    return f"{verb.upper()} {found.group(3).lower()}"


class DbFaults:
    def __init__(self, engine: Engine, seed: int = 10) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self.period = 0
        self.count = 0
        self.rng = random.Random(seed)
        self.forced: list[str] = []
        self.seen: set[str] = set()  # every step that ran
        self.struck: dict[str, set[str]] = {}  # step -> the fault kinds it met
        self.faults = 0
        self._admin: Engine | None = None
        event.listen(engine, "before_cursor_execute", self._before_statement)
        # COMMIT fails inside the dialect, where the driver's own would: SQLAlchemy then
        # handles it as it handles a real one.
        self._do_commit = engine.dialect.do_commit
        engine.dialect.do_commit = self._commit  # type: ignore[method-assign,assignment]

    def every(self, period: int) -> None:
        self.period = period

    def next(self, count: int, kind: str) -> None:
        """Fail each of the next ``count`` statements or COMMITs with ``kind``."""
        self.forced = [kind] * count

    def off(self) -> None:
        self.period = 0
        self.forced = []

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._before_statement)
        self.engine.dialect.do_commit = self._do_commit  # type: ignore[method-assign]
        if self._admin is not None:
            self._admin.dispose()

    def _due(self, name: str) -> str | None:
        if self.forced:
            self.faults += 1
            return self.forced.pop()
        if not self.period:
            return None
        # A step's first run always fails: the rare ones (once a game, once a pass) are
        # struck too, whatever the draws; before, each change of the passes' statements
        # needed a new seed under which they were.
        first = name not in self.seen
        self.seen.add(name)
        self.count += 1
        if self.rng.randrange(self.period) and not first:
            return None
        kind = KINDS[self.faults % len(KINDS)]
        self.struck.setdefault(name, set()).add(kind)
        self.faults += 1
        return kind

    def _error(self, kind: str) -> Exception:
        if self.postgres:
            from psycopg import errors

            if kind == "locked":
                return errors.LockNotAvailable("could not obtain lock on row in relation")
            return errors.DiskFull("could not extend file: No space left on device")
        return sqlite3.OperationalError({"locked": "database is locked",
                                         "full": "database or disk is full",
                                         "dropped": "disk I/O error"}[kind])

    def _terminate(self, dbapi_conn: Any) -> None:
        driver = getattr(dbapi_conn, "driver_connection", dbapi_conn)  # past the pool's proxy
        if self._admin is None:
            self._admin = create_engine(self.engine.url, isolation_level="AUTOCOMMIT")
        with self._admin.connect() as admin:
            admin.execute(text("SELECT pg_terminate_backend(:pid)"),
                          {"pid": driver.info.backend_pid})

    def _before_statement(self, conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        kind = self._due(step(statement))
        if kind is None:
            return
        if kind == "dropped" and self.postgres:
            self._terminate(cursor.connection)  # the statement now meets a dead backend
            return
        raise self._error(kind)

    def _commit(self, dbapi_conn: Any) -> None:
        kind = self._due("COMMIT")
        if kind == "dropped" and self.postgres:
            self._terminate(dbapi_conn)
        elif kind is not None:
            raise self._error(kind)
        self._do_commit(dbapi_conn)
