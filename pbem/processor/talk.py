"""Table talk: ``say <text>`` reaches every other seat, ``say to NAME: <text>`` one seat.

Each message is a log entry of kind ``talk`` (it changes no state; replay checks its hash like
an admin entry) whose event only the speaker and its listeners may read, so ``log``, status
mails and the archive show it to them and to nobody else. Listeners get it at once as a short
mail of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session

from pbem.engine.contract import Event
from pbem.engine.hashing import canonical_json
from pbem.i18n import Msg, msg
from pbem.processor import mails
from pbem.processor.history import TALK
from pbem.processor.host import Host
from pbem.processor.lang import Line, seat_tr
from pbem.processor.words import is_word, word
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat

PREVIEW = 40  # characters of a message shown in its mail's subject


class TalkError(ValueError):
    """A ``say`` line that cannot be delivered; the message says how to write it."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass
class Said:
    """What the speaker's reply says about the messages sent, and the mails queued."""

    lines: list[Line] = field(default_factory=list)
    queued: list[OutboundMessage] = field(default_factory=list)


def listeners(seats: list[Seat], speaker: Seat, line: str) -> tuple[list[Seat] | None, str]:
    """The seats a ``say`` line (without its ``say``) goes to (None: every other seat), and
    its text. ``to`` may be written in any of the host's languages (``à``, ``an``…)."""
    rest = line.strip()
    targets: list[Seat] | None = None
    head, colon, tail = rest.partition(":")
    first, _, name = head.strip().partition(" ")
    say_to = f"{word('say', speaker.language)} {word('to', speaker.language)}"
    if colon and name.strip() and is_word(first, "to"):
        name = name.strip()
        target = _seat_named(seats, name)
        if target is None:
            others = [s for s in seats if s.index != speaker.index]
            raise TalkError(msg(
                "\"{say_to} {name}: ...\": there is no player {name} in this game. Write "
                "\"{say_to} NAME: your text\" with one of: {players}.", say_to=say_to,
                name=name, players=", ".join(f"{s.name} ({s.index + 1})" for s in others)))
        if target.index == speaker.index:
            raise TalkError(msg("\"{say_to} ...\" names your own seat; name another player.",
                                say_to=say_to))
        targets, rest = [target], tail.strip()
    if not rest:
        raise TalkError(msg("\"{say}\" needs a text: write \"{say} your text\" for everyone, "
                            "or \"{say_to} NAME: your text\" for one player.",
                            say=word("say", speaker.language), say_to=say_to))
    return targets, rest


def _seat_named(seats: list[Seat], name: str) -> Seat | None:
    """A seat by its player's name or its number (1-based, as people count them)."""
    low = name.lower().removeprefix("player ").removeprefix("seat ").strip()
    for s in seats:
        if low in (s.name.lower(), str(s.index + 1)):
            return s
    return None


def say(session: Session, host: Host, game: Game, speaker: Seat, lines: list[str]) -> Said:
    """Deliver every ``say`` line of a mail, or none: a bad one raises :class:`TalkError`."""
    seats = queries.seats(session, game.id or 0)
    messages = [listeners(seats, speaker, line) for line in lines]  # all checked before any goes
    out = Said()
    for chosen, text in messages:
        everyone = chosen is None
        targets = [s for s in seats if s.index != speaker.index] if chosen is None else chosen
        audience = "everyone" if everyone else ", ".join(t.name for t in targets)
        _record(session, game, speaker, targets, text, audience)
        for t in targets:
            if t.mail_mode == "digest":  # the day's digest carries it (its event is theirs)
                continue
            lang = t.language
            out.queued.append(mails.queue_notice(
                session, host, to=t.address, kind="talk", game=game, seat=t,
                subj=mails.subject(game, msg("{name} says: {text}", name=speaker.name,
                                             text=_preview(text)), seat_tr(t)),
                lines=[msg("{name} (to everyone), in [{tag}]:", name=speaker.name,
                           tag=game.tag) if everyone else
                       msg("{name} (to you only), in [{tag}]:", name=speaker.name,
                           tag=game.tag), "", text, "",
                       msg("To answer, reply with a line \"{say} <your text>\" (to everyone) "
                           "or \"{say} {to} {name}: <your text>\", and your secret line.",
                           say=word("say", lang), to=word("to", lang), name=speaker.name)]))
        out.lines.append(msg("Sent to everyone: {text}", text=text) if everyone else
                         msg("Sent to {names}: {text}", names=audience, text=text))
    session.flush()
    return out


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW else text[:PREVIEW - 1].rstrip() + "…"


def _record(session: Session, game: Game, speaker: Seat, targets: list[Seat], text: str,
            audience: str) -> None:
    """A ``talk`` log entry only the speaker and ``targets`` may read; the state is unchanged."""
    last = queries.last_entry(session, game.id or 0)
    said = (msg("{name} to everyone: \"{text}\"", name=speaker.name, text=text)
            if audience == "everyone" else
            msg("{name} to {names}: \"{text}\"", name=speaker.name, names=audience, text=text))
    event = Event.of("talk", said, {speaker.index, *(t.index for t in targets)})
    session.add(LogEntry(game_id=game.id or 0, index=last.index + 1, kind=TALK,
                         seat=speaker.index, text=f"say to {audience}: {text}",
                         draws_json="[]", events_json=canonical_json([event.to_json()]),
                         state_hash=last.state_hash))
    session.flush()
