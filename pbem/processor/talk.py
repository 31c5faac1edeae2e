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
from pbem.processor import mails
from pbem.processor.history import TALK
from pbem.processor.host import Host
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat

PREVIEW = 40  # characters of a message shown in its mail's subject


class TalkError(ValueError):
    """A ``say`` line that cannot be delivered; the message says how to write it."""


@dataclass
class Said:
    """What the speaker's reply says about the messages sent, and the mails queued."""

    lines: list[str] = field(default_factory=list)
    queued: list[OutboundMessage] = field(default_factory=list)


def listeners(seats: list[Seat], speaker: Seat, line: str) -> tuple[list[Seat] | None, str]:
    """The seats a ``say`` line (without its ``say``) goes to (None: every other seat), and
    its text."""
    rest = line.strip()
    targets: list[Seat] | None = None
    head, colon, tail = rest.partition(":")
    if rest.lower().startswith("to ") and colon:
        name = head[3:].strip()
        target = _seat_named(seats, name)
        if target is None:
            others = [s for s in seats if s.index != speaker.index]
            raise TalkError(
                f"\"say to {name}: ...\": there is no player {name} in this game. Write "
                f"\"say to NAME: your text\" with one of: "
                f"{', '.join(f'{s.name} ({s.index + 1})' for s in others)}.")
        if target.index == speaker.index:
            raise TalkError("\"say to ...\" names your own seat; name another player.")
        targets, rest = [target], tail.strip()
    if not rest:
        raise TalkError("\"say\" needs a text: write \"say your text\" for everyone, or "
                        "\"say to NAME: your text\" for one player.")
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
            to_whom = "to everyone" if everyone else "to you only"
            out.queued.append(mails.queue_notice(
                session, host, to=t.address, kind="talk", game=game,
                subj=mails.subject(game, f"{speaker.name} says: {_preview(text)}"),
                lines=[f"{speaker.name} ({to_whom}), in [{game.tag}]:", "", text, "",
                       "To answer, reply with a line \"say <your text>\" (to everyone) or "
                       f"\"say to {speaker.name}: <your text>\", and your secret line."]))
        out.lines.append(f"Sent to {audience}: {text}")
    session.flush()
    return out


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW else text[:PREVIEW - 1].rstrip() + "…"


def _record(session: Session, game: Game, speaker: Seat, targets: list[Seat], text: str,
            audience: str) -> None:
    """A ``talk`` log entry only the speaker and ``targets`` may read; the state is unchanged."""
    last = queries.last_entry(session, game.id or 0)
    event = Event(f"{speaker.name} to {audience}: \"{text}\"",
                  visible_to=frozenset({speaker.index, *(t.index for t in targets)}))
    session.add(LogEntry(game_id=game.id or 0, index=last.index + 1, kind=TALK,
                         seat=speaker.index, text=f"say to {audience}: {text}",
                         draws_json="[]", events_json=canonical_json([event.to_json()]),
                         state_hash=last.state_hash))
    session.flush()
