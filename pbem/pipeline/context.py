"""What the handlers of one mail share as it goes down the chain, and what becomes of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import GameRules
from pbem.i18n import LANGUAGES, Translator, translator
from pbem.mail.reading import IncomingMail
from pbem.pipeline import talk
from pbem.pipeline.letter import Letter
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.pipeline.stored import safe_reason
from pbem.settings.host import Host
from pbem.store.tables import Game, InboundMessage, Seat, utcnow


def paragraphs(first: list[Line], then: list[Line]) -> list[Line]:
    """``first`` and ``then`` as two paragraphs: a blank line between them when both have
    lines."""
    return [*first, *([""] if first and then else []), *then]

@dataclass
class Result:
    """What became of one message (``duplicate`` when its Message-ID was seen before)."""

    status: str
    reason: str = ""
    inbound_id: int | None = None
    queued: list[int] = field(default_factory=list)
    # The queued rows, until the pipeline flushes them with the mail's outcome (one flush
    # for both) and lists their ids in ``queued``.
    rows: list[Any] = field(default_factory=list, repr=False, compare=False)


def finish(row: InboundMessage, status: str, reason: str, queued: list[Any]) -> Result:
    """The mail's outcome, written on its row, with the mail it queued (None: a mail to a
    bot seat, never queued)."""
    row.status = status
    row.reason = safe_reason(reason)
    row.processed_at = utcnow()
    return Result(status, row.reason, row.id, rows=[q for q in queued if q is not None])


@dataclass
class MailContext:
    """One mail on its way: what it is, and what the handlers before this one found out."""

    session: Session
    host: Host
    mail: IncomingMail
    row: InboundMessage  # its record, in this transaction
    mid: str  # its Message-ID (a digest of its bytes when it has none)
    raw: bytes = b""
    stored: bool = False  # a kept mail run again: its secret was blanked when stored
    letter: Letter = field(default_factory=Letter)  # its body, read (handlers.body)
    secret: str | None = None  # the secret as written, blanked when the mail is kept
    verified: int | None = None  # the seat whose secret (or reply address) the mail carries
    # The reply-address tokens its recipient headers show (pbem.pipeline.reply_tokens),
    # blanked when the mail is kept, as its secret is.
    tokens: tuple[str, ...] = ()
    token_blanked: bool = False  # a kept mail whose token was blanked (it proved its seat)
    game: Game | None = None  # the game it names, once known (handlers.game)
    seats: list[Seat] = field(default_factory=list)  # its seats, read once (handlers.sender)
    candidates: list[Seat] = field(default_factory=list)  # the sender's seats in it
    rules: GameRules | None = None  # that game's rules (handlers.sender)
    seat: Seat | None = None  # the seat the mail speaks for, once known
    state: Any = None  # the game's state, once the seat is proved (handlers.authenticate)
    said: talk.Said = field(default_factory=talk.Said)  # its table talk, told in its reply
    # What every reply to it says besides its answer (the tag its subject forgot).
    reminders: list[Line] = field(default_factory=list)
    told: set[int] = field(default_factory=set)  # seats whose mail of this pass carries it
    # The row's game and seat, written with its outcome: one UPDATE of the row per mail,
    # not one more for each (autoflush before the next query would write them at once).
    game_id: int | None = None
    seat_index: int | None = None
    # The language of the sender's profile, for a mail that names no game (handlers.tagless).
    profile_language: str | None = None

    sender: str = field(init=False)  # its From address, lowered
    refs: list[str] = field(init=False)  # the References of a reply to it

    def __post_init__(self) -> None:
        self.sender = (self.mail.from_addr or "").lower()
        self.refs = [*list(self.mail.references or []), self.mid]

    @property
    def known_rules(self) -> GameRules:
        """The game's rules, for the handlers after ``handlers.sender``, which found them."""
        if self.rules is None:
            raise AssertionError("a handler before handlers.sender asked for the rules")
        return self.rules

    @property
    def asides(self) -> list[Line]:
        """The lines every reply to the mail ends with: its reminders, then what became of
        its table talk."""
        return paragraphs(self.reminders, self.said.lines)

    def with_asides(self, lines: list[Line]) -> list[Line]:
        """A reply's ``lines``, then the mail's :attr:`asides`."""
        return paragraphs(lines, self.asides)

    @property
    def tr(self) -> Translator:
        """The language of the replies: the seat's, once its address or secret names it;
        before that the game's, once the mail names one; else the sender's profile's; else the
        language the sender's client says it writes in (Content-Language), else English."""
        if self.seat is not None:
            return seat_tr(self.seat, self.rules)
        game_language = self.game.language if self.game is not None else None
        lang = next((lang for lang in (game_language, self.profile_language, self.mail.language)
                     if lang in LANGUAGES), "en")
        return translator(lang, self.rules.name if self.rules is not None else None)
