"""The database tables: games, seats, inbound mail, the move log, snapshots, the outbox.

A mail's bytes (~70 kB for a status mail) live in a table of their own (``inboundbytes``,
``outboundbytes``), written once, beside the small row its status, claims, marks and retries
update: SQLite writes a whole row again at any update of it (the WAL got ~150 kB per sent mail
when the bytes sat in the row: its claim and its mark). ``row.raw`` reads and writes them. A
row read through the ORM comes whole (its bytes in one more SELECT for all the rows read);
what lists or updates rows without needing the bytes reads them with the loader option
``INBOUND_WITHOUT_BYTES`` or ``OUTBOUND_WITHOUT_BYTES``, and claims and marks are plain
UPDATEs of the small table (pbem.outbox.delivery).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import QueryableAttribute, lazyload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.interfaces import LoaderOption
from sqlmodel import Field, Relationship, SQLModel

from pbem.store.packing import Deflated


def utcnow() -> datetime:
    return datetime.now(UTC)


# ``Game.clock_due_at`` for "look at this game's clock on the next pass".
CLOCK_CHECK_NOW = datetime(1970, 1, 1, tzinfo=UTC)


class Game(SQLModel, table=True):
    """One game being played. ``tag`` is what players put in subjects, e.g. ``[nim-12]``."""

    id: int | None = Field(default=None, primary_key=True)
    game_type: str = Field(index=True)
    tag: str = Field(unique=True)
    options_json: str = Field(sa_column=Column(Text, nullable=False))
    seed: str
    status: str = "active"  # active | paused | finished | archived
    created: datetime = Field(default_factory=utcnow)
    # Clocks: hours per turn (None: no deadline), reminder lead time, what a timeout
    # does ("default": play the game's safe default order; "pause": pause and tell the operator).
    deadline_hours: int | None = None
    reminder_hours: int | None = None
    timeout_policy: str = "pause"
    vacation_days: int = 14  # vacation days each seat may take in this game
    turn_started_at: datetime | None = None  # when the game began waiting for its current seats
    reminded_at: datetime | None = None  # reminder sent for the current wait
    # When the clock pass must next look at this game (a reminder or deadline falls due);
    # None: nothing will. Any change to the game, its seats or its log resets it to
    # CLOCK_CHECK_NOW (pbem.store.clockdue), so a pass costs only for the games it concerns.
    clock_due_at: datetime | None = Field(default=CLOCK_CHECK_NOW, index=True)
    language: str = "en"  # the default language of its seats (the operator's choice)
    # Once the game is over its archive shows every seat's holdings and every draw, unless
    # this host-level option (the same for every game) keeps them hidden for good.
    hidden_for_good: bool = False


class Seat(SQLModel, table=True):
    """A player in a game: who they are, where their mail goes, their hashed secret."""

    __table_args__ = (UniqueConstraint("game_id", "index"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    index: int
    name: str
    address: str = Field(index=True)  # lower-cased
    secret_salt: str
    secret_hash: str
    status: str = "active"  # active | dropped | resigned
    vacation_until: datetime | None = None
    # When the vacation began: the clock pauses from then (None: before the current wait).
    vacation_from: datetime | None = None
    vacation_days_used: int = 0
    # How much mail the seat wants (the player's "mail" command): every | turn | digest.
    mail_mode: str = "every"
    digest_at: datetime | None = None  # the last digest's cut-off (digest mode)
    # Set when a delivery status report said mail to this address failed (shown by `game
    # show`, told to the operator); cleared when the seat next proves its secret.
    bounced_at: datetime | None = None
    bounce_reason: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    # The language of every mail the seat gets (pbem.i18n.LANGUAGES) and the IANA time zone
    # its dates are shown in; the player's "language" and "timezone" commands change them.
    language: str = "en"
    timezone: str = "UTC"
    # Who chooses the seat's orders (pbem.pipeline.controllers): "human" (its player, by
    # mail), "bot:<level>" (a computer seat from the start: no address, no secret, no mail),
    # "stand-in:<level>" (a bot playing for a player who timed out or resigned under the
    # game's "bot" timeout policy; the player gets the seat back by mailing "back").
    controller: str = "human"
    # The deadline event the seat's calendar holds from its mails (pbem.pipeline.calendar):
    # its UID, the SEQUENCE last sent and the deadline it showed; None once withdrawn.
    calendar_uid: str | None = None
    calendar_sequence: int = 0
    calendar_due: datetime | None = None


class LobbyTable(SQLModel, table=True):
    """A table of the lobby: a game opened by mail, waiting for its players. Its tag becomes
    the game's tag when it starts (``game_id`` then names the game)."""

    id: int | None = Field(default=None, primary_key=True)
    tag: str = Field(unique=True)
    game_type: str
    players: int  # its seats, bot seats included
    # Its last ``bots`` seats are the host's bots (pbem.pipeline.controllers), at ``bot_level``:
    # they need no player and no confirmation; the table waits for the others only.
    bots: int = 0
    bot_level: str = "normal"
    options_json: str = Field(sa_column=Column(Text, nullable=False))
    opener: str = Field(index=True)  # the address that opened it, lower-cased
    language: str = "en"  # the game's language when it starts (the opener's)
    status: str = Field(default="open", index=True)  # open | started | closed
    created: datetime = Field(default_factory=utcnow, index=True)
    closed_at: datetime | None = None
    game_id: int | None = Field(default=None, foreign_key="game.id")


class LobbySeat(SQLModel, table=True):
    """A seat taken at a table of the lobby. It counts once its player answered the join mail
    with its code (``confirmed_at``); until then it expires at ``expires_at``, and holds no
    place: the first confirmations take the table's seats. The code is kept hashed, as seat
    secrets are."""

    __table_args__ = (UniqueConstraint("table_id", "address"),)
    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="lobbytable.id", index=True)
    address: str = Field(index=True)  # lower-cased
    name: str
    language: str = "en"
    code_salt: str
    code_hash: str
    joined_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime | None = None  # None once confirmed
    confirmed_at: datetime | None = None
    code_sent_at: datetime | None = None  # the code (derived, pbem.pipeline.lobby_codes) mailed


class LobbyInvite(SQLModel, table=True):
    """An invitation mailed for a table: one per address and table, a few per player a day.
    The invited address is kept as a hash (it has not asked to be known here)."""

    __table_args__ = (UniqueConstraint("table_id", "address_hash"),)
    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="lobbytable.id", index=True)
    inviter: str = Field(index=True)  # lower-cased
    address_hash: str
    created: datetime = Field(default_factory=utcnow, index=True)


class NeverMail(SQLModel, table=True):
    """An address that answered ``never``: the host mails it no more. Kept as a hash only."""

    address_hash: str = Field(primary_key=True)
    created: datetime = Field(default_factory=utcnow)


class Watch(SQLModel, table=True):
    """An address that watches a game: it gets the spectators' view (never a seat's) as
    ``mode`` says. Made only once the address answered the confirmation mailed to it; ended
    by ``unwatch``, ``never``, ``player forget`` or the game's end."""

    __table_args__ = (UniqueConstraint("game_id", "address"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    address: str = Field(index=True)  # lower-cased
    mode: str = "every"  # every | turn | digest, as a seat's mail setting
    language: str = "en"  # of its mails: the watcher's, when the watch was confirmed
    created: datetime = Field(default_factory=utcnow)
    # The last log entry its mail told (-1: none yet), the turn it showed, and when it was
    # last mailed (a digest goes once a day).
    told_index: int = -1
    told_turn: int = -1
    mailed_at: datetime | None = None


class Player(SQLModel, table=True):
    """One person across games: their address (lower-cased), the profile their new seats
    start from, and whether the host bans them. Each field of the profile left None falls
    back to the game's default when a seat is made."""

    id: int | None = Field(default=None, primary_key=True)
    address: str = Field(unique=True)  # lower-cased
    name: str = ""  # as shown on public pages ("" until set: then their latest seat's name)
    language: str | None = None
    timezone: str | None = None
    mail_mode: str | None = None  # every | turn | digest
    # "calendar off": their "your move" mails carry no deadline event (pbem.pipeline.calendar)
    calendar_off: bool = False
    banned_at: datetime | None = None
    ban_reason: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    created: datetime = Field(default_factory=utcnow)
    # When the player asked by mail, with a seat's secret, to be forgotten (pbem.ops.player_data).
    forget_asked_at: datetime | None = None


class GameResult(SQLModel, table=True):
    """A finished game's ranking in players (groups of tied player ids, best first), as
    rated: the ratings are these results applied in (finished_at, game_id) order."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", unique=True)
    game_type: str = Field(index=True)
    finished_at: datetime
    ranking_json: str = Field(sa_column=Column(Text, nullable=False))


class Rating(SQLModel, table=True):
    """A player's Weng-Lin rating in one game type (openskill's Plackett-Luce model)."""

    __table_args__ = (UniqueConstraint("player_id", "game_type"),)
    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    game_type: str = Field(index=True)
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0  # games ranked first (alone or tied)
    # The last result applied: an older one arriving later means a rebuild, not a step.
    last_finished_at: datetime
    last_game_id: int


# A message's bytes: one row of their own, loaded with it (see the module's docstring).
_BYTES = {"uselist": False, "lazy": "selectin", "cascade": "all, delete-orphan"}


class InboundBytes(SQLModel, table=True):
    """An inbound mail's bytes as kept: as received but with any seat secret blanked
    (pbem.mail.redact; the row's ``raw_sha256`` is of the bytes as received, for audit)."""

    id: int | None = Field(default=None, sa_column=Column(
        Integer, ForeignKey("inboundmessage.id"), primary_key=True, autoincrement=False))
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class InboundMessage(SQLModel, table=True):
    """Every mail fetched, kept raw (in :class:`InboundBytes`), with what became of it."""

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True)
    stored: InboundBytes = Relationship(sa_relationship_kwargs=_BYTES)
    raw_sha256: str = ""
    secret_seat: int | None = None  # the seat whose secret the mail carried, checked on receipt
    from_addr: str = ""
    subject: str = ""
    status: str = "received"  # received | applied | rejected | quarantined | ignored
    reason: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    game_id: int | None = Field(default=None, foreign_key="game.id")
    seat: int | None = None
    received_at: datetime = Field(default_factory=utcnow)
    processed_at: datetime | None = None
    # When retention (pbem.ops.retention) left only the mail's headers (None: kept whole),
    # and the size of what it dropped them from.
    pruned_at: datetime | None = None
    raw_size: int | None = None

    def __init__(self, *, raw: bytes | None = None, **fields: Any) -> None:
        super().__init__(**fields)
        if raw is not None:
            self.raw = raw
        else:  # known to have none yet: setting them later (seal) looks nothing up
            set_committed_value(self, "stored", None)

    @property
    def raw(self) -> bytes:
        return self.stored.raw

    @raw.setter
    def raw(self, value: bytes) -> None:
        if self.stored is None:
            self.stored = InboundBytes(raw=value)  # a row being built
        elif self.stored.raw != value:
            self.stored.raw = value


class LogEntry(SQLModel, table=True):
    """The append-only move log; entry 0 of every game is its setup."""

    __table_args__ = (UniqueConstraint("game_id", "index"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    index: int
    kind: str  # setup | order | admin
    seat: int | None = None
    text: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    draws_json: str = Field(sa_column=Column(Text, nullable=False))
    events_json: str = Field(sa_column=Column(Text, nullable=False))
    state_hash: str
    source_message_id: int | None = Field(default=None, foreign_key="inboundmessage.id")
    created: datetime = Field(default_factory=utcnow)


class Snapshot(SQLModel, table=True):
    """The full state after a log entry, so processing never replays a whole game."""

    __table_args__ = (UniqueConstraint("game_id", "log_index"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    log_index: int
    state_json: str = Field(sa_column=Column(Text, nullable=False))


class OutboundBytes(SQLModel, table=True):
    """A queued mail's bytes, sent as they are (pbem.outbox.delivery reads them to send)."""

    id: int | None = Field(default=None, sa_column=Column(
        Integer, ForeignKey("outboundmessage.id"), primary_key=True, autoincrement=False))
    # Compressed, its pictures kept once in ``mailpart`` (pbem.store.packing): read through
    # the ORM or pbem.store.mailparts.whole, it is the mail as composed.
    raw: bytes = Field(sa_column=Column(Deflated, nullable=False))
    # The same mail with its secret blanked (welcome mails, new secrets): it replaces ``raw``
    # once sent, so no secret stays at rest. None when the mail holds no secret.
    raw_once_sent: bytes | None = Field(default=None, sa_column=Column(Deflated))


class MailPart(SQLModel, table=True):
    """A long run of base64 (a picture) that sent mails carry, stored once by its SHA-256.
    ``last_used`` is when a mail last took it: the sweep leaves a part so used lately."""

    digest: str = Field(primary_key=True)
    body: bytes = Field(sa_column=Column(Deflated, nullable=False))
    last_used: datetime = Field(default_factory=utcnow, index=True)


class MailPartUse(SQLModel, table=True):
    """Which stored mail needs which part, so a part nothing needs can go."""

    outbound_id: int = Field(sa_column=Column(
        Integer, ForeignKey("outboundmessage.id"), primary_key=True, autoincrement=False))
    digest: str = Field(sa_column=Column(
        String, ForeignKey("mailpart.digest"), primary_key=True, index=True))


class OutboundMessage(SQLModel, table=True):
    """A queued email; the sender marks it sent right after a successful send. Its bytes are
    in :class:`OutboundBytes`."""

    # The reply limits count recent mail of some kinds at every unproven mail.
    __table_args__ = (Index("ix_outboundmessage_kind_created", "kind", "created"),)
    id: int | None = Field(default=None, primary_key=True)
    to_addr: str = Field(index=True)
    kind: str = "status"  # status | reply | stranger | help
    subject: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    # Its Message-ID: a delivery report must name one of ours before it marks a seat.
    message_id: str | None = Field(default=None, index=True)
    stored: OutboundBytes = Relationship(sa_relationship_kwargs=_BYTES)
    status: str = Field(default="queued", index=True)  # queued | sent | failed
    attempts: int = 0
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    next_attempt_at: datetime = Field(default_factory=utcnow)
    game_id: int | None = Field(default=None, foreign_key="game.id")
    created: datetime = Field(default_factory=utcnow)
    sent_at: datetime | None = None
    # When retention (pbem.ops.retention) left only the mail's headers (None: kept whole),
    # with the size and SHA-256 of the bytes it dropped them from.
    pruned_at: datetime | None = None
    raw_size: int | None = None
    raw_sha256: str | None = None

    def __init__(self, *, raw: bytes | None = None, raw_once_sent: bytes | None = None,
                 **fields: Any) -> None:
        super().__init__(**fields)
        if raw is not None:
            self.stored = OutboundBytes(raw=raw, raw_once_sent=raw_once_sent)

    @property
    def raw(self) -> bytes:
        return self.stored.raw

    @property
    def raw_once_sent(self) -> bytes | None:
        return self.stored.raw_once_sent


def _lazy(relationship: object) -> LoaderOption:
    return lazyload(cast(QueryableAttribute[Any], relationship))


# Loader options that read rows without their bytes (they load on first use of ``raw``).
INBOUND_WITHOUT_BYTES = _lazy(InboundMessage.stored)
OUTBOUND_WITHOUT_BYTES = _lazy(OutboundMessage.stored)
