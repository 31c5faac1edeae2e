"""Reading the TOML file's tables into typed sections, each value checked as it is read.

Every reader here takes one table of the file and returns its section (pbem.settings.sections)
or raises :class:`~pbem.settings.errors.ConfigError` saying which setting is wrong and why. A
setting the file leaves out takes its section's own default.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from email_validator import EmailNotValidError

from pbem.mail.addresses import syntax_checked
from pbem.settings.errors import ConfigError
from pbem.settings.secret import Secret
from pbem.settings.sections import (
    FORGET_BY_MAIL,
    OPENERS,
    TIMEOUT_POLICIES,
    WATCH_OPEN,
    Bots,
    Deadlines,
    DnsConfig,
    ImapConfig,
    Limits,
    Lobby,
    MailConfig,
    Retention,
    Secrets,
    Site,
    SmtpConfig,
    Watch,
    is_ip,
)


class Table(dict[str, Any]):
    """A TOML table that remembers which keys the reader asked for.

    Whatever :func:`pbem.settings.config.from_dict` (or a dataclass it fills) never asks for is
    not a setting, so the valid keys follow the code: a key added there is valid here with
    nothing else to edit.
    """

    def __init__(self, raw: dict[str, Any], where: str) -> None:
        super().__init__(raw)
        self.where = where
        self.asked: set[str] = set()
        self.tables: dict[str, Table] = {}

    def _wrap(self, key: str, value: Any) -> Any:
        if isinstance(value, dict) and not isinstance(value, Table):
            if key not in self.tables:
                self.tables[key] = Table(value, f"{self.where}.{key}" if self.where else key)
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
        valid = ", ".join(sorted(k for k in self.asked if k not in REFUSED))
        for key in self:
            if key not in self.asked:
                where = f"in [{self.where}]" if self.where else "at the top level"
                lines.append(f"unknown setting {key!r} {where} (valid there: {valid})")
        for table in self.tables.values():
            lines.extend(table.unknown())
        return lines


# Keys the reader looks for only to refuse them with a better message.
REFUSED = frozenset({"password"})


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


_SECURITY = {"tls", "starttls", "none"}


def _security(section: dict[str, Any], where: str) -> str:
    value = str(section.get("security", ImapConfig.security))
    if value not in _SECURITY:
        raise ConfigError(f"{where}.security must be one of {sorted(_SECURITY)}, not {value!r}")
    return value


def imap(s: dict[str, Any], base: Path) -> ImapConfig:
    """``[inbound.imap]``; its port follows its security unless the file names one."""
    if "host" not in s:
        raise ConfigError("inbound.imap.host is required")
    sec = _security(s, "inbound.imap")
    return ImapConfig(
        host=str(s["host"]), port=_port(s, 993 if sec == "tls" else 143, "inbound.imap"),
        user=str(s.get("user", ImapConfig.user)), password=_secret(s, base), security=sec,
        folder=str(s.get("folder", ImapConfig.folder)),
        processed=str(s.get("processed", ImapConfig.processed)),
        failed=str(s.get("failed", ImapConfig.failed)),
    )


def smtp(s: dict[str, Any], base: Path) -> SmtpConfig:
    """``[outbound.smtp]``; its port follows its security unless the file names one."""
    if "host" not in s:
        raise ConfigError("outbound.smtp.host is required")
    sec = _security(s, "outbound.smtp")
    return SmtpConfig(
        host=str(s["host"]),
        port=_port(s, {"tls": 465, "starttls": 587}.get(sec, 25), "outbound.smtp"),
        user=str(s.get("user", SmtpConfig.user)), password=_secret(s, base), security=sec,
        ehlo_name=_ehlo_name(s.get("ehlo_name", SmtpConfig.ehlo_name)),
        tls_name=str(s["tls_name"]) if "tls_name" in s else None,
        ca_file=base / str(s["ca_file"]) if "ca_file" in s else None,
    )


def mail(section: dict[str, Any]) -> MailConfig:
    return MailConfig(
        from_address=_address(section.get("from_address", MailConfig.from_address),
                              "mail.from_address"),
        from_name=str(section.get("from_name", MailConfig.from_name)),
        operator_address=_address(section["operator_address"], "mail.operator_address")
        if "operator_address" in section else None,
        trusted_authserv_id=str(section.get("trusted_authserv_id", "")).strip() or None,
    )


def limits(section: dict[str, Any]) -> Limits:
    return Limits(**_values(Limits, section, "limits"))


def deadlines(section: dict[str, Any]) -> Deadlines:
    result = Deadlines(**_values(Deadlines, section, "deadlines"))
    if result.timeout not in TIMEOUT_POLICIES:
        raise ConfigError(f"deadlines.timeout must be one of {', '.join(TIMEOUT_POLICIES)}, "
                          f"not {result.timeout!r}")
    return result


def bots(section: dict[str, Any]) -> Bots:
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


def lobby(section: dict[str, Any]) -> Lobby:
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


def watch(section: dict[str, Any]) -> Watch:
    result = Watch(**_values(Watch, section, "watch"))
    if result.open not in WATCH_OPEN:
        raise ConfigError(f"watch.open must be one of {', '.join(WATCH_OPEN)}, not "
                          f"{result.open!r}")
    for name in ("max_per_game", "max_per_address"):
        if getattr(result, name) < 1:
            raise ConfigError(f"watch.{name} must be a positive whole number, not "
                              f"{getattr(result, name)}")
    return result


def retention(section: dict[str, Any]) -> Retention:
    result = Retention(**_values(Retention, section, "retention"))
    if result.forget_by_mail not in FORGET_BY_MAIL:
        raise ConfigError(f"retention.forget_by_mail must be one of "
                          f"{', '.join(FORGET_BY_MAIL)}, not {result.forget_by_mail!r}")
    for name in ("sent_mail_days", "received_mail_days"):
        if getattr(result, name) < 0:
            raise ConfigError(f"retention.{name} must be 0 or more days, not "
                              f"{getattr(result, name)}")
    return result


def dns(section: dict[str, Any], base: Path) -> DnsConfig:
    values = {k: str(v) for k, v in _values(DnsConfig, section, "dns").items()}
    key = values.pop("dkim_public_key", None)
    result = DnsConfig(**values, dkim_public_key=base / key if key else None)
    if result.address is not None and not (is_ip(result.address) and "." in result.address):
        raise ConfigError(f"dns.address must be an IPv4 address, not {result.address!r}")
    result.nameserver_endpoint  # noqa: B018 - refuses a malformed one here, at load time
    return result


def site(section: dict[str, Any]) -> Site:
    result = Site(**_values(Site, section, "site"))
    if result.url and not re.match(r"https?://[^/\s]+", result.url):
        raise ConfigError(f"site.url must be the site's address, like "
                          f"\"https://games.example.org/\", not {result.url!r}")
    return result


def secrets(section: dict[str, Any], deadlines: Deadlines) -> Secrets:
    result = Secrets(**_values(Secrets, section, "secrets"))
    if result.reply_days * 24 < max(deadlines.turn_hours, 24):
        raise ConfigError(f"secrets.reply_days must be at least the turn deadline "
                          f"([deadlines] turn_hours = {deadlines.turn_hours}: "
                          f"{-(-deadlines.turn_hours // 24)} days) and 1, not "
                          f"{result.reply_days}")
    return result
