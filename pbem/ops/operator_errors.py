"""Errors an operator or a broken environment causes, told as one line and a fix.

The CLI passes every exception that escapes a command through :func:`explain`; what it knows
becomes ``error: <what happened>`` and ``fix: <what to do>`` instead of a Python traceback
(``pbem --debug`` still shows the traceback). What it does not know is a bug, and keeps its
traceback.

The exit code tells a scheduler what to do next (sysexits.h): ``EX_TEMPFAIL`` (75) when the
same command may work later as it is (a server down or unreachable), ``EX_CONFIG`` (78) when
the settings must change first (a refused login, a missing folder, an unset password
variable); anything else is 1.
"""

from __future__ import annotations

import imaplib
import sqlite3
from dataclasses import dataclass

import aiosmtplib
from alembic.util.exc import CommandError
from sqlalchemy import exc as sa

from pbem.engine.registry import InvalidGame, UnknownGame
from pbem.mail.inbound import InboxError
from pbem.ops.hostkey import HostKeyError
from pbem.settings.config import ConfigError

EX_TEMPFAIL = 75  # sysexits.h: try again later
EX_CONFIG = 78  # sysexits.h: the configuration is wrong


@dataclass(frozen=True)
class Explained:
    message: str
    fix: str
    code: int = 1


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _database(exc: sa.SQLAlchemyError) -> Explained:
    cause = exc.orig if isinstance(exc, sa.DBAPIError) else None
    text = _first_line(cause if cause is not None else exc)
    if isinstance(cause, sqlite3.DatabaseError) and "not a database" in text:
        return Explained(f"the SQLite database file is damaged or is not a database ({text})",
                         "restore it from a backup, or set [database] url to the right file")
    if isinstance(exc, sa.OperationalError) and any(
            word in text for word in ("connect", "Connection refused", "could not translate",
                                      "No such file or directory", "timeout")):
        return Explained(f"cannot reach the database: {text}",
                         "start the database server, or check [database] url in the config",
                         EX_TEMPFAIL)
    if isinstance(exc, sa.StatementError) and not isinstance(exc, sa.DBAPIError):
        return Explained(f"the database refused a value: {text}",
                         "the input holds a value pbem cannot store; nothing was written")
    return Explained(f"database error: {text}",
                     "check the database (`pbem doctor`), its server and [database] url")


def explain(exc: BaseException) -> Explained | None:
    """What the operator should read for ``exc``, or None if it is a bug (keep the trace)."""
    if isinstance(exc, UnknownGame | InvalidGame):
        return Explained(exc.message, exc.fix)
    if isinstance(exc, ConfigError):
        return Explained(f"config error: {exc}",
                         "edit the config file (see config.example.toml), or set the "
                         "environment variable it names", EX_CONFIG)
    if isinstance(exc, InboxError):
        return Explained(str(exc), exc.fix, EX_TEMPFAIL if exc.transient else EX_CONFIG)
    if isinstance(exc, HostKeyError):
        return Explained(str(exc), exc.fix)
    if isinstance(exc, sa.SQLAlchemyError):
        return _database(exc)
    if isinstance(exc, CommandError):  # alembic: e.g. a schema newer than this pbem
        return Explained(f"database schema: {exc}",
                         "install the pbem version that made this database, or restore a "
                         "backup")
    if isinstance(exc, imaplib.IMAP4.error) and "EXPUNGEISSUED" in str(exc):
        # RFC 5530: mail another session (a second worker, a mail program) removed meanwhile
        return Explained(f"the IMAP folder changed during the pass: {_first_line(exc)}",
                         "nothing to change: the next pass goes on (another worker or mail "
                         "program moved that mail)", EX_TEMPFAIL)
    if isinstance(exc, imaplib.IMAP4.error):
        return Explained(f"the IMAP server refused: {_first_line(exc)}",
                         "check [inbound.imap] user, password and folder (`pbem doctor`)")
    if isinstance(exc, aiosmtplib.SMTPException):
        return Explained(f"the SMTP server refused: {_first_line(exc)}",
                         "check [outbound.smtp] (`pbem doctor`)")
    if isinstance(exc, ConnectionError | TimeoutError):
        return Explained(f"cannot reach a server: {_first_line(exc)}",
                         "check that the mail and database servers run (`pbem doctor`)",
                         EX_TEMPFAIL)
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        reason = exc.strerror or _first_line(exc)
        return Explained(f"{reason}{where}",
                         "check that PBEM_HOME, data_dir and the paths in the config name "
                         "folders and files the pbem user may use")
    return None
