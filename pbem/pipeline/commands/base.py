"""What every mail command is given and gives back, and what several of them share.

A command gets the proved seat and the locked game (:class:`Context`) and the rest of its line;
it returns the lines of the threaded reply and queues whatever else it must (notices to the
other seats, status mails after the host played for a resigned seat)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import GameRules
from pbem.i18n import Translator, msg
from pbem.mail.compose import Attachment
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import word
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game, OutboundMessage, Seat


@dataclass
class Reply:
    """The answer to a command: the inbound mail's status, its reason, the reply's lines."""

    status: str  # applied (something changed) | ignored (information) | rejected
    reason: str
    lines: list[Line]
    queued: list[OutboundMessage] = field(default_factory=list)
    secret: str | None = None  # a new secret the reply carries (blanked once it is sent)
    point: Line | None = None  # what the reply is, for its subject (else the command's own)
    attachment: Attachment | None = None  # a page the reply carries (the game's history)


@dataclass
class Context:
    """The seat a command speaks for (its secret proved) and its game (locked)."""

    session: Session
    host: Host
    rules: GameRules
    game: Game
    state: Any
    seat: Seat

    @property
    def tr(self) -> Translator:
        return seat_tr(self.seat, self.rules)

    def w(self, english: str) -> str:
        """A host command word as this seat is told to write it."""
        return word(english, self.seat.language)


Command = Callable[[Context, str], Reply]
"""A mail command: the rest of its line (cut to a reply's length) in, the reply out."""

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
