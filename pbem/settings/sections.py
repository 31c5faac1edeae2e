"""The configuration file's sections as typed, frozen dataclasses, each with its defaults.

A section's defaults here are the only ones: the reader (:mod:`pbem.settings.reader`) fills a
section from what the file says, and :class:`pbem.settings.host.Host` holds the sections as
they are, so a setting has one name and one default wherever it is read.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path

from pbem.mail.settings import FAILED_FOLDER, PROCESSED_FOLDER
from pbem.settings.errors import ConfigError
from pbem.settings.secret import Secret


@dataclass(frozen=True)
class MailConfig:
    """``[mail]``: who the host's mail comes from, who hears of trouble, whom it trusts."""

    from_address: str = "pbem@localhost"  # the address pbem reads and answers from
    from_name: str = "PBEM host"  # the name on its mail
    operator_address: str | None = None  # gets the mail when a game pauses on a timeout
    # When set, a player's mail counts only if the topmost Authentication-Results header,
    # from this authserv-id (our own receiving server), shows DKIM, SPF or DMARC passing
    # for its From domain (pbem.mail.authresults).
    trusted_authserv_id: str | None = None

    @property
    def message_id_domain(self) -> str:
        return self.from_address.rpartition("@")[2] or "localhost"


@dataclass(frozen=True)
class ImapConfig:
    host: str  # the IMAP server
    port: int = 993  # 993 with tls, else 143
    user: str = ""  # the login
    password: Secret = field(default_factory=Secret)
    security: str = "tls"  # tls | starttls | none (none: a server on this machine only)
    folder: str = "INBOX"  # the folder pbem reads every mail of
    processed: str = PROCESSED_FOLDER  # where handled mail moves
    failed: str = FAILED_FOLDER  # where quarantined mail moves


@dataclass(frozen=True)
class SmtpConfig:
    host: str  # the SMTP server
    port: int = 465  # 465 with tls, 587 with starttls, else 25
    user: str = ""  # the login
    password: Secret = field(default_factory=Secret)
    security: str = "tls"  # tls | starttls | none (none: a server on this machine only)
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
        host, port = (text, "53") if is_ip(text) else text.rpartition(":")[::2]
        host = host.removeprefix("[").removesuffix("]")
        if not (is_ip(host) and port.isdigit() and 0 < int(port) < 65536):
            raise ConfigError(f"dns.nameserver must be an IP address or IP:PORT, not {text!r}")
        return host, int(port)


def is_ip(text: str) -> bool:
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
    max_message_bytes: int = 1_000_000  # a larger mail is not read; its sender is told once
    stranger_replies_per_day: int = 1  # replies to one unknown sender / wrong secret per 24 h
    send_attempts: int = 8  # then an outbound mail is marked failed
    retry_base_seconds: int = 60  # backoff: base * 2**attempts
    # Answers to mail that proved no seat's secret (help, no or wrong secret): per address and
    # per hour, and for all addresses together, so forged mail cannot aim the host at anyone.
    unverified_replies_per_hour: int = 3
    replies_per_hour_total: int = 100  # all addresses together, per hour
    send_lease_seconds: int = 300  # a claimed mail is not taken by another worker this long
    transient_retries: int = 3  # a mail hit by a database/disk fault is tried again this often
    transient_backoff_ms: int = 500  # ... after base * 2**attempt milliseconds
    fault_alert_after: int = 5  # consecutive failed passes before the operator is mailed
    # Table talk: what one mail may say (more is cut, the sender told), and how many mails
    # with talk one seat may send in 24 hours (each reaches every listener as one mail).
    talk_chars_per_mail: int = 4000
    talk_mails_per_day: int = 30  # mails with talk one seat may send in 24 hours

    @property
    def transient_backoff_seconds(self) -> float:
        return self.transient_backoff_ms / 1000


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
class Watch:
    """``[watch]``: addresses that watch a game by mail (pbem.pipeline.watch)."""

    # Who may watch: "anyone"; "players" (an address that plays or played on this host);
    # "off" (nobody). A watch starts only once its address answered the confirmation.
    open: str = "players"
    max_per_game: int = 50  # watchers of one game
    max_per_address: int = 20  # games one address watches


WATCH_OPEN = ("anyone", "players", "off")


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
    # line; pbem.pipeline.reply_tokens); at least the turn deadline, so a reply in the
    # deadline's last hour plays.
    reply_days: int = 30


@dataclass(frozen=True)
class Site:
    """``[site]``: where the host's web pages (`pbem site build`) are published."""

    # The address the site's folder is served at, e.g. "https://games.example.org/pbem/":
    # the welcome and `help` mails then link to the players' guide in the reader's language.
    url: str = ""
