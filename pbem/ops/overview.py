"""The operator's overview: every game's turn, clock and problems; the outbox; unmatched mail.

Read-only, except :func:`set_outbox_status` (hold or drop a queued mail; the sender only ever
takes ``queued`` rows, so held and dropped ones stay put and stay visible).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, func, or_, select

from pbem.engine import registry
from pbem.pipeline import history
from pbem.pipeline.deadlines import aware, deadline_of
from pbem.pipeline.one_mail import Result
from pbem.store import queries
from pbem.store.tables import (
    INBOUND_WITHOUT_BYTES,
    OUTBOUND_WITHOUT_BYTES,
    Game,
    InboundMessage,
    OutboundMessage,
    Seat,
    utcnow,
)

HOLDABLE = ("queued", "failed")  # mail not yet sent; "held" and "dropped" are never sent


@dataclass
class GameLine:
    game: Game
    waiting: list[str]
    since: datetime | None
    deadline: datetime | None
    problems: list[str] = field(default_factory=list)


@dataclass
class Facts:
    """What the problem checks read about one game."""

    game: Game
    seats: list[Seat]
    waiting: frozenset[int]
    now: datetime
    last_entry_text: str
    failed_mails: int
    held_mails: int


def _paused(f: Facts) -> str | None:
    if f.game.status != "paused":
        return None
    if f.last_entry_text.lower().startswith("pause"):
        return "paused by the operator"
    return "paused by the clock: waiting on the operator"


def _overdue(f: Facts) -> str | None:
    late = [s.name for s in f.seats if s.index in f.waiting and f.game.status == "active"
            and (due := deadline_of(f.game, s)) is not None and due < f.now]
    return f"deadline passed: {', '.join(late)}" if late else None


def _failed_mail(f: Facts) -> str | None:
    return (f"{f.failed_mails} mail{'s' if f.failed_mails != 1 else ''} failed (bad address?)"
            if f.failed_mails else None)


def _held_mail(f: Facts) -> str | None:
    return f"{f.held_mails} mail{'s' if f.held_mails != 1 else ''} held" if f.held_mails else None


def _bouncing(f: Facts) -> str | None:
    names = [s.name for s in f.seats if s.bounced_at is not None]
    return f"mail bounces: {', '.join(names)}" if names else None


# One function per kind of problem; a new kind is one more function here.
PROBLEMS: Sequence[Callable[[Facts], str | None]] = (_paused, _overdue, _failed_mail,
                                                     _held_mail, _bouncing)


def _mail_counts(session: Session) -> dict[tuple[int, str], int]:
    q = (select(OutboundMessage.game_id, OutboundMessage.status, func.count())
         .where(col(OutboundMessage.status).in_(["failed", "held"]))
         .group_by(col(OutboundMessage.game_id), col(OutboundMessage.status)))
    return {(int(g or 0), str(s)): int(n) for g, s, n in session.exec(q)}


def game_lines(session: Session, status: str | None = None,
               now: datetime | None = None) -> list[GameLine]:
    """Each game with whom it waits for, since when, until when, and what is wrong."""
    now = now or utcnow()
    mail = _mail_counts(session)
    q = select(Game).order_by(col(Game.id))
    if status:
        q = q.where(Game.status == status)
    lines = []
    for game in session.exec(q):
        gid = game.id or 0
        rules = registry.get(game.game_type)
        seats = queries.seats(session, gid)
        state = rules.from_json(json.loads(queries.latest_snapshot(session, gid).state_json))
        waiting = (rules.waiting_for(state) if game.status in ("active", "paused")
                   else frozenset())
        last = queries.log(session, gid)[-1]
        facts = Facts(game, seats, waiting, now,
                      last.text if last.kind == history.ADMIN else "",
                      mail.get((gid, "failed"), 0), mail.get((gid, "held"), 0))
        dues = [d for s in seats if s.index in waiting if (d := deadline_of(game, s))]
        lines.append(GameLine(
            game, [s.name for s in seats if s.index in waiting],
            aware(game.turn_started_at) if waiting and game.turn_started_at else None,
            min(dues) if dues else None,
            [p for check in PROBLEMS if (p := check(facts))]))
    return lines


@dataclass
class OutboxLine:
    mail: OutboundMessage
    subject: str
    game: str  # the game's tag, "" for mail of no game


def outbox_lines(session: Session, status: str | None = None) -> list[OutboxLine]:
    q = select(OutboundMessage).order_by(col(OutboundMessage.id)).options(OUTBOUND_WITHOUT_BYTES)
    if status:
        q = q.where(OutboundMessage.status == status)
    tags = {g.id: g.tag for g in session.exec(select(Game))}
    return [OutboxLine(m, m.subject, tags.get(m.game_id, "") if m.game_id else "")
            for m in session.exec(q)]


class OutboxError(ValueError):
    """A mail that cannot be held or dropped; the message says why."""


def set_outbox_status(session: Session, outbound_id: int, status: str) -> OutboundMessage:
    """Hold or drop one mail not yet sent (``outbox retry ID`` queues it again)."""
    row = session.get(OutboundMessage, outbound_id, options=[OUTBOUND_WITHOUT_BYTES])
    if row is None:
        raise OutboxError(f"no outgoing email {outbound_id}")
    if row.status not in (*HOLDABLE, "held"):
        raise OutboxError(f"email {outbound_id} is {row.status}; only queued, failed or held "
                          "mail can be held or dropped")
    row.status = status
    session.add(row)
    return row


# Mail the host could not tie to a game and a seat: no tag, strangers, wrong or no secret. A
# reason may go on ("; no answer: reply limit reached"), so they are matched as prefixes.
UNMATCHED_REASONS = ("no game identified", "unknown sender", "too large", "no secret",
                     "wrong secret", "unreadable")


def unmatched(session: Session, limit: int = 100) -> list[InboundMessage]:
    """The newest mail that matched no game or player, or could not be read at all."""
    q = (select(InboundMessage).options(INBOUND_WITHOUT_BYTES)
         .where((col(InboundMessage.status) == "quarantined")
                | ((col(InboundMessage.status) == "rejected")
                   & or_(*(col(InboundMessage.reason).startswith(r)
                           for r in UNMATCHED_REASONS))))
         .order_by(col(InboundMessage.id).desc()).limit(limit))
    return list(session.exec(q))


def summary(results: Sequence[Result]) -> str:
    """``2 applied, 1 answered, 1 rejected``: a mail that got a reply without playing (help,
    status, a dry run, an email command) is answered; ignored means nobody was written to."""
    counts: dict[str, int] = {}
    for r in results:
        status = "answered" if r.status == "ignored" and r.queued else r.status
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no new mail"
