"""Host configuration: a TOML file read with tomllib into typed sections.

Every setting has an embedded default, so pbem runs with no file at all (Maildir in and out,
a SQLite file, all under the data directory). Passwords are never stored in the file: they are
read from an environment variable or a file when needed, and never appear in ``repr``.

The sections are in :mod:`pbem.settings.sections` (with their defaults), how each is read and
checked in :mod:`pbem.settings.reader`; this module puts them together into a :class:`Config`.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.settings import reader
from pbem.settings.errors import ConfigError, PasswordFileError
from pbem.settings.secret import Secret
from pbem.settings.sections import (
    FORGET_BY_MAIL,
    OPENERS,
    TIMEOUT_POLICIES,
    Bots,
    Deadlines,
    DnsConfig,
    ImapConfig,
    InboundConfig,
    Limits,
    Lobby,
    MailConfig,
    OutboundConfig,
    Retention,
    Secrets,
    Site,
    SmtpConfig,
    Watch,
)

# The sections and errors are read from here too: one module to import for the whole config.
__all__ = [
    "FORGET_BY_MAIL",
    "OPENERS",
    "TIMEOUT_POLICIES",
    "Bots",
    "Config",
    "ConfigError",
    "Deadlines",
    "DnsConfig",
    "ImapConfig",
    "InboundConfig",
    "Limits",
    "Lobby",
    "MailConfig",
    "OutboundConfig",
    "PasswordFileError",
    "Retention",
    "Secret",
    "Secrets",
    "Site",
    "SmtpConfig",
    "default_data_dir",
    "from_dict",
    "load",
]


@dataclass(frozen=True)
class Config:
    # Where the SQLite file and the local mail folders live; default ./pbem-data or $PBEM_HOME.
    data_dir: Path
    # [database] url: an SQLAlchemy URL; default a SQLite file in data_dir.
    database_url: str
    inbound: InboundConfig
    outbound: OutboundConfig
    mail: MailConfig = field(default_factory=MailConfig)
    limits: Limits = field(default_factory=Limits)
    deadlines: Deadlines = field(default_factory=Deadlines)
    bots: Bots = field(default_factory=Bots)
    lobby: Lobby = field(default_factory=Lobby)
    retention: Retention = field(default_factory=Retention)
    secrets: Secrets = field(default_factory=Secrets)
    watch: Watch = field(default_factory=Watch)
    # The key that signs game exports (pbem.ops.hostkey); None: <data_dir>/host.key.
    host_key_file: Path | None = None
    dns: DnsConfig = field(default_factory=DnsConfig)
    site: Site = field(default_factory=Site)

    @property
    def host_key_path(self) -> Path:
        return self.host_key_file or self.data_dir / "host.key"


def default_data_dir() -> Path:
    return Path(os.environ.get("PBEM_HOME", "./pbem-data"))


def from_dict(raw: dict[str, Any], base: Path | None = None) -> Config:
    """Build a :class:`Config` from parsed TOML; relative paths resolve against ``base``."""
    base = base or Path(".")
    table = reader.Table(raw, "")
    try:
        cfg = _build(table, base)
    except ConfigError:
        raise
    except (TypeError, ValueError) as exc:  # e.g. port = "imap": int() says what it got
        raise ConfigError(f"a setting has the wrong type: {exc}") from exc
    unknown = table.unknown()
    if unknown:
        raise ConfigError("; ".join(unknown))
    return cfg


def _build(raw: dict[str, Any], base: Path) -> Config:
    data_dir = base / str(raw.get("data_dir", default_data_dir()))
    db = raw.get("database", {})
    url = str(db.get("url", f"sqlite:///{data_dir / 'pbem.sqlite'}"))
    inbound = raw.get("inbound", {})
    imap = reader.imap(inbound["imap"], base) if "imap" in inbound else None
    in_maildir = base / str(inbound.get("maildir", {}).get("path", data_dir / "inbox"))
    outbound = raw.get("outbound", {})
    smtp = reader.smtp(outbound["smtp"], base) if "smtp" in outbound else None
    out_maildir = base / str(outbound.get("maildir", {}).get("path", data_dir / "outbox"))
    try:
        return Config(
            data_dir=data_dir,
            database_url=url,
            inbound=InboundConfig(imap=imap, maildir=in_maildir),
            outbound=OutboundConfig(smtp=smtp, maildir=out_maildir),
            mail=reader.mail(raw.get("mail", {})),
            limits=reader.limits(raw.get("limits", {})),
            deadlines=(clocks := reader.deadlines(raw.get("deadlines", {}))),
            secrets=reader.secrets(raw.get("secrets", {}), clocks),
            bots=reader.bots(raw.get("bots", {})),
            lobby=reader.lobby(raw.get("lobby", {})),
            retention=reader.retention(raw.get("retention", {})),
            watch=reader.watch(raw.get("watch", {})),
            host_key_file=base / str(raw["host_key_file"]) if "host_key_file" in raw else None,
            dns=reader.dns(raw.get("dns", {}), base),
            site=reader.site(raw.get("site", {})),
        )
    except TypeError as exc:
        raise ConfigError(f"unknown setting: {exc}") from exc


def load(path: Path | None = None) -> Config:
    """Read ``path`` (or embedded defaults when None or absent)."""
    if path is None or not path.exists():
        if path is not None and path.name != "pbem.toml":
            raise ConfigError(f"config file {path} not found")
        return from_dict({})
    with path.open("rb") as fh:
        try:
            raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
    return from_dict(raw, base=path.parent)
