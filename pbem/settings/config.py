"""Host configuration: a TOML file read with tomllib into typed dataclasses.

Every setting has an embedded default, so pbem runs with no file at all (Maildir in and out,
a SQLite file, all under the data directory). Passwords are never stored in the file: they are
read from an environment variable or a file when needed, and never appear in ``repr``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from email_validator import EmailNotValidError

from pbem.mail.addresses import syntax_checked
from pbem.mail.settings import FAILED_FOLDER, PROCESSED_FOLDER


class ConfigError(ValueError):
    """The configuration file is missing a value or holds a wrong one."""


class PasswordFileError(ConfigError):
    """A password_file that the user running pbem cannot read."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class Secret:
    """Where a password comes from; the value itself is read only on demand."""

    env: str | None = None
    file: Path | None = None

    def get(self) -> str | None:
        if self.env:
            value = os.environ.get(self.env)
            if value is None:
                raise ConfigError(f"environment variable {self.env} is not set")
            return value
        if self.file:
            try:
                return self.file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise PasswordFileError(f"password_file {self.file} cannot be read: "
                                        f"{exc.strerror or exc}", self.file) from exc
        return None

    def __repr__(self) -> str:  # never the value
        return f"Secret(env={self.env!r}, file={str(self.file) if self.file else None!r})"


@dataclass(frozen=True)
class ImapConfig:
    host: str
    port: int = 993
    user: str = ""
    password: Secret = field(default_factory=Secret)
    security: str = "tls"  # tls | starttls | none
    folder: str = "INBOX"
    processed: str = PROCESSED_FOLDER
    failed: str = FAILED_FOLDER


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int = 465
    user: str = ""
    password: Secret = field(default_factory=Secret)
    security: str = "tls"  # tls | starttls | none
    ehlo_name: str = ""  # the name pbem greets the server with; "": from_address's domain
    tls_name: str | None = None  # the name its certificate carries, if not ``host``
    ca_file: Path | None = None  # a CA (or self-signed certificate) to trust besides the system's


@dataclass(frozen=True)
class DnsConfig:
    """``[dns]``: what `pbem dns` prints and `pbem doctor --dns` checks."""

    dkim_selector: str = "pbem"  # the selector the DKIM signer uses (opendkim.conf Selector)
    dkim_public_key: Path | None = None  # the public half of its key (PEM)
    mail_host: str | None = None  # the MX host; default: the from_address domain
    address: str | None = None  # this host's public IPv4; default: the mail host's A record
    nameserver: str | None = None  # "IP" or "IP:PORT" to ask; default: the system's resolver

    @property
    def nameserver_endpoint(self) -> tuple[str, int] | None:
        """``nameserver`` as (IP, port); None for the system's resolver."""
        if not self.nameserver:
            return None
        text = self.nameserver
        host, port = (text, "53") if _is_ip(text) else text.rpartition(":")[::2]
        host = host.removeprefix("[").removesuffix("]")
        if not (_is_ip(host) and port.isdigit() and 0 < int(port) < 65536):
            raise ConfigError(f"dns.nameserver must be an IP address or IP:PORT, not {text!r}")
        return host, int(port)


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class InboundConfig:
    imap: ImapConfig | None
    maildir: Path


@dataclass(frozen=True)
class OutboundConfig:
    smtp: SmtpConfig | None
    maildir: Path


@dataclass(frozen=True)
class Limits:
    max_message_bytes: int = 1_000_000
    stranger_replies_per_day: int = 1  # replies to one unknown sender / wrong secret per 24 h
    send_attempts: int = 8  # then an outbound mail is marked failed
    retry_base_seconds: int = 60  # backoff: base * 2**attempts
    # Answers to mail that proved no seat's secret (help, no or wrong secret): per address and
    # per hour, and for all addresses together, so forged mail cannot aim the host at anyone.
    unverified_replies_per_hour: int = 3
    replies_per_hour_total: int = 100
    send_lease_seconds: int = 300  # a claimed mail is not taken by another worker this long
    transient_retries: int = 3  # a mail hit by a database/disk fault is tried again this often
    transient_backoff_ms: int = 500  # ... after base * 2**attempt milliseconds
    fault_alert_after: int = 5  # consecutive failed passes before the operator is mailed
    # Table talk: what one mail may say (more is cut, the sender told), and how many mails
    # with talk one seat may send in 24 hours (each reaches every listener as one mail).
    talk_chars_per_mail: int = 4000
    talk_mails_per_day: int = 30


@dataclass(frozen=True)
class Deadlines:
    """Defaults for `pbem game new`; each game keeps its own copy."""

    turn_hours: int = 72  # 0: no deadline
    reminder_hours: int = 24  # 0: no reminder
    # default (play the game's safe order) | pause (tell the operator) | bot (a bot takes
    # the seat over until its player mails "back")
    timeout: str = "default"
    vacation_days: int = 14  # vacation days each seat may take per game


TIMEOUT_POLICIES = ("default", "pause", "bot")


@dataclass(frozen=True)
class Bots:
    """How the host's bots play (bot seats, and bots standing in for absent players)."""

    seconds_per_move: float = 1.0  # CPU one bot decision may take (its strategy's budget)
    # Bot moves one game makes in one pass; the rest wait for the next pass, so a table of
    # bots never holds a pass (and the other games' mail) up for long.
    moves_per_pass: int = 12
    stand_in_level: str = "normal"  # the level of a bot standing in for a player
    # CPU all games' bots share in one clock pass; the games that waited longest go first, so
    # a hundred tables of bots keep each pass (and a player's wait for a reply) short.
    seconds_per_pass: float = 30.0
    # Games with a bot seat count in the standings: each bot level is then a player of its
    # own, and beating it lifts a person's rating no higher than that level's rating.
    rated: bool = False
OPENERS = ("anyone", "players", "operator")


@dataclass(frozen=True)
class Lobby:
    """``[lobby]``: tables opened, joined and started by mail (pbem.pipeline.lobby)."""

    # Off unless the operator turns it on: with it, anyone who has the host's address can
    # make it create games and send mail, so a host that runs its games by hand stays closed.
    enabled: bool = False
    # Who may open a table: anyone, players (an address that holds a seat in a game or
    # confirmed one at a table), operator (the operator_address only). Anyone may join.
    open: str = "anyone"
    # Sender domains allowed to use the lobby at all (empty: every domain).
    domains: tuple[str, ...] = ()
    # An unconfirmed seat is given back after this long. It holds no place meanwhile (the
    # first confirmations take the seats), so hours are enough.
    confirm_hours: int = 12
    invites_per_day: int = 5  # invitations one player may send in 24 hours
    open_tables_per_address: int = 3  # tables one address has open (not started) at once
    tables_per_address_per_day: int = 5  # tables one address may open in 24 hours
    # Tables opened by everyone together in 24 hours that a confirmed seat holds: tables
    # only held by unconfirmed seats count per sender and per domain instead, so forged
    # mail cannot spend this.
    tables_per_day: int = 100
    # Unconfirmed seats (a new table's first included) that the addresses of one domain
    # hold at once: what forged From lines of one domain can make the host keep.
    holds_per_domain: int = 30
    # Lobby answers per hour to the addresses of one domain that never confirmed a seat
    # (besides [limits] unverified_replies_per_hour per address); they do not count
    # against [limits] replies_per_hour_total, so forged lobby mail silences nobody else.
    replies_per_domain_per_hour: int = 30
    # Lobby answers to an address that confirmed a seat before (forged mail can name it too);
    # answers to any other address count against [limits] unverified_replies_per_hour.
    replies_per_hour: int = 20


@dataclass(frozen=True)
class Retention:
    """``[retention]``: how long stored mail keeps its bytes (pbem.ops.retention)."""

    sent_mail_days: int = 30  # after delivery; then its headers, size and digest
    received_mail_days: int = 30  # after its game ends; then its headers and digest
    # A player who asks by mail (with a seat's secret) to be forgotten: "operator" (the
    # operator is told and runs `pbem player forget`) or "after_games" (the host forgets them
    # by itself once their games have ended; the operator is told too).
    forget_by_mail: str = "operator"


FORGET_BY_MAIL = ("operator", "after_games")


@dataclass(frozen=True)
class Secrets:
    """``[secrets]``: how a seat's mail is proved besides its secret."""

    # Days the reply address of a seat's mail proves the seat (a reply to it needs no secret
    # line); at least the longest deadline, so a reply on the deadline's last hour plays.
    reply_days: int = 30


def _secrets(section: dict[str, Any], deadlines: Deadlines) -> Secrets:
    result = Secrets(**_values(Secrets, section, "secrets"))
    if result.reply_days * 24 < max(deadlines.turn_hours, 24):
        raise ConfigError(f"secrets.reply_days must be at least the turn deadline "
                          f"([deadlines] turn_hours = {deadlines.turn_hours}: "
                          f"{-(-deadlines.turn_hours // 24)} days) and 1, not "
                          f"{result.reply_days}")
    return result


def _retention(section: dict[str, Any]) -> Retention:
    result = Retention(**_values(Retention, section, "retention"))
    if result.forget_by_mail not in FORGET_BY_MAIL:
        raise ConfigError(f"retention.forget_by_mail must be one of "
                          f"{', '.join(FORGET_BY_MAIL)}, not {result.forget_by_mail!r}")
    for name in ("sent_mail_days", "received_mail_days"):
        if getattr(result, name) < 0:
            raise ConfigError(f"retention.{name} must be 0 or more days, not "
                              f"{getattr(result, name)}")
    return result


@dataclass(frozen=True)
class Config:
    data_dir: Path
    database_url: str
    from_address: str
    from_name: str
    inbound: InboundConfig
    outbound: OutboundConfig
    limits: Limits
    deadlines: Deadlines
    bots: Bots = field(default_factory=Bots)
    lobby: Lobby = field(default_factory=Lobby)
    retention: Retention = field(default_factory=Retention)
    secrets: Secrets = field(default_factory=Secrets)
    operator_address: str | None = None  # gets the mail when a game pauses on a timeout
    # When set, a player's mail counts only if the topmost Authentication-Results header,
    # from this authserv-id (our own receiving server), shows DKIM, SPF or DMARC passing
    # for its From domain (pbem.mail.authresults).
    trusted_authserv_id: str | None = None
    # The key that signs game exports (pbem.ops.hostkey); None: <data_dir>/host.key.
    host_key_file: Path | None = None
    dns: DnsConfig = field(default_factory=DnsConfig)

    @property
    def host_key_path(self) -> Path:
        return self.host_key_file or self.data_dir / "host.key"

    @property
    def message_id_domain(self) -> str:
        return self.from_address.rpartition("@")[2] or "localhost"


_SECURITY = {"tls", "starttls", "none"}


class _Table(dict[str, Any]):
    """A TOML table that remembers which keys the reader asked for.

    Whatever :func:`from_dict` (or a dataclass it fills) never asks for is not a setting, so
    the valid keys follow the code: a key added there is valid here with nothing else to edit.
    """

    def __init__(self, raw: dict[str, Any], where: str) -> None:
        super().__init__(raw)
        self.where = where
        self.asked: set[str] = set()
        self.tables: dict[str, _Table] = {}

    def _wrap(self, key: str, value: Any) -> Any:
        if isinstance(value, dict) and not isinstance(value, _Table):
            if key not in self.tables:
                self.tables[key] = _Table(value, f"{self.where}.{key}" if self.where else key)
            return self.tables[key]
        return value

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return self._wrap(key, super().get(key, default))

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return self._wrap(key, super().__getitem__(key))

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return super().__contains__(key)

    def unknown(self) -> list[str]:
        """One line per key nobody asked for, with the keys that are valid in its table."""
        lines = []
        valid = ", ".join(sorted(k for k in self.asked if k not in _REFUSED))
        for key in self:
            if key not in self.asked:
                where = f"in [{self.where}]" if self.where else "at the top level"
                lines.append(f"unknown setting {key!r} {where} (valid there: {valid})")
        for table in self.tables.values():
            lines.extend(table.unknown())
        return lines


# Keys the reader looks for only to refuse them with a better message.
_REFUSED = frozenset({"password"})


def _values(cls: type[Any], section: dict[str, Any], where: str) -> dict[str, Any]:
    """The section's settings for ``cls``'s fields, each checked against its default's type."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in section:
            continue
        value, default = section[f.name], f.default
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.{f.name} must be true or false, not {value!r}")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{where}.{f.name} must be a whole number, not {value!r}")
        elif isinstance(default, str):
            value = str(value)
        values[f.name] = value
    return values


def _port(section: dict[str, Any], default: int, where: str) -> int:
    value = section.get("port", default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
        raise ConfigError(f"{where}.port must be a port number (1-65535), not {value!r}")
    return value


def _address(value: Any, where: str) -> str:
    """A plain address (no name, no brackets), checked for syntax only: no DNS lookups."""
    text = str(value)
    try:
        syntax_checked(text)
    except EmailNotValidError as exc:
        raise ConfigError(f"{where} {text!r} is not an email address: {exc}") from exc
    return text


_HOSTNAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")


def _ehlo_name(value: Any) -> str:
    text = str(value).strip()
    if text and not _HOSTNAME.fullmatch(text):
        raise ConfigError(f"outbound.smtp.ehlo_name must be a host name like "
                          f"mail.example.org, not {text!r}")
    return text


def _secret(section: dict[str, Any], base: Path) -> Secret:
    env = section.get("password_env")
    file = section.get("password_file")
    if "password" in section:
        raise ConfigError("put passwords in password_env or password_file, not in the file")
    return Secret(env=str(env) if env else None, file=(base / str(file)) if file else None)


def _security(section: dict[str, Any], where: str) -> str:
    value = str(section.get("security", "tls"))
    if value not in _SECURITY:
        raise ConfigError(f"{where}.security must be one of {sorted(_SECURITY)}, not {value!r}")
    return value


def _deadlines(section: dict[str, Any]) -> Deadlines:
    result = Deadlines(**_values(Deadlines, section, "deadlines"))
    if result.timeout not in TIMEOUT_POLICIES:
        raise ConfigError(f"deadlines.timeout must be one of {', '.join(TIMEOUT_POLICIES)}, "
                          f"not {result.timeout!r}")
    return result


def _bots(section: dict[str, Any]) -> Bots:
    from pbem.engine.contract import BOT_LEVELS

    values = _values(Bots, section, "bots")
    seconds = values.get("seconds_per_move", Bots.seconds_per_move)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not (
            0 < seconds <= 600):
        raise ConfigError(f"bots.seconds_per_move must be a number of seconds above 0 (at "
                          f"most 600), not {seconds!r}")
    per_pass = values.get("seconds_per_pass", Bots.seconds_per_pass)
    if isinstance(per_pass, bool) or not isinstance(per_pass, int | float) or not (
            0 < per_pass <= 3600):
        raise ConfigError(f"bots.seconds_per_pass must be a number of seconds above 0 (at "
                          f"most 3600), not {per_pass!r}")
    result = Bots(**{**values, "seconds_per_move": float(seconds),
                     "seconds_per_pass": float(per_pass)})
    if not 1 <= result.moves_per_pass <= 1000:  # the host's bound on moves played in a row
        raise ConfigError(f"bots.moves_per_pass must be 1 to 1000, not {result.moves_per_pass}")
    if result.stand_in_level not in BOT_LEVELS:
        raise ConfigError(f"bots.stand_in_level must be one of {', '.join(BOT_LEVELS)}, not "
                          f"{result.stand_in_level!r}")
    return result


def _lobby(section: dict[str, Any]) -> Lobby:
    values = _values(Lobby, section, "lobby")
    if "domains" in section:
        domains = section["domains"]
        if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
            raise ConfigError(f"lobby.domains must be a list of domains like "
                              f"[\"example.org\"], not {domains!r}")
        values["domains"] = tuple(d.strip().lower().lstrip("@") for d in domains if d.strip())
    result = Lobby(**values)
    if result.open not in OPENERS:
        raise ConfigError(f"lobby.open must be one of {', '.join(OPENERS)}, not "
                          f"{result.open!r}")
    for name in ("confirm_hours", "invites_per_day", "open_tables_per_address",
                 "tables_per_address_per_day", "tables_per_day", "replies_per_hour",
                 "holds_per_domain", "replies_per_domain_per_hour"):
        if getattr(result, name) < 0 or (name == "confirm_hours" and result.confirm_hours == 0):
            raise ConfigError(f"lobby.{name} must be a positive whole number, not "
                              f"{getattr(result, name)}")
    return result


def _dns(section: dict[str, Any], base: Path) -> DnsConfig:
    values = {k: str(v) for k, v in _values(DnsConfig, section, "dns").items()}
    key = values.pop("dkim_public_key", None)
    result = DnsConfig(**values, dkim_public_key=base / key if key else None)
    if result.address is not None and not (_is_ip(result.address) and "." in result.address):
        raise ConfigError(f"dns.address must be an IPv4 address, not {result.address!r}")
    result.nameserver_endpoint  # noqa: B018 - refuses a malformed one here, at load time
    return result


def default_data_dir() -> Path:
    return Path(os.environ.get("PBEM_HOME", "./pbem-data"))


def from_dict(raw: dict[str, Any], base: Path | None = None) -> Config:
    """Build a :class:`Config` from parsed TOML; relative paths resolve against ``base``."""
    base = base or Path(".")
    table = _Table(raw, "")
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
    imap = None
    if "imap" in inbound:
        s = inbound["imap"]
        if "host" not in s:
            raise ConfigError("inbound.imap.host is required")
        sec = _security(s, "inbound.imap")
        imap = ImapConfig(
            host=str(s["host"]), port=_port(s, 993 if sec == "tls" else 143, "inbound.imap"),
            user=str(s.get("user", "")), password=_secret(s, base), security=sec,
            folder=str(s.get("folder", "INBOX")),
            processed=str(s.get("processed", PROCESSED_FOLDER)),
            failed=str(s.get("failed", FAILED_FOLDER)),
        )
    in_maildir = base / str(inbound.get("maildir", {}).get("path", data_dir / "inbox"))
    outbound = raw.get("outbound", {})
    smtp = None
    if "smtp" in outbound:
        s = outbound["smtp"]
        if "host" not in s:
            raise ConfigError("outbound.smtp.host is required")
        sec = _security(s, "outbound.smtp")
        smtp = SmtpConfig(
            host=str(s["host"]),
            port=_port(s, {"tls": 465, "starttls": 587}.get(sec, 25), "outbound.smtp"),
            user=str(s.get("user", "")), password=_secret(s, base), security=sec,
            ehlo_name=_ehlo_name(s.get("ehlo_name", "")),
            tls_name=str(s["tls_name"]) if "tls_name" in s else None,
            ca_file=base / str(s["ca_file"]) if "ca_file" in s else None,
        )
    out_maildir = base / str(outbound.get("maildir", {}).get("path", data_dir / "outbox"))
    mail = raw.get("mail", {})
    limits = raw.get("limits", {})
    deadlines = raw.get("deadlines", {})
    try:
        return Config(
            data_dir=data_dir,
            database_url=url,
            from_address=_address(mail.get("from_address", "pbem@localhost"),
                                  "mail.from_address"),
            from_name=str(mail.get("from_name", "PBEM host")),
            inbound=InboundConfig(imap=imap, maildir=in_maildir),
            outbound=OutboundConfig(smtp=smtp, maildir=out_maildir),
            limits=Limits(**_values(Limits, limits, "limits")),
            deadlines=(clocks := _deadlines(deadlines)),
            secrets=_secrets(raw.get("secrets", {}), clocks),
            bots=_bots(raw.get("bots", {})),
            lobby=_lobby(raw.get("lobby", {})),
            retention=_retention(raw.get("retention", {})),
            operator_address=_address(mail["operator_address"], "mail.operator_address")
            if "operator_address" in mail else None,
            trusted_authserv_id=str(mail.get("trusted_authserv_id", "")).strip() or None,
            host_key_file=base / str(raw["host_key_file"]) if "host_key_file" in raw else None,
            dns=_dns(raw.get("dns", {}), base),
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
