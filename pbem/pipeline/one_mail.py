"""One inbound email, start to finish, in ONE database transaction.

Intake: the mail is read once (every step, the failure path's too, takes it as read:
``pbem.pipeline.stored.Arrived``), recorded under its Message-ID (a mail delivered twice is
handled once), and sent down the chain of handlers (``pbem.pipeline.chain``: identify the
game, authenticate the seat, talk, a command or the orders, the replies and notices). Then it
is stored with its secret blanked, in the same transaction. Whatever cannot be handled is
quarantined with its reason (``pbem.pipeline.quarantine``) and can be reprocessed; nothing is
ever dropped.
"""

from __future__ import annotations

import logging

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from pbem.mail.reading import read_message
from pbem.mail.redact import blank
from pbem.pipeline import chain
from pbem.pipeline.context import MailContext, Result, finish
from pbem.pipeline.quarantine import (
    answer_fault,
    fault_reason,
    log_fault,
    quarantine,
    recorded,
    unrecorded,
)
from pbem.pipeline.reply_tokens import found_in
from pbem.pipeline.stored import Arrived, conflict_key, same_mail, seal
from pbem.settings.host import Host
from pbem.store.db import SessionFactory
from pbem.store.faults import TransientFault, describe, is_transient
from pbem.store.tables import INBOUND_WITHOUT_BYTES, InboundMessage, LogEntry, utcnow

__all__ = ["Result", "handle", "process_raw", "reprocess"]

log = logging.getLogger(__name__)


def process_raw(factory: SessionFactory, raw: bytes, host: Host) -> Result:
    """Handle one raw email; never raises for a bad message (it is quarantined instead).

    Raises :class:`TransientFault` when the database or disk failed for a reason that is not
    the message's (locked, full, disconnected): nothing was recorded, and the mail must stay
    in the inbox to be tried again.
    """
    mail = None
    try:
        mail = read_message(raw, max_bytes=host.limits.max_message_bytes)
        with factory() as session:
            result = handle(session, Arrived(raw, mail), host, existing=None)
            session.commit()
            return result
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        failure = exc
    arrived = Arrived(raw, mail)  # mail None: reading it was what failed
    try:
        if isinstance(failure, IntegrityError) and recorded(factory, arrived):
            # Usually another worker recorded the same Message-ID first. Any other
            # constraint (say two log entries with one index) must not pass for a duplicate:
            # the mail would leave the inbox unapplied. It is quarantined instead.
            log.info("message recorded concurrently; treated as duplicate")
            return Result("duplicate", "recorded by another worker")
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        log_fault("duplicate check failed", exc)
    fresh = unrecorded(factory, arrived)
    log_fault("a mail could not be handled; kept for the operator", failure)
    result = quarantine(factory, arrived, fault_reason(failure), inbound_id=None, host=host)
    if fresh and result.status == "quarantined":  # the sender is told once, not per delivery
        answer_fault(factory, arrived, host)
    return result



def reprocess(factory: SessionFactory, inbound_id: int, host: Host) -> Result:
    """Run a quarantined message through the pipeline again, once: a mail whose Message-ID
    was applied meanwhile (or whose own row fed the log) is a duplicate, as on first arrival."""
    with factory() as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            raise LookupError(f"no inbound message {inbound_id}")
        if row.status != "quarantined":
            raise ValueError(f"message {inbound_id} is {row.status}, not quarantined")
        raw = row.raw
    mail = None
    try:
        mail = read_message(raw, max_bytes=host.limits.max_message_bytes)
        with factory() as session:
            # SKIP LOCKED (PostgreSQL): two operators reprocessing at once handle it once.
            row = session.exec(select(InboundMessage)
                               .where(InboundMessage.id == inbound_id,
                                      InboundMessage.status == "quarantined")
                               .with_for_update(skip_locked=True)).first()
            if row is None:
                return Result("duplicate", "being reprocessed elsewhere", inbound_id)
            done = _already_handled(session, row, Arrived(raw, mail))
            if done is not None:
                row.status, row.reason = "ignored", f"duplicate: {done}"
                row.processed_at = utcnow()
                session.add(row)
                session.commit()
                return Result("duplicate", done, inbound_id)
            result = handle(session, Arrived(raw, mail), host, existing=row)
            session.commit()
            return result
    except Exception as exc:
        if is_transient(exc):
            raise TransientFault(describe(exc)) from exc
        log_fault(f"message {inbound_id} quarantined again", exc)
        return quarantine(factory, Arrived(raw, mail), fault_reason(exc), inbound_id=inbound_id,
                          host=host)


def _already_handled(session: Session, row: InboundMessage, arrived: Arrived) -> str | None:
    """Why reprocessing ``row`` would handle its mail twice, or None: its own row fed the log,
    or (for a conflicting duplicate) the first mail of its Message-ID was applied."""
    entry = session.exec(select(LogEntry.index).where(
        LogEntry.source_message_id == row.id)).first()
    if entry is not None:
        return f"it is already log entry {entry}"
    key = arrived.key
    first = None if key == row.message_id else session.exec(
        select(InboundMessage).where(InboundMessage.message_id == key)
        .options(INBOUND_WITHOUT_BYTES)).first()
    if first is not None:
        fed = session.exec(select(LogEntry.index).where(
            LogEntry.source_message_id == first.id)).first()
        if first.status == "applied" or fed is not None:
            return f"message {first.id} with the same Message-ID was applied"
    return None



def handle(session: Session, arrived: Arrived, host: Host,
           existing: InboundMessage | None) -> Result:
    """The pipeline proper, inside the caller's transaction, on a mail read (``arrived.mail``
    is not None)."""
    raw, mail = arrived.raw, arrived.mail
    assert mail is not None
    mid = arrived.message_id
    # The reply address it was sent to: whatever becomes of it, its token is not kept.
    found = found_in(host, raw, mail.parsed)
    if existing is None:
        key = arrived.key
        # (Its bytes only if the digest cannot tell: see same_mail.)
        seen = session.exec(select(InboundMessage).where(InboundMessage.message_id == key)
                            .options(INBOUND_WITHOUT_BYTES)).first()
        if seen is not None and same_mail(seen, raw):
            return Result("duplicate", f"already {seen.status}", seen.id)
        conflict = seen is not None
        if conflict:  # the same Message-ID, another body: kept apart, for the operator
            key = conflict_key(raw)
            again = session.exec(select(InboundMessage).where(
                InboundMessage.message_id == key).options(INBOUND_WITHOUT_BYTES)).first()
            if again is not None:
                return Result("duplicate", f"already {again.status}", again.id)
        # Its bytes are written once, blanked, by seal (in this transaction).
        row = InboundMessage(message_id=key, from_addr=mail.from_addr[:320],
                             subject=blank(mail.subject)[:500])
        session.add(row)
        session.flush()
        if conflict:
            assert seen is not None
            seal(row, raw, None, None, limit=host.limits.max_message_bytes, also=found.tokens,
                 parsed=mail.parsed)
            return finish(row, "quarantined", f"conflicting duplicate: message {seen.id} "
                           "has this Message-ID with a different body", [])
    else:
        row = existing
        row.from_addr = mail.from_addr[:320]
        row.subject = blank(mail.subject)[:500]
    ctx = MailContext(session, host, mail, row, mid, raw=raw, stored=existing is not None,
                      tokens=found.tokens, token_blanked=found.blanked)
    result = chain.run(ctx)
    # In this same transaction: the secret as written is never committed. The mail as
    # parsed above is blanked, not parsed again.
    seal(row, raw, ctx.verified, ctx.secret, limit=host.limits.max_message_bytes,
         also=[*ctx.said.secrets, *ctx.tokens], parsed=mail.parsed)
    # The mail's outcome and the mail it queued go in one flush.
    session.flush()
    result.queued = [q.id for q in result.rows if q.id is not None]
    result.rows = []  # a pass keeps its results: not the ~70 kB of each mail
    return result

