"""Delivering the outbound queue.

Mails are claimed in batches, in one short transaction (each one's next attempt moved a
lease ahead, so no other worker takes it), handed to the server with no transaction open,
then each marked right after its send, most by one statement that commits itself. No
database lock is ever held while SMTP talks: a slow server cannot stall the workers applying
orders. A crash between a send and its mark resends that one mail after the lease, with the
same Message-ID (the one window SMTP itself cannot close). Marks are not batched: that would
widen the window to a batch (the kill -9 tests, tests/pipeline/test_faults.py, fail when
they are).

A mark's commit does not wait for the disk (pbem.store.db.commit_unsynced; it was an fsync
per sent mail, ~9 ms each). It is committed, and visible, at once; the process dying right
after (the crash the window above is about) keeps it, since the operating system holds the
write. Only a power failure within the moment before the next synced commit can undo it, and
an undone mark is exactly what that window already means: the row is queued again after its
lease, and the same mail (same Message-ID) goes out a second time; no order is touched, and
nothing committed after the mark can survive without it. Everything else (claims, orders,
the inbox) keeps its synced commits.

A mail the sender cannot even try (an address it cannot parse, say) fails alone, with its
reason on its row: one bad row never stops the queue.

The stored bytes go out as they are (never parsed and serialised again), and one pass shares
one SMTP connection (pbem.mail.outbound.one_connection). They sit in a table of their own
(pbem.store.tables.OutboundBytes): claims and marks update only the small row, and the bytes
are read once, to send, and written again only to blank a secret once it is sent.
"""

from __future__ import annotations

import contextlib
import email
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Connection, Row, Update, bindparam, update
from sqlmodel import Session, col, select

from pbem.mail.outbound import Sender, SendError, one_connection, send_bytes
from pbem.mail.redact import redact
from pbem.settings.host import Host
from pbem.store import lobby, mailparts
from pbem.store.db import SessionFactory, begin_unsynced, commit_unsynced
from pbem.store.faults import describe, is_transient
from pbem.store.tables import OUTBOUND_WITHOUT_BYTES, OutboundBytes, OutboundMessage, utcnow

log = logging.getLogger(__name__)
T = TypeVar("T")
MARK_RETRIES = 6
# Mails claimed per transaction: one commit per batch instead of one per mail. A worker that
# dies holding a batch delays its unsent mails by the lease, no more.
CLAIM_BATCH = 20


@dataclass
class Delivery:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    replies: int = 0  # of those sent, answers to a mail (In-Reply-To)


@dataclass(frozen=True)
class _Claimed:
    id: int
    raw: bytes  # empty: the row has no bytes (it fails alone)
    once_sent: bytes | None = None  # the blanked copy, read with the bytes at the claim
    # That copy as it is stored (its pictures kept apart, pbem.store.mailparts): what the row
    # keeps once sent, written back as it was read.
    once_stored: bytes | None = None
    to_addr: str = ""


def as_email(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def retry_transient(op: Callable[[], T], host: Host, retries: int | None = None) -> T:
    """Run a short database step again after a transient fault (a few times, backing off)."""
    retries = host.limits.transient_retries if retries is None else retries
    for attempt in range(retries + 1):
        try:
            return op()
        except Exception as exc:
            if attempt == retries or not is_transient(exc):
                raise
            log.warning("transient database fault (%s); trying again", describe(exc))
            time.sleep(min(host.limits.transient_backoff_seconds * 2 ** attempt, 30.0))
    raise AssertionError("unreachable")


# UPDATE ... RETURNING came with SQLite 3.35 (2021); a Python built against an older system
# library (Ubuntu 20.04: 3.31) claims with an UPDATE, then a SELECT of the rows it leased.
SQLITE_RETURNING = sqlite3.sqlite_version_info >= (3, 35, 0)


def _returning(session: Session) -> bool:
    return session.get_bind().dialect.name != "sqlite" or SQLITE_RETURNING


def _claim_batch(factory: SessionFactory, now: datetime, skip: set[int], lease: timedelta,
                 size: int) -> list[_Claimed]:
    """Claim up to ``size`` due mails in one short transaction: the ids of the first due
    rows, then one UPDATE of them all that RETURNs what sending needs (SQLite 3.35+,
    PostgreSQL), one commit. (One statement with the SELECT as a subquery let PostgreSQL
    re-run it per row, its LIMIT then claiming the whole queue.)"""
    due = (col(OutboundMessage.status) == "queued", col(OutboundMessage.next_attempt_at) <= now)
    with factory() as session:
        while True:
            ids = list(session.exec(
                select(OutboundMessage.id)
                .where(*due, col(OutboundMessage.id).not_in(skip))
                .order_by(col(OutboundMessage.id))
                .limit(size)
                .with_for_update(skip_locked=True)))  # PostgreSQL: never wait on a claim
            if not ids:
                return []
            # The due test again: SQLite ignores FOR UPDATE, and a row another worker
            # claimed or sent meanwhile must match nothing.
            until = utcnow() + lease
            claim = (update(OutboundMessage).where(col(OutboundMessage.id).in_(ids), *due)
                     .values(next_attempt_at=until))
            wanted = (col(OutboundMessage.id), col(OutboundMessage.to_addr))
            if _returning(session):
                rows = session.execute(claim.returning(*wanted)).all()
            else:  # SQLite before 3.35: the UPDATE holds the write lock until the commit,
                # so the rows with our lease are the rows it claimed
                session.execute(claim)
                rows = session.execute(select(*wanted).where(
                    col(OutboundMessage.id).in_(ids),
                    col(OutboundMessage.status) == "queued",
                    col(OutboundMessage.next_attempt_at) == until)).all()
            rows = _without_never(session, rows)
            if rows:
                # Read in the claim's transaction: a fault reading them undoes the claim too
                # (a claim committed first would leave its mails leased but never sent).
                stored = _bytes_of(session, [r.id for r in rows])
                session.commit()
                claimed = (_Claimed(r.id, *stored.get(r.id, (b"", None, None)),
                                    to_addr=r.to_addr) for r in rows)
                return sorted(claimed, key=lambda c: c.id)  # RETURNING promises no order
            session.commit()  # the mails it dropped, if any
            skip.update(i for i in ids if i is not None)


NEVER_SENT = "the address answered never: no mail to it"


def _without_never(session: Session, rows: Sequence[Row[Any]]) -> list[Row[Any]]:
    """The claimed rows but those to an address that answered "never", which are kept as
    dropped (listed by ``pbem outbox``, never sent). Checked here, as they are claimed, and
    not as each mail is queued: one look per batch, and it covers mail queued before the
    answer came too."""
    refused = lobby.said_never_of(session, {r.to_addr for r in rows})
    if not refused:
        return list(rows)
    session.execute(update(OutboundMessage)
                    .where(col(OutboundMessage.id).in_([r.id for r in rows
                                                        if r.to_addr in refused]))
                    .values(status="dropped", last_error=NEVER_SENT))
    return [r for r in rows if r.to_addr not in refused]


def _bytes_of(session: Session, ids: list[int]
              ) -> dict[int, tuple[bytes, bytes | None, bytes | None]]:
    """What sending needs of the claimed mails: their bytes and blanked copies (as composed,
    and the copies as stored)."""
    rows = session.execute(select(col(OutboundBytes.id), col(OutboundBytes.raw),
                                  col(OutboundBytes.raw_once_sent))
                           .where(col(OutboundBytes.id).in_(ids))).all()
    composed = iter(mailparts.wholes(session, [b for r in rows for b in (r.raw, r.raw_once_sent)
                                               if b is not None]))
    return {r.id: (next(composed), None if r.raw_once_sent is None else next(composed),
                   r.raw_once_sent) for r in rows}


# A sent mail's mark, built once: a statement built per mail cost more than running it.
_MARK_SENT = (update(OutboundMessage)
              .where(col(OutboundMessage.id) == bindparam("mark_id"))
              .values(status="sent", sent_at=bindparam("mark_at"),
                      attempts=col(OutboundMessage.attempts) + 1))
_BLANK_SENT = (update(OutboundBytes)
               .where(col(OutboundBytes.id) == bindparam("mark_id"))
               .values(raw=bindparam("mark_raw"), raw_once_sent=None))


def _sent(claimed: _Claimed) -> list[tuple[Update, dict[str, object]]]:
    """The mark of a sent mail: the UPDATEs built from the claimed row, and their parameters.

    A secret is kept only until it is sent: the blanked copy made when it was queued, else
    (a player's own words echoed back) whatever reads as one. The mail as sent is in hand:
    a sent row is marked without reading its ~70 kB back, and its bytes are written again
    only when blanking changed them (or a blanked copy is to be dropped)."""
    kept = claimed.once_sent if claimed.once_sent is not None else redact(claimed.raw)
    mark: dict[str, object] = {"mark_id": claimed.id, "mark_at": utcnow()}
    if kept == claimed.raw and claimed.once_sent is None:
        return [(_MARK_SENT, mark)]
    if claimed.once_sent is not None and claimed.once_stored is not None:
        kept = claimed.once_stored  # the copy as stored: its pictures stay where they are
    return [(_MARK_SENT, mark), (_BLANK_SENT, {"mark_id": claimed.id, "mark_raw": kept})]


class _Marks:
    """Marks one pass's sent mails, each the moment it is sent, none waiting for the disk.

    Most marks are one UPDATE of the mail's row. Those run on one connection held for the
    pass, in autocommit: the statement is its own transaction, one round trip where BEGIN,
    UPDATE and COMMIT took three, and still never batched (see the module's docstring). A
    mark that blanks a secret in the stored bytes too writes both in one transaction of its
    own, so the mail is never marked sent with its secret kept, nor blanked and unmarked (and
    then sent again without it). A fault drops the held connection; the next try opens
    another."""

    def __init__(self, factory: SessionFactory) -> None:
        self.factory = factory
        self.conn: Connection | None = None

    def sent(self, claimed: _Claimed) -> str:
        statements = _sent(claimed)
        if len(statements) > 1:
            with self.factory() as session:
                commit_unsynced(session)
                for statement, params in statements:
                    session.execute(statement, params)
                session.commit()
            return "sent"
        if self.conn is None:
            with self.factory() as session:
                conn = session.get_bind().connect()  # type: ignore[union-attr]
            self.conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        try:
            begin_unsynced(self.conn)
            [(statement, params)] = statements
            self.conn.execute(statement, params)
            self.conn.commit()  # the statement committed itself: this only ends SQLAlchemy's
        except BaseException:
            self.close()
            raise
        return "sent"

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # broken already: the pool discards it
                conn.close()


def _mark_failure(factory: SessionFactory, host: Host, claimed: _Claimed,
                  error: SendError) -> str:
    """Record a failed send in its own transaction, committed without waiting for the disk
    (see the module's docstring); returns retrying | failed."""
    with factory() as session:
        commit_unsynced(session)
        outcome = _failed(session, host, claimed, error)
        session.commit()
        return outcome


def _failed(session: Session, host: Host, claimed: _Claimed, error: SendError) -> str:
    """The row itself decides (its attempts so far, when to try again)."""
    row = session.get(OutboundMessage, claimed.id, options=[OUTBOUND_WITHOUT_BYTES])
    assert row is not None
    row.attempts += 1
    row.last_error = error.args[0] if error.args else type(error).__name__
    if error.transient and row.attempts < host.limits.send_attempts:
        delay = host.limits.retry_base_seconds * 2 ** (row.attempts - 1)
        row.next_attempt_at = utcnow() + timedelta(seconds=delay)
        outcome = "retrying"
    else:
        row.status, outcome = "failed", "failed"
    session.add(row)
    return outcome


def _send(sender: Sender, claimed: _Claimed) -> SendError | None:
    if not claimed.raw:
        return SendError("the mail's bytes are missing from the database", transient=False)
    try:
        send_bytes(sender, claimed.raw)
    except SendError as exc:
        return exc
    except Exception as exc:  # the sender could not even try: this mail fails, the queue goes on
        log.exception("mail %s to %s cannot be sent", claimed.id, claimed.to_addr)
        return SendError(f"cannot be sent: {type(exc).__name__}: {exc}", transient=False)
    return None


# The clock a batch's lease is timed by (tests replace it).
_clock = time.monotonic


def deliver_outbox(factory: SessionFactory, sender: Sender, host: Host | None = None,
                   now: datetime | None = None, limit: int | None = None) -> Delivery:
    """Send every due queued mail; transient failures back off, permanent ones are marked."""
    host = host or Host()
    done = Delivery()
    skipped: set[int] = set()
    lease = timedelta(seconds=host.limits.send_lease_seconds)
    marks = _Marks(factory)
    try:
        with one_connection(sender):
            return _deliver(factory, sender, host, now, limit, done, skipped, lease, marks)
    finally:
        marks.close()


def _deliver(factory: SessionFactory, sender: Sender, host: Host, now: datetime | None,
             limit: int | None, done: Delivery, skipped: set[int],
             lease: timedelta, marks: _Marks) -> Delivery:
    while limit is None or done.sent + done.retrying + done.failed < limit:
        size = CLAIM_BATCH if limit is None else min(CLAIM_BATCH, limit - (
            done.sent + done.retrying + done.failed))
        claimed_at = _clock()
        batch = retry_transient(
            partial(_claim_batch, factory, now or utcnow(), skipped, lease, size), host)
        if not batch:
            return done
        for position, claimed in enumerate(batch):
            # (Never before the batch's first mail: every claim sends at least one.)
            if position and _clock() - claimed_at > lease.total_seconds() / 2:
                # Slow sends (a server timing out) ate half the lease: the rest of the batch
                # stays leased and is claimed again when the lease ends, maybe by another
                # worker, which must not find us still sending it then.
                log.warning("sending is slow: %d claimed mails wait for their lease to end",
                            len(batch) - position)
                break
            skipped.add(claimed.id)
            error = _send(sender, claimed)
            if error is not None:
                log.warning("sending mail %s to %s failed: %s", claimed.id, claimed.to_addr,
                            error)
            # Marked at once, not with the batch: a crash then resends at most the one mail
            # in flight. Recording it is worth more tries than anything else, since giving up
            # means sending it again after the lease.
            mark = (partial(marks.sent, claimed) if error is None else
                    partial(_mark_failure, factory, host, claimed, error))
            outcome = retry_transient(mark, host,
                                      retries=max(host.limits.transient_retries, MARK_RETRIES))
            setattr(done, outcome, getattr(done, outcome) + 1)
            if outcome == "sent" and _REPLY.search(claimed.raw.split(b"\n\n", 1)[0]):
                done.replies += 1
    return done


_REPLY = re.compile(rb"^In-Reply-To:", re.IGNORECASE | re.MULTILINE)
