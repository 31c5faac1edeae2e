"""Table talk: ``say <text>`` reaches every other seat, ``say to NAME: <text>`` one seat.

All the talk of one mail is one log entry of kind ``talk`` (it changes no state; replay checks
its hash like an admin entry), with an event per message that only the speaker and its
listeners may read, so ``log``, status mails and the archive show it to them and to nobody
else. Each listener gets all of it in ONE mail: its status mail of the same pass when it gets
one, else a short mail of its own (:func:`deliver`). One mail carries at most
``talk_chars_per_mail`` characters of talk (the rest is cut, the sender told) and one seat
sends talk in at most ``talk_mails_per_day`` mails a day, so no mail in makes more than one
mail out per seat, and its cost does not grow with its lines.

A seat's secret typed into talk (anyone's: tested against each seat's stored hash) is blanked
before it is stored or sent, and the sender told to get a new one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from pbem.engine.contract import Event
from pbem.engine.hashing import canonical_json
from pbem.i18n import Msg, msg
from pbem.i18n.wordforms import fold
from pbem.mail.redact import MARK
from pbem.pipeline import outgoing as mails
from pbem.pipeline.command_words import is_word, word
from pbem.pipeline.echo import clip
from pbem.pipeline.history import TALK
from pbem.pipeline.seat_language import Line, seat_tr
from pbem.pipeline.seat_secrets import SCHEME, check_secret
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat

PREVIEW = 40  # characters of a message shown in its mail's subject
QUOTED = 40  # characters of a talk line not sent, quoted back to its writer
# A secret is 22 characters of the URL-safe alphabet (pbem.pipeline.seat_secrets.new_secret); the
# lookbehind makes the search linear (a long run is tried from its start only).
_SECRET_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])")
# Checks against a legacy (scrypt, ~50 ms each) hash per mail; keyed SHA-256 ones are cheap.
LEGACY_CHECKS = 4


class TalkError(ValueError):
    """A ``say`` line that cannot be delivered; the message says how to write it."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Message:
    """Consecutive ``say`` lines of one mail to the same listeners, as one text."""

    targets: tuple[Seat, ...]
    everyone: bool
    text: str


@dataclass
class Said:
    """What the speaker's reply says about the talk of a mail; what each listener is owed
    (:func:`deliver` sends it); the secrets found in it (blanked wherever the mail is kept)."""

    lines: list[Line] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    speaker: Seat | None = None
    secrets: list[str] = field(default_factory=list)
    sent: bool = False  # some talk was recorded (else the allowance or the cut left none)
    refused: int = 0  # "say" lines that could not be delivered (a name no player has)

    def owed(self, seat: Seat) -> list[Message]:
        """The messages ``seat`` listens to (none for a seat on the daily digest, which
        carries them: their events are the seat's)."""
        if seat.mail_mode == "digest":
            return []
        return [m for m in self.messages if any(t.index == seat.index for t in m.targets)]

    def note(self, seat: Seat, game: Game) -> list[Line]:
        """The lines that tell ``seat`` its talk, for a mail of its own or one it gets anyway."""
        assert self.speaker is not None
        lang, name = seat.language, self.speaker.name
        out: list[Line] = []
        for m in self.owed(seat):
            out += [msg("{name} (to everyone), in [{tag}]:", name=name, tag=game.tag)
                    if m.everyone else
                    msg("{name} (to you only), in [{tag}]:", name=name, tag=game.tag),
                    "", m.text, ""]
        return [*out, msg("To answer, reply with a line \"{say} <your text>\" (to everyone) "
                          "or \"{say} {to} {name}: <your text>\", and your secret line.",
                          say=word("say", lang), to=word("to", lang), name=name)]


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
                name=clip(name), players=", ".join(f"{s.name} ({s.index + 1})" for s in others)))
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
    """A seat by its player's name as people write it (any case, accents optional), its
    first name alone when no other player has it, or its number (1-based, as people count)."""
    typed = fold(name).removeprefix("player ").removeprefix("seat ").strip()
    typed = " ".join(typed.split())
    for s in seats:
        if typed in (" ".join(fold(s.name).split()), str(s.index + 1)):
            return s
    first = [s for s in seats if fold(s.name).split()[:1] == [typed]]
    return first[0] if len(first) == 1 else None


def say(session: Session, host: Host, game: Game, speaker: Seat, lines: list[str],
        secret: str | None = None) -> Said:
    """Record the talk of a mail as one log entry; :func:`deliver` then mails it. A ``say``
    line that cannot be delivered (a name no player has) is not sent, and the reply says
    which and why; the others go, and nothing else in the mail is undone. ``secret``: the
    mail's own secret line, as written (blanked wherever the talk repeats it)."""
    seats = queries.seats(session, game.id or 0)
    out = Said(speaker=speaker)
    parsed = []
    for number, typed in enumerate(lines, start=1):
        try:
            parsed.append(listeners(seats, speaker, typed))
        except TalkError as err:
            out.refused += 1
            out.lines += [msg("Not sent: your talk line {number}, \"{say} {text}\".",
                              number=number, say=word("say", speaker.language),
                              text=_quoted(typed, seats, secret)), err.message]
    limit = host.limits.talk_chars_per_mail
    # Blanked before the exact cut, on a bounded stretch: a secret across the cut is whole.
    _, cut = _cut(parsed, limit)
    kept, _ = _cut(parsed, limit + 64)
    kept, out.secrets = _blanked(kept, seats, secret)
    kept, _ = _cut(kept, limit)
    if out.secrets:
        out.lines.append(msg(
            "Your table talk held a player's secret: it was replaced by {mark} before anyone "
            "read it. If it was yours, send a mail with the line \"{rotate}\" to get a new "
            "one.", mark=MARK, rotate=f"{word('secret', speaker.language)} "
            f"{word('new', speaker.language)}"))
    if _sent_today(session, host, game, speaker) >= host.limits.talk_mails_per_day:
        out.lines.append(msg(
            "Your table talk was not sent: a seat may send talk in {count} mails a day, and "
            "you have. Try again tomorrow.", count=host.limits.talk_mails_per_day))
        return out
    if cut is not None:
        line, chars = cut
        out.lines.append(msg(
            "Table talk is limited to {limit} characters a mail: yours was cut in its line "
            "{line}, and the {chars} characters after that were not sent.", limit=limit,
            line=line, chars=chars))
    for chosen, text in kept:
        targets = tuple(s for s in seats if s.index != speaker.index) if chosen is None \
            else tuple(chosen)
        last = out.messages[-1] if out.messages else None
        if last is not None and last.targets == targets and last.everyone == (chosen is None):
            out.messages[-1] = Message(targets, last.everyone, f"{last.text}\n{text}")
        else:
            out.messages.append(Message(targets, chosen is None, text))
    for m in out.messages:
        audience = "" if m.everyone else ", ".join(t.name for t in m.targets)
        out.lines.append(msg("Sent to everyone: {text}", text=m.text) if m.everyone else
                         msg("Sent to {names}: {text}", names=audience, text=m.text))
    if out.messages:
        _record(session, game, speaker, out.messages)
        out.sent = True
    return out


def deliver(session: Session, host: Host, game: Game, said: Said, told: set[int]
            ) -> list[OutboundMessage]:
    """One mail to each listener owed talk, but those in ``told`` (whose mail of this pass
    carried it already)."""
    if not said.sent or said.speaker is None:
        return []
    speaker = said.speaker
    queued = []
    for seat in queries.seats(session, game.id or 0):
        owed = said.owed(seat)
        if seat.index == speaker.index or seat.index in told or not owed:
            continue
        queued.append(mails.queue_notice(
            session, host, to=seat.address, kind="talk", game=game, seat=seat,
            subj=mails.subject(game, msg("{name} says: {text}", name=speaker.name,
                                         text=_preview(owed[0].text)), seat_tr(seat)),
            lines=said.note(seat, game)))
    session.flush()
    return [q for q in queued if q is not None]


def _cut(messages: list[tuple[list[Seat] | None, str]], limit: int
         ) -> tuple[list[tuple[list[Seat] | None, str]], tuple[int, int] | None]:
    """The messages up to ``limit`` characters of text in all, and where they were cut (the
    line's number among them, the characters left out), or None."""
    kept: list[tuple[list[Seat] | None, str]] = []
    room = limit
    for number, (targets, text) in enumerate(messages, start=1):
        if len(text) > room:
            if room > 0:
                kept.append((targets, text[:room]))
            left = len(text) - room + sum(len(t) for _, t in messages[number:])
            return kept, (number, left)
        kept.append((targets, text))
        room -= len(text)
    return kept, None


def _blanked(messages: list[tuple[list[Seat] | None, str]], seats: list[Seat],
             secret: str | None) -> tuple[list[tuple[list[Seat] | None, str]], list[str]]:
    """The messages with every seat's secret in them replaced by :data:`MARK`, and the
    secrets found. A word is a secret when it has a secret's shape and the hash of a seat
    says so (cheap: one keyed SHA-256 per word and seat, on text already cut short)."""
    found = [secret] if secret and any(secret in t for _, t in messages) else []
    legacy = LEGACY_CHECKS
    for candidate in dict.fromkeys(w for _, t in messages for w in _SECRET_SHAPED.findall(t)):
        for seat in seats:
            if not seat.secret_hash.startswith(f"{SCHEME}$"):
                if legacy <= 0:
                    continue
                legacy -= 1
            if check_secret(candidate, seat.secret_salt, seat.secret_hash):
                found.append(candidate)
                break
    if not found:
        return messages, []
    out = []
    for targets, text in messages:
        for token in found:
            text = text.replace(token, MARK)
        out.append((targets, text))
    return out, found


def _quoted(line: str, seats: list[Seat], secret: str | None) -> str:
    """The start of a talk line as its reply quotes it, any secret in it blanked (on a
    stretch long enough that a secret the quote shows any of is whole in it)."""
    [(_, text)], _ = _blanked([(None, line[:QUOTED + 24])], seats, secret)
    return clip(text, QUOTED)


def _sent_today(session: Session, host: Host, game: Game, speaker: Seat) -> int:
    """How many mails with talk ``speaker`` sent in the last 24 hours (one entry each)."""
    since = host.clock() - timedelta(days=1)
    return session.exec(select(func.count()).select_from(LogEntry).where(
        LogEntry.game_id == (game.id or 0), LogEntry.kind == TALK,
        LogEntry.seat == speaker.index, LogEntry.created >= since)).one()


def _preview(text: str) -> str:
    first = text.partition("\n")[0]
    return first if len(first) <= PREVIEW and first == text else \
        first[:PREVIEW - 1].rstrip() + "…"


def _record(session: Session, game: Game, speaker: Seat, messages: list[Message]) -> None:
    """A ``talk`` log entry, each message's event readable by the speaker and its listeners
    only; the state is unchanged."""
    last = queries.last_entry(session, game.id or 0)
    events, text = [], []
    for m in messages:
        names = ", ".join(t.name for t in m.targets)
        said = (msg("{name} to everyone: \"{text}\"", name=speaker.name, text=m.text)
                if m.everyone else
                msg("{name} to {names}: \"{text}\"", name=speaker.name, names=names,
                    text=m.text))
        events.append(Event.of("talk", said, {speaker.index, *(t.index for t in m.targets)})
                      .to_json())
        text.append(f"say to {'everyone' if m.everyone else names}: {m.text}")
    session.add(LogEntry(game_id=game.id or 0, index=last.index + 1, kind=TALK,
                         seat=speaker.index, text="\n".join(text), draws_json="[]",
                         events_json=canonical_json(events), state_hash=last.state_hash))
    session.flush()
