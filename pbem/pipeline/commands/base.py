"""The one shape of every mail command, a seat's, a profile's or the lobby's: a
:class:`Command` (its word, its reply's subject, its handler) takes the one :class:`Context`
and the rest of its line, and returns the one :class:`Reply`.

Where a command is heard is its :class:`Scope`: in a game's mail once its secret proves the
seat (``SEAT``), in a mail naming no game proved by a seat's secret (``PROFILE``) or not at
all (``PUBLIC``), or in a mail to the lobby (``LOBBY``). The handlers of the chain find it in
the one registry, ``pbem.pipeline.command_registry``, build the context and mail the reply.

How to add a command
--------------------
1. Its word in ``pbem.pipeline.command_words.WORDS`` (``cmsg("host command", "watch")``),
   then ``python -m pbem.catalogues.manage update`` and its translations in the .po files:
   the catalogue says how players write it in every language.
2. One module beside its kind (``commands/`` a seat's, ``profile/``, ``lobby/``) with
   ``run(ctx: Context, argument: str) -> Reply`` (``argument``: the rest of its line, cut to
   a reply's length; a seat's or a profile's longer than :data:`ARGUMENT_MAX` is refused
   before ``run`` sees it) and ``usage(tr) -> list[str]``, its rows in ``help``
   (:func:`help_row`). Refuse with ``Reply("rejected", reason, lines)``; answer with
   ``"ignored"`` (nothing changed) or ``"applied"``; notices to others go in ``queued``.
3. One line in ``command_registry.COMMANDS``, where ``help`` should list it:
   ``Command("watch", Scope.SEAT, msg("You watch the game"), watch.run, usage=watch.usage)``
   (``form="alone"`` for a word alone on its line). The letter reader then hears it, the
   chain runs it, ``help`` lists it, and its reply goes out under that subject (or the
   reply's own ``subject``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from sqlmodel import Session

from pbem.engine.contract import GameRules
from pbem.i18n import Translator, msg, translator
from pbem.mail.compose import Attachment
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import is_word, word
from pbem.pipeline.echo import clip
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.settings.host import Host
from pbem.store import players, queries
from pbem.store.tables import Game, OutboundMessage, Player, Seat


class Scope(StrEnum):
    """Where a command is heard, and what proves its sender."""

    SEAT = "seat"  # a game's mail: the seat's secret proved, its game locked
    PROFILE = "profile"  # a mail naming no game, with the secret of any of the sender's seats
    PUBLIC = "public"  # a mail naming no game, needing no proof (answered as a limited note)
    LOBBY = "lobby"  # a mail to the lobby: anyone; a seat's code proves that seat


@dataclass
class Reply:
    """The answer to a command: the inbound mail's status, its reason, the reply's lines."""

    status: str  # applied (something changed) | ignored (information) | rejected
    reason: str
    lines: list[Line]
    queued: list[OutboundMessage] = field(default_factory=list)  # notices, welcomes
    # A secret or a seat's code the reply carries (blanked in the mail as kept once sent).
    secret: str | None = None
    subject: Line | None = None  # what the reply is, in its subject (else the command's own)
    tag: str | None = None  # the lobby table the reply is about (its subject starts [tag])
    send: bool = True  # False: no answer at all (a started game's welcome mail answers)
    # For a lobby command that acts for a seat (leave, start, invite): whether the mail
    # carried the seat's code. Without it the answer counts as one to an unproven sender.
    proved: bool = False
    kind: str | None = None  # a lobby answer counted apart from the lobby's others
    attachment: Attachment | None = None  # a page the reply carries (the game's history)


@dataclass
class Seated:
    """The seat a game's command speaks for (its secret proved) and its game (locked)."""

    rules: GameRules
    game: Game
    state: Any
    seat: Seat


@dataclass
class Context:
    """Who sent the command and in which language the reply goes; for a seat's command, the
    proved seat and its game (:attr:`seated`)."""

    session: Session
    host: Host
    sender: str  # the address the reply goes to, lowered (unproven in the lobby)
    language: str  # the reply's, unless a seat speaks (then the seat's, as it is now)
    sender_name: str = ""  # the From name, as written (may be empty)
    seated: Seated | None = None
    # The sender's profile when the handler read it already (else made on first use).
    profile: Player | None = None
    code: str | None = None  # the seat's or the address's code a lobby mail carries
    more: list[str] = field(default_factory=list)  # a lobby command's further lines alike
    now: datetime = field(init=False)

    def __post_init__(self) -> None:
        self.now = self.host.clock()

    @classmethod
    def for_seat(cls, session: Session, host: Host, rules: GameRules, game: Game, state: Any,
                 seat: Seat) -> Context:
        return cls(session, host, seat.address, seat.language,
                   seated=Seated(rules, game, state, seat))

    def _seated(self) -> Seated:
        if self.seated is None:
            raise AssertionError("a command outside a game asked for its game")
        return self.seated

    @property
    def rules(self) -> GameRules:
        return self._seated().rules

    @property
    def game(self) -> Game:
        return self._seated().game

    @property
    def state(self) -> Any:
        return self._seated().state

    @property
    def seat(self) -> Seat:
        return self._seated().seat

    @property
    def player(self) -> Player:
        """The sender's profile (made if they had none)."""
        if self.profile is None:
            self.profile = players.ensure(self.session, self.sender)
        return self.profile

    @property
    def lang(self) -> str:
        return self.seated.seat.language if self.seated is not None else self.language

    @property
    def tr(self) -> Translator:
        if self.seated is not None:
            return seat_tr(self.seated.seat, self.seated.rules)
        return translator(self.language)

    def w(self, english: str) -> str:
        """A host command word as the sender is told to write it."""
        return word(english, self.lang)


Handler = Callable[[Context, str], Reply]
"""A command's handler: the rest of its line in, the reply out."""

Usage = Callable[[Translator], list[str]]
"""A command's rows in ``help``, in ``tr``'s language (:func:`help_row` writes one)."""


def help_row(usage: str, what: Line, tr: Translator) -> str:
    """One row of ``help``: how a command is written, then what it does."""
    return f"  {usage:<23} {tr(what) if not isinstance(what, str) else what}"


def words_of(tr: Translator) -> Callable[[str], str]:
    """The host command words as a player of ``tr``'s language is told to write them."""
    return lambda english: word(english, tr.lang)

Form = Literal["argument", "alone", "secret line"]
"""How a seat's or a profile's command is written: its word and the rest of its line
(``vacation until 2026-12-24``; the word alone too), its word alone on its line
(``resign``), or a secret line (``secret new``, read as such by ``pbem.pipeline.letter``)."""


@dataclass(frozen=True)
class Command:
    """One mail command: its word (English; the catalogue says how each language writes it),
    where it is heard, what its reply is (in the reply's subject), and its handler."""

    word: str
    scope: Scope
    subject: Line | None  # None: each of its replies says what it is (``Reply.subject``)
    run: Handler
    form: Form = "argument"
    usage: Usage | None = None  # its rows in ``help`` (None: help lists it apart, or not)

    def written(self, lang: str) -> str:
        """The word as a player of ``lang`` is told to write it."""
        return word(self.word, lang)

    def heard(self, typed: str) -> bool:
        """Whether ``typed`` is this command's word, in any of the host's languages."""
        return is_word(typed, self.word)


# The longest argument any command takes ("until 2026-12-24", the longest IANA zone name is 32
# characters, a name 40): a longer one is refused before any library (zoneinfo, dates) sees it.
ARGUMENT_MAX = 64


def too_long(command: str, argument: str, written: str) -> Reply | None:
    """The refusal of an argument longer than any command takes (``written``: the command
    word as the player is told it), never echoed: a 5,000-character line gets no echo."""
    if len(argument) <= ARGUMENT_MAX:
        return None
    return Reply("rejected", f"{command}: argument too long", [msg(
        "The text after \"{command}\" is too long ({count} characters; at most {limit}), "
        "so nothing changed.", command=written, count=len(argument), limit=ARGUMENT_MAX)])


def perform(command: Command, ctx: Context, argument: str) -> Reply:
    """A seat's or a profile's command run with the rest of its line: too long refused, else
    cut here, once, for every command (each quotes what it did not understand)."""
    return too_long(command.word, argument, ctx.w(command.word)) \
        or command.run(ctx, clip(argument))


GAME_STATUS = {"active": msg("active"), "paused": msg("paused"), "finished": msg("finished"),
                "archived": msg("archived")}
_SEAT_STATUS = {"active": msg("active"), "resigned": msg("resigned"),
                "dropped": msg("dropped")}


def status_word(status: str) -> Line:
    """A game's or seat's status as a word to translate."""
    return GAME_STATUS.get(status) or _SEAT_STATUS.get(status) or status


def tell_others(ctx: Context, lines: list[Line], point: Line) -> list[OutboundMessage]:
    """A notice with ``lines`` to every other seat of the game; ``point`` says what it is,
    in its subject."""
    queued = []
    for other in queries.seats(ctx.session, ctx.game.id or 0):
        if other.id != ctx.seat.id:
            queued.append(mails.queue_notice(
                ctx.session, ctx.host, to=other.address, kind="notice", game=ctx.game,
                subj=mails.subject(ctx.game, point, seat_tr(other, ctx.rules)), lines=lines,
                seat=other,
                rules=ctx.rules))
    return [q for q in queued if q is not None]
