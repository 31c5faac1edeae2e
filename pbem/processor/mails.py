"""Building and queueing the emails a game sends: every seat's status, notes to strangers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import Outcome
from pbem.mail.compose import compose
from pbem.mail.redact import redact
from pbem.processor.deadlines import deadline_of, waiting_label, when
from pbem.processor.history import MOVE_KINDS
from pbem.processor.host import Host
from pbem.processor.render import StatusMail, render_notice, render_status
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat


def subject(game: Game, title: str) -> str:
    """One stable subject per game, so every mail of a game lands in one thread."""
    return f"[{game.tag}] {title}"


def queue(session: Session, host: Host, *, to: str, to_name: str, subj: str, text: str,
          html: str | None = None, kind: str, game_id: int | None,
          in_reply_to: str | None = None, references: list[str] | None = None,
          auto_reply: bool = True, secret: str | None = None) -> OutboundMessage:
    """Queue one mail. One holding a ``secret`` keeps a blanked copy that replaces it once
    sent (pbem.processor.outbox), so the secret is at rest only while the mail waits."""
    msg = compose(from_addr=host.from_address, from_name=host.from_name, to_addr=to,
                  to_name=to_name, subject=subj,
                  text=text, html=html, in_reply_to=in_reply_to, references=references,
                  auto_reply=auto_reply, message_id_domain=host.message_id_domain)
    raw = bytes(msg)
    row = OutboundMessage(to_addr=to.lower(), kind=kind, raw=raw, game_id=game_id,
                          raw_once_sent=redact(raw, [secret]) if secret else None)
    session.add(row)
    return row


def ranking_lines(outcome: Outcome, seats: list[Seat]) -> list[str]:
    """``1. Ann (46)``: each place with its players' names and scores."""
    names = {s.index: s.name for s in seats}
    lines = []
    for place, group in enumerate(outcome.ranking, start=1):
        who = ", ".join(f"{names.get(s, s)} ({outcome.scores.get(s, 0)})" for s in group)
        lines.append(f"{place}. {who}")
    return lines


def outcome_lines(outcome: Outcome, seats: list[Seat]) -> list[str]:
    """The ranking followed by the game's explanation of the scores."""
    return ranking_lines(outcome, seats) + list(outcome.explanation)


def events_since_last_turn(entries: list[LogEntry], seat: int) -> list[str]:
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
    for e in entries[start:]:
        out += [ev.text for ev in queries.entry_events(e) if ev.visible(seat)]
    return out


def status_mail(session: Session, rules: Any, game: Game, state: Any, seat: Seat,
                intro: list[str] | None = None, secret: str | None = None) -> StatusMail:
    all_seats = queries.seats(session, game.id or 0)
    waiting = rules.waiting_for(state)
    outcome = rules.outcome(state)
    return StatusMail(
        title=rules.title, tag=game.tag, seat=seat.index, seat_name=seat.name,
        view=rules.view(state, seat.index), intro=intro or [],
        events=events_since_last_turn(
            queries.log_since_last_order(session, game.id or 0, seat.index, MOVE_KINDS),
            seat.index),
        waiting=[waiting_label(game, s) for s in all_seats if s.index in waiting],
        your_turn=seat.index in waiting,
        deadline=when(due) if seat.index in waiting and (due := deadline_of(game, seat))
        else None,
        outcome=ranking_lines(outcome, all_seats) if outcome is not None else [],
        explanation=list(outcome.explanation) if outcome is not None else [],
        secret=secret, names=[s.name for s in all_seats],
    )


def queue_status(session: Session, host: Host, rules: Any, game: Game, state: Any, seat: Seat,
                 *, intro: list[str] | None = None, secret: str | None = None,
                 in_reply_to: str | None = None, references: list[str] | None = None,
                 kind: str = "status") -> OutboundMessage:
    mail = status_mail(session, rules, game, state, seat, intro, secret)
    text, html = render_status(rules, mail)
    return queue(session, host, to=seat.address, to_name=seat.name,
                 subj=subject(game, rules.title), text=text, html=html, kind=kind,
                 game_id=game.id, in_reply_to=in_reply_to, references=references,
                 auto_reply=in_reply_to is not None, secret=secret)


def queue_notice(session: Session, host: Host, *, to: str, subj: str, lines: list[str],
                 kind: str, game: Game | None = None, in_reply_to: str | None = None,
                 references: list[str] | None = None,
                 secret: str | None = None) -> OutboundMessage:
    text = render_notice(lines, game.tag if game else None)
    return queue(session, host, to=to, to_name="", subj=subj, text=text, kind=kind,
                 game_id=game.id if game else None, in_reply_to=in_reply_to,
                 references=references, secret=secret)


UNPROVEN = ("stranger", "help", "auth")  # answers to mail that proved no seat's secret


def may_answer(session: Session, host: Host, address: str, kind: str) -> bool:
    """May an answer of ``kind`` (one of UNPROVEN) go to ``address`` now?

    Anyone can forge a sender, so these answers are limited: all of them together per hour
    (``replies_per_hour_total``); notes to addresses that have no seat (``stranger``) per day
    (``stranger_replies_per_day``); help and secret errors to a seat's address per hour
    (``unverified_replies_per_hour``), counted apart from stranger notes so neither uses up
    the other. Replies to a proven secret are never limited.
    """
    hour = timedelta(hours=1)
    if queries.recent_replies(session, None, UNPROVEN, hour) >= host.replies_per_hour_total:
        return False
    if kind == "stranger":
        sent = queries.recent_replies(session, address, ("stranger",), timedelta(days=1))
        return sent < host.stranger_replies_per_day
    sent = queries.recent_replies(session, address, ("help", "auth"), hour)
    return sent < host.unverified_replies_per_hour
