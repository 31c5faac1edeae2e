"""``pbem doctor``: check the config, database, mailboxes and mail server, and say how to fix.

Read-only: it never creates, migrates or sends anything (the SMTP check asks to send, then
takes it back with RSET before any message).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import imaplib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import aiosmtplib
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlalchemy.exc import SQLAlchemyError

from pbem.mail.settings import ImapSettings, SmtpSettings
from pbem.mail.smtp_connect import open_smtp
from pbem.ops import dns_records
from pbem.ops.check import Check
from pbem.settings.config import Config, ConfigError, PasswordFileError, load
from pbem.settings.transports import imap_settings, smtp_settings
from pbem.store.db import MIGRATIONS

T = TypeVar("T")


def _head_revision() -> str | None:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg).get_current_head()


def check_database(url: str) -> Check:
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        return Check("database", False, f"database file {url.removeprefix('sqlite:///')} "
                     "does not exist", "run `pbem init` to create it")
    try:
        engine = create_engine(url)
        with engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
        engine.dispose()
    except (SQLAlchemyError, OSError) as exc:
        first = str(exc).strip().splitlines()[0]
        return Check("database", False, f"cannot connect to {_safe_url(url)}: {first}",
                     "check [database] url, and that the database server is running")
    head = _head_revision()
    if current != head:
        return Check("database", False,
                     f"schema is at revision {current or 'none'}, the newest is {head}",
                     "run `pbem init` to migrate the database")
    return Check("database", True, f"{_safe_url(url)} at schema revision {head}")


def _safe_url(url: str) -> str:
    """A database URL without its password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest and ":" in rest.split("@", 1)[0]:
        user = rest.split("@", 1)[0].split(":", 1)[0]
        rest = f"{user}:***@{rest.split('@', 1)[1]}"
    return f"{scheme}{sep}{rest}"


def check_maildir(name: str, path: Path) -> Check:
    if not path.exists():
        return Check(name, False, f"Maildir {path} does not exist", "run `pbem init`")
    if not os.access(path, os.W_OK):
        return Check(name, False, f"Maildir {path} is not writable",
                     f"give the pbem user write access to {path}")
    return Check(name, True, f"Maildir {path}")


def check_imap(s: ImapSettings) -> Check:
    from imapclient import IMAPClient
    from imapclient.exceptions import LoginError

    where = f"{s.host}:{s.port}"
    try:
        client = IMAPClient(s.host, port=s.port, ssl=s.security == "tls", timeout=s.timeout)
    except (OSError, TimeoutError) as exc:
        return Check("inbound IMAP", False, f"cannot reach {where}: {exc}",
                     "check inbound.imap host, port and security, and the firewall")
    try:
        if s.security == "starttls":
            client.starttls()
        try:
            client.login(s.user, s.password)
        except LoginError:
            return Check("inbound IMAP", False, f"login as {s.user!r} on {where} was refused",
                         "check inbound.imap user and the password in its env var or file")
        try:
            folders = {f[2] for f in client.list_folders()}
        except imaplib.IMAP4.error as exc:
            return Check("inbound IMAP", False, f"{where} let {s.user!r} log in but refused to "
                         f"list its folders: {_text(exc)}",
                         "the mail server cannot open this mailbox: check its log (for "
                         "Dovecot: the user's uid, home and mail_location)")
        if s.folder not in folders:
            return Check("inbound IMAP", False, f"folder {s.folder!r} not found on {where} "
                         f"(there: {', '.join(sorted(folders))})",
                         "set inbound.imap folder to an existing folder")
        missing = [f for f in (s.processed_folder, s.failed_folder) if f not in folders]
        note = f"; pbem will create {', '.join(missing)}" if missing else ""
        return Check("inbound IMAP", True, f"{s.user}@{where}, folder {s.folder}{note}")
    finally:
        with contextlib.suppress(Exception):  # a half-open connection: nothing to add
            client.logout()


class _Refused(Exception):
    """The SMTP server answered, but will not take pbem's mail as configured."""

    def __init__(self, message: str, fix: str) -> None:
        super().__init__(message)
        self.message, self.fix = message, fix


async def _smtp_probe(s: SmtpSettings, sender: str) -> None:
    """Connect, STARTTLS and log in as configured, then ask to send (MAIL FROM) and take it
    back (RSET): a server that needs a login, or refuses the From address, says so here
    without anything being sent."""
    where = f"{s.host}:{s.port}"
    smtp = await open_smtp(s, start_tls=False)  # greeting as sending does
    try:
        await smtp.ehlo()
        if s.security == "starttls":
            if not smtp.supports_extension("starttls"):
                raise _Refused(f"{where} does not offer STARTTLS",
                               'set outbound.smtp security to "tls" (usually port 465), or '
                               '"none" only for a server on this machine')
            await smtp.starttls()
        if s.user:
            if not smtp.supports_extension("auth"):
                raise _Refused(f"{where} offers no login (SMTP AUTH) on this connection",
                               'use security "tls" or "starttls" (servers offer AUTH only '
                               "over TLS), or remove outbound.smtp user if this server "
                               "needs no login")
            await smtp.login(s.user, s.password or "")
        try:
            await smtp.mail(sender)
        except aiosmtplib.SMTPSenderRefused as exc:
            if exc.code == 530 or not s.user:
                raise _Refused(f"{where} requires a login before it takes mail "
                               f"({exc.code} {exc.message})",
                               "set outbound.smtp user and password_env or password_file"
                               ) from exc
            raise _Refused(f"{where} refuses mail from {sender} ({exc.code} {exc.message})",
                           "set [mail] from_address to an address this account may send "
                           "as") from exc
        await smtp.rset()
    finally:
        with contextlib.suppress(Exception):  # the answer is known; a failed QUIT adds nothing
            await smtp.quit()


def check_smtp(s: SmtpSettings, sender: str = "pbem@localhost") -> Check:
    where = f"{s.host}:{s.port}"
    try:
        asyncio.run(_smtp_probe(s, sender))
    except _Refused as exc:
        return Check("outbound SMTP", False, exc.message, exc.fix)
    except aiosmtplib.SMTPAuthenticationError:
        return Check("outbound SMTP", False, f"login as {s.user!r} on {where} was refused",
                     "check outbound.smtp user and the password in its env var or file")
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        return Check("outbound SMTP", False, f"cannot reach {where}: {exc}",
                     "check outbound.smtp host, port and security, and the firewall")
    return Check("outbound SMTP", True, f"{where}" + (f" as {s.user}" if s.user else ""))


def check_data_dir(path: Path) -> Check:
    """pbem init makes its files here, so the user running pbem must be able to write."""
    if path.exists():
        if not path.is_dir():
            return Check("data folder", False, f"{path} is a file, not a folder",
                         "set data_dir (or PBEM_HOME) to a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            return Check("data folder", False, f"{path} is not writable by this user",
                         f"chown the folder to the user that runs pbem: chown -R pbem: {path}")
        return Check("data folder", True, str(path))
    parent = next((p for p in path.absolute().parents if p.exists()), Path("/"))
    if not os.access(parent, os.W_OK | os.X_OK):
        return Check("data folder", False, f"{path} does not exist and {parent} is not "
                     "writable by this user", f"as root: install -d -o pbem -g pbem {path}")
    return Check("data folder", True, f"{path} (`pbem init` will make it)")


def _guard(name: str, probe: Callable[[], Check]) -> Check:
    """Run one check; whatever it raises becomes its FAIL line, never a traceback."""
    from pbem.ops.operator_errors import explain

    try:
        return probe()
    except PasswordFileError as exc:
        return Check(name, False, str(exc),
                     f"the file must be readable by the pbem user (the one that runs pbem, "
                     f"here {getpass.getuser()}): chown pbem: {exc.path} && "
                     f"chmod 600 {exc.path}")
    except ConfigError as exc:
        return Check(name, False, str(exc), "set the password's env var or file")
    except Exception as exc:
        told = explain(exc)
        if told is not None:
            return Check(name, False, told.message, told.fix)
        first = (str(exc).strip().splitlines() or [""])[0]
        return Check(name, False, f"unexpected {type(exc).__name__}: {first}",
                     "`pbem --debug doctor` shows where; please report it if the setup "
                     "looks right")


def run_file(path: Path | None, debug: bool = False, dns: bool = False) -> list[Check]:
    """Read the config at ``path`` (None: embedded defaults) and run every check on it; a
    config that cannot be read (unknown keys, bad values) is the one FAIL line."""
    try:
        cfg = load(path)
    except ConfigError as exc:
        where = f" in {path}" if path and str(path) not in str(exc) else ""
        fix = ("create it (config.example.toml lists every setting), or point --config or "
               "PBEM_CONFIG at yours" if path and not path.exists() else
               "edit the config file (config.example.toml lists every setting)")
        return [Check("config", False, f"{exc}{where}", fix)]
    return run(cfg, path, debug, dns)


def run(cfg: Config, path: Path | None = None, debug: bool = False,
        dns: bool = False) -> list[Check]:
    """All checks, in the order a broken setup is best fixed; ``debug`` lets errors raise;
    ``dns`` adds the DNS records the mail needs (pbem.ops.dns_records)."""
    def guard(name: str, probe: Callable[[], Check]) -> Check:
        return probe() if debug else _guard(name, probe)

    where = f"{path}" if path else "embedded defaults"
    checks = [Check("config", True, f"{where}; from address {cfg.mail.from_address}")]
    if cfg.database_url.startswith("sqlite:///"):
        checks.append(guard("data folder", lambda: check_data_dir(cfg.data_dir)))
    checks.append(guard("database", lambda: check_database(cfg.database_url)))
    if cfg.inbound.imap is None:
        checks.append(guard("inbound Maildir",
                            lambda: check_maildir("inbound Maildir", cfg.inbound.maildir)))
    else:
        checks.append(guard("inbound IMAP", lambda: check_imap(_need(imap_settings(cfg)))))
    if cfg.outbound.smtp is None:
        checks.append(guard("outbound Maildir",
                            lambda: check_maildir("outbound Maildir", cfg.outbound.maildir)))
    else:
        checks.append(guard("outbound SMTP", lambda: check_smtp(_need(smtp_settings(cfg)),
                                                                cfg.mail.from_address)))
    if dns:
        checks += dns_records.checks(cfg) if debug else _guard_all(
            "DNS", lambda: dns_records.checks(cfg))
    return checks


def _guard_all(name: str, probe: Callable[[], list[Check]]) -> list[Check]:
    """:func:`_guard` for a probe that gives several lines."""
    found: list[Check] = []

    def run() -> Check:
        found.extend(probe())
        return Check(name, True, "")
    failed = _guard(name, run)
    return found if failed.ok else [failed]


def _text(exc: BaseException) -> str:
    raw = exc.args[0] if exc.args else str(exc)
    text = raw.decode(errors="replace") if isinstance(raw, bytes) else str(raw)
    return " ".join(text.split())


def _need(value: T | None) -> T:
    assert value is not None
    return value
