"""Building and queueing the emails a game sends: subjects, notes, the queue itself, and the
limits on answers to strangers. Every seat's status after a move: pbem.pipeline.move_mails."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlmodel import Session

from pbem.drawing.pictures import Picture, inline_pictures
from pbem.engine.contract import Event, GameRules, Outcome
from pbem.i18n import Msg, Translator, msg, nmsg
from pbem.i18n.translate import ENGLISH
from pbem.mail.calendar_part import Part, with_calendar
from pbem.mail.compose import Attachment, ascii_domain, clean_header, compose, list_id
from pbem.mail.redact import MARK
from pbem.pipeline.controllers import is_bot_seat, stands_in
from pbem.pipeline.deadlines import autoplayed, aware
from pbem.pipeline.history import MOVE_KINDS
from pbem.pipeline.lobby_codes import never_code, unsubscribe_link
from pbem.pipeline.reply_tokens import ReplyAddress, seat_reply_address, sent_copy
from pbem.pipeline.seat_language import Line, footer, render, render_lines, seat_tr
from pbem.rendering import StatusMail, render_notice
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat


def subject(game: Game, title: Line, tr: Translator = ENGLISH) -> str:
    """``[tag] what this mail is for``: the tag keeps the game's thread findable."""
    return f"[{game.tag}] {render(title, tr)}"


def due_day(moment: datetime, tr: Translator = ENGLISH, tz: str | None = None) -> str:
    """A deadline short enough for a phone's subject line: ``Thu 26 Nov 18:00 UTC``."""
    return tr.short_datetime(aware(moment), tz)


def winners(outcome: Outcome, seats: list[Seat]) -> Msg:
    names = {s.index: s.name for s in seats}
    best = [names.get(s, f"seat {s + 1}") for s in (outcome.ranking[0] if outcome.ranking
                                                    else [])]
    if len(best) == 1:
        return msg("{name} wins", name=best[0])
    if best:  # "Ann and Bob", "Ann, Bob and Cy"
        return msg("{first} and {second} share first place", first=", ".join(best[:-1]),
                   second=best[-1])
    return msg("no winner")


def played_for(seat: Seat) -> bool:
    """A player's seat whose orders the host plays (a bot stands in, or its player resigned
    or was dropped): the player still reads the game, but it is never their move."""
    return autoplayed(seat) and not is_bot_seat(seat)


def played_by(seat: Seat) -> Msg | None:
    """What a subject adds for a seat the host plays for: who plays it."""
    if not played_for(seat):
        return None
    return (msg("a bot plays for you") if stands_in(seat) else
            msg("the game plays its default orders for you"))


def with_played(line: Msg, played: Msg | None) -> Msg:
    """A subject's news, and who plays the reader's seat when the host does."""
    return line if played is None else msg("{now} — {who}", now=line, who=played)


@dataclass(frozen=True)
class Moves:
    """Several moves the host played in a row (bots, deadlines, resigned seats), told as a
    count: a subject naming each mover would repeat names and outgrow a phone's line."""

    names: tuple[str, ...]  # who moved, in order, one name per move
    start: Any  # the game's state before the first of them


def moved(turn: int, mover: str | Moves, first: int | None = None) -> Msg:
    """What a subject says of the moves since the seat's last mail."""
    if isinstance(mover, str):
        return msg("Turn {turn} — {mover} moved", turn=turn, mover=mover)
    n = len(mover.names)
    if first is None or first == turn:
        return nmsg("Turn {turn} — {n} move played", "Turn {turn} — {n} moves played", n,
                    turn=turn)
    return nmsg("Turn {turn} — {n} move played since turn {first}",
                "Turn {turn} — {n} moves played since turn {first}", n, first=first, turn=turn)


def movers(played: Sequence[str], start: Any) -> str | Moves | None:
    """Who moved: one name, or several moves counted (:class:`Moves`)."""
    if not played:
        return None
    return played[0] if len(played) == 1 else Moves(tuple(played), start)


def status_subject(game: Game, mail: StatusMail, *, turn: int, kind: str,
                   mover: str | Moves | None,
                   point: Line | None, due: datetime | None, outcome: Outcome | None,
                   seats: list[Seat], tr: Translator = ENGLISH,
                   first_turn: int | None = None, played: Msg | None = None) -> str:
    """What this status is for, readable in a phone's inbox list.

    ``turn`` is the turn the mail's body shows (:func:`shown_turn`), now to be played:
    ``Turn 9 — your move (due Thu 26 Nov 18:00 UTC)``, ``Turn 9 — Bob moved``,
    ``Orders accepted``, ``Game over — Alice wins``. A ``point`` (``Orders accepted``) gives
    way to ``your move`` when the seat must move again: one subject, one message.
    ``played``: who plays the reader's seat when the host does (:func:`played_by`), added
    after it.
    """
    now: Msg
    if outcome is not None:
        return subject(game, msg("Game over — {winners}", winners=winners(outcome, seats)), tr)
    if mail.your_turn and due:
        now = msg("Turn {turn} — your move (due {due})", turn=turn,
                  due=due_day(due, tr, mail.timezone))
    elif mail.your_turn:
        now = msg("Turn {turn} — your move", turn=turn)
    elif mover:
        now = moved(turn, mover, first_turn)
    elif mail.waiting_names:
        now = msg("Turn {turn} — waiting for {names}", turn=turn,
                  names=", ".join(mail.waiting_names))
    else:
        now = msg("Turn {turn} — waiting for nobody", turn=turn)
    now = with_played(now, played)
    if point:  # one thing: the move still owed matters more than what the body confirms
        return subject(game, now if mail.your_turn else point, tr)
    lead = {"welcome": msg("Welcome to {title}", title=mail.title),
            "reminder": msg("Reminder")}.get(kind)
    return subject(game, msg("{lead}: {now}", lead=lead, now=now) if lead else now, tr)


def unmailed(seat: Seat | None, to: str | None = None) -> bool:
    """Mail to a bot seat is never built nor queued: nobody reads it. What it would say is
    the game's own status for that seat, which ``pbem game show --as N`` renders from the
    game at any time (and the archive from its log), so nothing is lost by not keeping it."""
    return (seat is not None and is_bot_seat(seat)) or to == ""


def bot_labels(seats: Sequence[Seat], tr: Translator = ENGLISH) -> list[str]:
    """The seats a bot plays, for every status mail: ``Bot 3``, ``Ann (a bot stands in)``."""
    return [s.name if is_bot_seat(s) else tr(msg("{name} (a bot stands in)", name=s.name))
            for s in seats if is_bot_seat(s) or stands_in(s)]


def queue(session: Session, host: Host, *, to: str, to_name: str, subj: str, text: str,
          html: str | None = None, kind: str, game_id: int | None,
          in_reply_to: str | None = None, references: list[str] | None = None,
          auto_reply: bool = True, secret: str | None = None,
          tag: str | None = None, unsubscribe: bool | str = False,
          language: str | None = None, codes: Sequence[str] = (),
          extra_headers: Sequence[tuple[str, str]] = (),
          attachments: Sequence[Attachment] = (),
          calendar: Part | None = None, reply_to: ReplyAddress | None = None) -> OutboundMessage:
    """Queue one mail. One holding a ``secret`` keeps a blanked copy that replaces it once
    sent (pbem.outbox.delivery), so the secret is at rest only while the mail waits; the
    subject kept on the row never shows it. ``unsubscribe``: mail to someone who holds no
    seat carries ``List-Unsubscribe``, whose mail is a proven "never" (its code blanked once
    sent, as a secret).
    An HTML body's SVG pictures travel as PNG parts (pbem.drawing.pictures). Mail to an
    address that answered "never" (pbem.pipeline.lobby) is dropped by the outbox, never
    sent (pbem.outbox.delivery). A game's mail (``tag``) carries the game's List-Id, the
    same in every one of its mails, for players' filters. ``unsubscribe`` may be the header's
    own value (a watcher's ``unwatch``) and ``codes`` what it carries, blanked likewise.
    ``extra_headers`` and ``attachments`` go to the writer as they are
    (pbem.mail.compose.compose says where); a ``calendar`` part (a deadline's event,
    pbem.pipeline.calendar) is attached after the mail's own body. ``reply_to``: a seat's
    reply address (pbem.pipeline.reply_tokens), its token blanked once sent, as a secret."""
    pictures: list[Picture] = []
    if html is not None:  # the pictures' Content-IDs are ids as the Message-ID is
        html, pictures = inline_pictures(html, ascii_domain(host.mail.message_id_domain))
    token_shown = reply_to is not None and reply_to.shown_in(text, html)
    if reply_to is not None:
        extra_headers = [("Reply-To", reply_to.address), *extra_headers]
    # No secret nor token in its text: its lines may be kept.
    mail = compose(keep_lines=secret is None and not token_shown,
                   from_addr=host.mail.from_address, from_name=host.mail.from_name,
                   to_addr=to, to_name=to_name, subject=subj,
                   text=text, html=html, in_reply_to=in_reply_to, references=references,
                   auto_reply=auto_reply, message_id_domain=host.mail.message_id_domain,
                   pictures=pictures,
                   list_id=list_id(tag, host.mail.message_id_domain) if tag else None,
                   list_unsubscribe=unsubscribe if isinstance(unsubscribe, str) else
                   unsubscribe_link(host, to) if unsubscribe else None,
                   language=language, extra_headers=extra_headers, attachments=attachments)
    raw = mail.raw if calendar is None else with_calendar(mail.raw, calendar)
    hidden = [*([secret] if secret else []), *codes, *([reply_to.token] if reply_to else [])]
    if unsubscribe is True:
        hidden.append(never_code(host, to))
    # The subject as its header reads, so listing the outbox never loads the bytes.
    row = OutboundMessage(to_addr=to.lower(), kind=kind, raw=raw, game_id=game_id,
                          subject=clean_header(_without(subj, hidden), 250),
                          message_id=mail.message_id,
                          raw_once_sent=sent_copy(raw, hidden, reply_to, token_shown))
    session.add(row)
    return row


def _without(text: str, hidden: Sequence[str]) -> str:
    for token in hidden:
        text = text.replace(token, MARK)
    return text


def ranking_lines(outcome: Outcome, seats: list[Seat]) -> list[str]:
    """``1. Ann (46)``: each place with its players' names and scores."""
    names = {s.index: s.name for s in seats}
    lines = []
    for place, group in enumerate(outcome.ranking, start=1):
        who = ", ".join(f"{names.get(s, s)} ({outcome.scores.get(s, 0)})" for s in group)
        lines.append(f"{place}. {who}")
    return lines


def outcome_lines(outcome: Outcome, seats: list[Seat], tr: Translator = ENGLISH) -> list[str]:
    """The ranking followed by the game's explanation of the scores."""
    names = [s.name for s in seats]
    return ranking_lines(outcome, seats) + render_lines(outcome.explanation, tr, names)


def events_since_last_turn(entries: list[LogEntry], seat: int, tr: Translator = ENGLISH,
                           names: list[str] | None = None) -> list[str]:
    """What ``seat`` may read of what happened since its last turn.

    That is everything logged after its own last move (its order, or one played for it at a
    deadline or by the operator): the seat read about that move in the mail after it. The
    reply itself (its order is the newest entry) tells what the order did.
    """
    start = 0
    for i, e in enumerate(entries):
        if e.seat == seat and e.kind in MOVE_KINDS:
            start = i if i == len(entries) - 1 else i + 1
    out = []
    who = tuple(names or ())
    for e in entries[start:]:
        out += [_event_text(ev, tr, who) for ev in queries.entry_events(e) if ev.visible(seat)]
    return out


# An event in one language with the same names reads the same in every seat's mail: a move's
# mails translated each shared event once per seat. Translators are kept (one per language).
@lru_cache(maxsize=2048)
def _event_text(event: Event, tr: Translator, names: tuple[str, ...]) -> str:
    return event.render(tr, names)


MAIL_MODES = {
    "every": msg("a full status after every move"),
    "turn": msg("a full status when it is your move; a one-line note on the others' moves"),
    "digest": msg("a full status when it is your move; one summary a day of everything else"),
}


def queue_notice(session: Session, host: Host, *, to: str, subj: str, lines: Sequence[Line],
                 kind: str, game: Game | None = None, in_reply_to: str | None = None,
                 references: list[str] | None = None,
                 secret: str | None = None, seat: Seat | None = None,
                 rules: GameRules | None = None,
                 tr: Translator | None = None, names: list[str] | None = None,
                 unsubscribe: bool = False,
                 attachment: Attachment | None = None) -> OutboundMessage | None:
    """A short note. To a ``seat`` it is in the seat's language (``tr`` overrides) and ends
    with the language footer; otherwise English (a stranger's language is unknown). None to
    a bot seat (:func:`unmailed`)."""
    if unmailed(seat, to):
        return None
    tr = tr or seat_tr(seat, rules)
    if names is None:  # the players' names, for the seats a message names
        names = [s.name for s in queries.seats(session, game.id or 0)] if game and seat else []
    text = render_notice(render_lines(lines, tr, names), game.tag if game else None, tr,
                         footer=footer(tr) if seat is not None else None)
    return queue(session, host, to=to, to_name="", subj=subj, text=text, kind=kind,
                 game_id=game.id if game else None, in_reply_to=in_reply_to,
                 references=references, secret=secret, tag=game.tag if game else None,
                 unsubscribe=unsubscribe, language=tr.lang,
                 attachments=[attachment] if attachment is not None else [],
                 reply_to=seat_reply_address(host, game, seat, to))


# Answers to mail that proved no seat's secret ("fault": a mail the host failed on; "lobby":
# a lobby answer to an address that never confirmed a seat; "invite": a player's invitation).
UNPROVEN = ("stranger", "help", "auth", "fault", "lobby", "invite")
# Those counted against the host's total an hour: the lobby's answers are bounded per sender
# and per domain instead (pbem.pipeline.lobby.answer), so strangers cannot spend the total.
SHARED = tuple(kind for kind in UNPROVEN if kind != "lobby")


def may_answer(session: Session, host: Host, address: str, kind: str) -> bool:
    """May an answer of ``kind`` (one of UNPROVEN) go to ``address`` now?

    Anyone can forge a sender, so these answers are limited: all of them together per hour
    (``replies_per_hour_total``); notes to addresses that have no seat (``stranger``) per day
    (``stranger_replies_per_day``); help and secret errors to a seat's address per hour
    (``unverified_replies_per_hour``), counted apart from stranger notes so neither uses up
    the other; notes that the host failed on a mail (``fault``) per hour, apart. Replies to a
    proven secret are never limited.
    """
    hour = timedelta(hours=1)
    if queries.recent_replies(session, None, SHARED, hour) >= host.limits.replies_per_hour_total:
        return False
    if kind == "stranger":
        sent = queries.recent_replies(session, address, ("stranger",), timedelta(days=1))
        return sent < host.limits.stranger_replies_per_day
    if kind == "fault":  # counted apart: a host's fault must not use up a player's help
        return queries.recent_replies(session, address, ("fault",), hour) \
            < host.limits.unverified_replies_per_hour
    if kind == "invite":  # per address by the lobby (pbem.pipeline.lobby.invite)
        return True
    sent = queries.recent_replies(session, address, ("help", "auth", "lobby"), hour)
    return sent < host.limits.unverified_replies_per_hour
