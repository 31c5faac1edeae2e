"""Delivering the outbound queue: each mail is marked sent in its own transaction right after
its send succeeds, so a crash can at worst resend the one mail in flight.

The stored bytes go out as they are (never parsed and serialised again), and one pass shares
one SMTP connection."""

from __future__ import annotations

import email
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage

from sqlalchemy import update
from sqlmodel import Session, col, select

from pbem.mail.outbound import Sender, SendError, one_connection, send_bytes
from pbem.mail.redact import redact
from pbem.processor.host import Host
from pbem.store.db import SessionFactory
from pbem.store.tables import OutboundMessage, utcnow

log = logging.getLogger(__name__)


@dataclass
class Delivery:
    sent: int = 0
    retrying: int = 0
    failed: int = 0


def _next_due(session: Session, now: datetime, skip: set[int]) -> OutboundMessage | None:
    while True:
        q = (select(OutboundMessage)
             .where(OutboundMessage.status == "queued",
                    col(OutboundMessage.next_attempt_at) <= now,
                    col(OutboundMessage.id).not_in(skip))
             .order_by(col(OutboundMessage.id))
             .limit(1)
             .with_for_update(skip_locked=True))  # PostgreSQL: workers never send one row
        row = session.exec(q).first()
        if row is None or _claim(session, row, now):
            return row
        skip.add(row.id or 0)  # sent by another worker meanwhile


def _claim(session: Session, row: OutboundMessage, now: datetime) -> bool:
    """Take the row's write lock and check it is still due.

    SQLite ignores FOR UPDATE, so two workers may both select one row; this no-op UPDATE
    waits for the other's transaction (which holds its lock across the send) and then
    matches nothing if the mail went out meanwhile. On PostgreSQL SKIP LOCKED already
    excluded such rows and this is a cheap re-check.
    """
    claimed = session.exec(
        update(OutboundMessage)
        .where(col(OutboundMessage.id) == row.id, col(OutboundMessage.status) == "queued",
               col(OutboundMessage.next_attempt_at) <= now)
        .values(status="queued"))
    if claimed.rowcount != 1:
        return False
    session.refresh(row)
    return True


def as_email(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=policy.default)


def deliver_outbox(factory: SessionFactory, sender: Sender, host: Host | None = None,
                   now: datetime | None = None, limit: int | None = None) -> Delivery:
    """Send every due queued mail; transient failures back off, permanent ones are marked."""
    host = host or Host()
    done = Delivery()
    skipped: set[int] = set()
    with one_connection(sender):
        return _deliver(factory, sender, host, now, limit, done, skipped)


def _deliver(factory: SessionFactory, sender: Sender, host: Host, now: datetime | None,
             limit: int | None, done: Delivery, skipped: set[int]) -> Delivery:
    while limit is None or done.sent + done.retrying + done.failed < limit:
        with factory() as session:
            row = _next_due(session, now or utcnow(), skipped)
            if row is None:
                return done
            try:
                send_bytes(sender, row.raw)
            except SendError as exc:
                row.attempts += 1
                row.last_error = str(exc)
                if getattr(exc, "transient", False) and row.attempts < host.send_attempts:
                    delay = host.retry_base_seconds * 2 ** (row.attempts - 1)
                    row.next_attempt_at = utcnow() + timedelta(seconds=delay)
                    done.retrying += 1
                    skipped.add(row.id or 0)
                else:
                    row.status = "failed"
                    done.failed += 1
                log.warning("sending mail %s to %s failed: %s", row.id, row.to_addr, exc)
            else:
                row.status = "sent"
                row.sent_at = utcnow()
                # A secret is kept only until it is sent: the blanked copy made when it was
                # queued, else (a player's own words echoed back) whatever reads as one.
                row.raw = row.raw_once_sent if row.raw_once_sent is not None else redact(row.raw)
                row.raw_once_sent = None
                row.attempts += 1
                done.sent += 1
            session.add(row)
            session.commit()
    return done
