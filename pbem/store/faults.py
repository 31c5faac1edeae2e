"""Telling a passing fault of the database or disk from a message that is itself bad.

A transient fault (the database is locked or unreachable, the disk is full, the connection
dropped) says nothing about the mail being handled: the mail must stay where it is and be tried
again later. Only an error the message itself causes may quarantine it. Anything not known to
be transient counts as the message's fault, so an unexpected error can never wedge the inbox.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from sqlalchemy import exc as sa

# sqlite3.OperationalError texts that describe the file or the lock, never the statement.
_SQLITE_TRANSIENT = ("database is locked", "database table is locked", "disk i/o error",
                     "database or disk is full", "unable to open database",
                     "attempt to write a readonly database", "database is busy")


class TransientFault(Exception):
    """The database or disk failed for a reason that is not the message's: try again later."""


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        orig = current.orig if isinstance(current, sa.DBAPIError) else None
        if isinstance(orig, BaseException) and id(orig) not in seen:
            seen.add(id(orig))
            yield orig  # the driver's own error
        current = current.__cause__ or current.__context__


def _psycopg_transient(err: BaseException) -> bool | None:
    """True/False for a psycopg error, None for anything else."""
    try:
        import psycopg
        from psycopg import errors
    except ImportError:  # pragma: no cover - PostgreSQL support not installed
        return None
    if not isinstance(err, psycopg.Error):
        return None
    # Class 54 (a statement too large for an index row, too many columns...) is filed under
    # OperationalError but is caused by the data being written: the message's fault.
    if isinstance(err, errors.ProgramLimitExceeded):
        return False
    return isinstance(err, psycopg.OperationalError | psycopg.InterfaceError)


def is_transient(exc: BaseException) -> bool:
    """Is ``exc`` (or what caused it) a fault of the database, disk or connection?"""
    if isinstance(exc, TransientFault):
        return True
    for err in _chain(exc):
        if isinstance(err, sa.DBAPIError) and err.connection_invalidated:
            return True
        if isinstance(err, sa.DisconnectionError | sa.TimeoutError):  # pool exhausted too
            return True
        if isinstance(err, sqlite3.OperationalError):
            text = str(err).lower()
            return any(t in text for t in _SQLITE_TRANSIENT)
        verdict = _psycopg_transient(err)
        if verdict is not None:
            return verdict
        if isinstance(err, OSError):  # ENOSPC, EIO, a refused connection: the machine's state
            return True
    return False


def describe(exc: BaseException) -> str:
    """One line naming the fault, for logs and the operator (no message content in it)."""
    root = next((e for e in _chain(exc) if not isinstance(e, sa.SQLAlchemyError)), exc)
    text = " ".join(str(root).split())[:300]
    return f"{type(root).__name__}: {text}" if text else type(root).__name__
