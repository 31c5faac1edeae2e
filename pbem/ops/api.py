"""The operations the CLI wraps: games, seats, logs, replay, the inbox pass, quarantine, outbox.

Functions taking a ``Session`` leave committing to the caller unless they say otherwise;
those taking a ``SessionFactory`` run their own transactions.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from pbem.engine import registry
from pbem.engine.hashing import state_hash
from pbem.engine.replay import ReplayMismatch
from pbem.mail.inbound import Inbox
from pbem.mail.outbound import Sender
from pbem.outbox.delivery import Delivery, deliver_outbox
from pbem.pipeline import history
from pbem.pipeline.clock import ClockReport, run_clocks
from pbem.pipeline.digest import send_digests
from pbem.pipeline.move_mails import MoveMails, spectator_mail

# Game creation lives in the pipeline (a lobby table that fills creates its game too).
from pbem.pipeline.new_game import ClockSettings as ClockSettings
from pbem.pipeline.new_game import create_game as create_game
from pbem.pipeline.one_mail import Result, process_raw, reprocess
from pbem.pipeline.seat_secrets import hash_secret, new_salt, new_secret
from pbem.pipeline.watch.mail import send_watch_mail
from pbem.rendering import render_status
from pbem.settings.host import Host
from pbem.store import queries
from pbem.store.claims import MailClaims
from pbem.store.db import SessionFactory, init, session_factory
from pbem.store.faults import TransientFault, describe, is_transient
from pbem.store.tables import (
    INBOUND_WITHOUT_BYTES,
    OUTBOUND_WITHOUT_BYTES,
    Game,
    InboundMessage,
    LogEntry,
    OutboundMessage,
    Seat,
    utcnow,
)

log = logging.getLogger(__name__)


def connect(database_url: str) -> SessionFactory:
    """Migrate the database at ``database_url`` and return a session factory for it."""
    return session_factory(init(database_url))


def list_games(session: Session, status: str | None = None) -> list[Game]:
    q = select(Game).order_by(col(Game.id))
    if status:
        q = q.where(Game.status == status)
    return list(session.exec(q))


def get_game(session: Session, game: int | str) -> Game:
    """A game by id or tag."""
    row = session.get(Game, game) if isinstance(game, int) or str(game).isdigit() else None
    row = row or queries.game_by_tag(session, str(game))
    if row is None:
        raise LookupError(f"no game {game!r}")
    return row


def current_state(session: Session, game: Game) -> Any:
    rules = registry.get(game.game_type)
    return rules.from_json(json.loads(queries.latest_snapshot(session, game.id or 0).state_json))


def show_game(session: Session, game: Game, seat_index: int | None) -> tuple[str, str]:
    """The text and HTML status email ``seat_index`` would be sent now; with None, what a
    spectator may see of the game now (no seat's hidden holdings)."""
    rules = registry.get(game.game_type)
    state = current_state(session, game)
    if seat_index is None:
        return render_status(rules, spectator_mail(session, rules, game, state))
    seat = next((s for s in queries.seats(session, game.id or 0) if s.index == seat_index), None)
    if seat is None:
        raise LookupError(f"game {game.tag} has no seat {seat_index + 1}")
    mail = MoveMails.read(session, rules, game, state, mailed=[seat.index]).status_mail(seat)
    return render_status(rules, mail)


def bouncing_seats(session: Session, game: Game) -> list[Seat]:
    """Seats whose address a delivery status report said fails (see pipeline.bounces)."""
    return [s for s in queries.seats(session, game.id or 0) if s.bounced_at is not None]


def game_log(session: Session, game: Game) -> list[LogEntry]:
    return queries.log(session, game.id or 0)


@dataclass
class ReplayReport:
    entries: int
    final_hash: str


def replay_game(session: Session, game: Game,
                progress: Callable[[int, int], None] | None = None) -> ReplayReport:
    """Re-run the whole log with its recorded draws; raises ReplayMismatch on any difference."""
    rules = registry.get(game.game_type)
    entries = queries.log(session, game.id or 0)
    setup_entry, orders = entries[0], entries[1:]
    record = queries.setup_record(game, setup_entry, len(queries.seats(session, game.id or 0)))
    # The host's replay: moves through the engine, admin entries (undo...) checked too.
    final = history.replay_log(rules, record, orders, progress).state
    got = state_hash(rules.to_json(final))
    snap = queries.latest_snapshot(session, game.id or 0)
    stored = state_hash(json.loads(snap.state_json))
    if got != stored:
        raise ReplayMismatch(len(orders), stored, got)
    return ReplayReport(len(orders), got)


def reissue_secret(session: Session, game: Game, seat_index: int) -> str:
    seat = next((s for s in queries.seats(session, game.id or 0) if s.index == seat_index), None)
    if seat is None:
        raise LookupError(f"game {game.tag} has no seat {seat_index + 1}")
    secret, salt = new_secret(), new_salt()
    seat.secret_salt, seat.secret_hash = salt, hash_secret(secret, salt)
    session.add(seat)
    return secret


@dataclass
class Pass:
    results: list[Result]
    delivery: Delivery
    clocks: ClockReport = field(default_factory=ClockReport)
    # Set when a database or disk fault stopped the pass: the mail it could not handle is
    # still in the inbox, untouched, for the next pass.
    fault: str = ""


def _handle_fetched(factory: SessionFactory, raw: bytes, host: Host) -> Result:
    """``process_raw`` tried again (backing off) while the database has a passing fault."""
    for attempt in range(host.limits.transient_retries + 1):
        try:
            return process_raw(factory, raw, host)
        except TransientFault:
            if attempt == host.limits.transient_retries:
                raise
            time.sleep(host.limits.transient_backoff_seconds * 2 ** attempt)
    raise AssertionError("unreachable")


# Handled mails moved out of an IMAP inbox per command: a crash before the move only has
# these fetched again, each then a duplicate of its recorded Message-ID.
MOVE_BATCH = 50


def process_inbox(factory: SessionFactory, inbox: Inbox, sender: Sender | None, host: Host,
                  limit: int = 100,
                  after_commit: Callable[[Result], None] | None = None) -> Pass:
    """One pass: fetch, process each mail in its own transaction, then send the queue (and
    during a long pass, every :data:`SEND_EVERY` seconds). The answers go out before the
    clock pass plays anyone's bots, so a player never waits for the bots' CPU.

    The inbox mark comes after the commit, so a crash in between refetches a message whose
    Message-ID is already recorded: it is then a duplicate and changes nothing. An inbox that
    can (IMAP) moves its handled mail in groups of up to MOVE_BATCH, one command each, not
    one round trip per mail: the same reasoning covers a crash before the group's move. A
    database or disk fault that outlasts the retries ends the pass with ``fault`` set: that
    mail and the ones after it stay in the inbox (a bad message is quarantined; a bad moment
    is not). Each mail is claimed before it is read (pbem.store.claims): workers sharing the
    mailbox take different mail, and only the worker that handled a mail moves it.
    """
    results = []
    fault = ""
    delivery = Delivery()
    last_sent = time.monotonic()
    move_all = getattr(inbox, "mark_all_processed", None)
    handled: list[str] = []
    # Held until the moves below are done: no other worker takes (or moves) these mails.
    claims = MailClaims(factory, retries=host.limits.transient_retries)
    try:
        try:
            for fetched in inbox.fetch(limit, claim=claims.take):
                result = _handle_fetched(factory, fetched.raw, host)
                results.append(result)
                if after_commit is not None:
                    after_commit(result)
                if result.status == "quarantined":
                    inbox.mark_failed(fetched.key)
                elif move_all is None:
                    inbox.mark_processed(fetched.key)
                else:
                    handled.append(fetched.key)
                    if len(handled) >= MOVE_BATCH:
                        move_all(handled)
                        handled = []
                if sender is not None and time.monotonic() - last_sent >= SEND_EVERY:
                    _send_now(factory, sender, host, delivery)
                    last_sent = time.monotonic()
        except TransientFault as exc:  # handling a mail, or claiming one
            fault = str(exc)
            log.error("database fault; mail left in the inbox for the next pass: %s", fault)
        if handled:
            assert move_all is not None
            move_all(handled)
    finally:
        claims.release()
    clocks = ClockReport()
    if sender is not None and results:  # the pass's answers before its bots' moves
        _send_now(factory, sender, host, delivery)
    try:
        clocks = run_clocks(factory, host)  # reminders and timeouts go out in this same pass
        send_digests(factory, host)  # "mail digest" seats: a summary a day
        send_watch_mail(factory, host)  # watchers: the spectators' view, as each asked
        if sender is not None:
            _add(delivery, deliver_outbox(factory, sender, host))
    except Exception as exc:
        if not is_transient(exc):
            raise
        fault = fault or describe(exc)
        log.error("database fault; clocks or sending wait for the next pass: %s", fault)
    return Pass(results, delivery, clocks, fault)


# During a long pass (a backlog, a burst) what is queued goes out at least this often, so
# the first mails of a hundred are not answered only once the hundredth is handled.
SEND_EVERY = 1.0


def _send_now(factory: SessionFactory, sender: Sender, host: Host, delivery: Delivery) -> None:
    """The queue sent in the middle of a pass; a database fault leaves it to the pass's end."""
    try:
        _add(delivery, deliver_outbox(factory, sender, host))
    except Exception as exc:
        if not is_transient(exc):
            raise
        log.warning("database fault while sending mid-pass; the pass's end sends: %s",
                    describe(exc))


def _add(total: Delivery, more: Delivery) -> None:
    total.sent += more.sent
    total.retrying += more.retrying
    total.failed += more.failed
    total.replies += more.replies


def quarantine_list(session: Session) -> list[InboundMessage]:
    q = (select(InboundMessage).where(InboundMessage.status == "quarantined")
         .options(INBOUND_WITHOUT_BYTES))
    return list(session.exec(q.order_by(col(InboundMessage.id))))


def inbound_show(session: Session, inbound_id: int) -> InboundMessage:
    row = session.get(InboundMessage, inbound_id)
    if row is None:
        raise LookupError(f"no inbound message {inbound_id}")
    return row


def quarantine_reprocess(factory: SessionFactory, inbound_id: int, host: Host) -> Result:
    return reprocess(factory, inbound_id, host)


def outbox_list(session: Session, status: str | None = None) -> list[OutboundMessage]:
    q = select(OutboundMessage).order_by(col(OutboundMessage.id))
    if status:
        q = q.where(OutboundMessage.status == status)
    return list(session.exec(q))


def outbox_retry(session: Session, outbound_id: int | None = None) -> int:
    """Put failed mail, and queued mail waiting to be tried again, back in the queue due now
    (or one given unsent mail, e.g. a held one); returns how many."""

    q = (select(OutboundMessage).where(OutboundMessage.status != "sent")
         .options(OUTBOUND_WITHOUT_BYTES))
    if outbound_id is not None:
        q = q.where(OutboundMessage.id == outbound_id)
    else:  # held and dropped mail stays put unless named
        q = q.where(col(OutboundMessage.status).in_(("failed", "queued")))
    n = 0
    for row in session.exec(q):
        row.status, row.attempts, row.next_attempt_at = "queued", 0, utcnow()
        session.add(row)
        n += 1
    return n
