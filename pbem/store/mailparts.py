"""Sent mails' pictures kept once (pbem.store.packing cuts them out of the mail).

The flush that stores an outgoing mail stores its parts and which parts it uses; a mail read
through the ORM comes back whole; what reads the bytes column itself puts it together with
``whole``. A mail cut to its headers or blanked lets its parts go (``release``); a part no
mail uses goes at the next ``sweep``, unless a mail took it lately: a worker storing a mail
beside the sweep marks its parts used first, so a sweep never takes a part being stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, event, exists, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import col

from pbem.store.packing import join, marks, pack_run, split, unpack_run
from pbem.store.tables import MailPart, MailPartUse, OutboundBytes, utcnow

_PENDING = "pbem_mail_parts"  # session.info: the mails of this flush, with their whole bytes
_COLUMNS = ("raw", "raw_once_sent")


def whole(session: Session, stored: bytes) -> bytes:
    """A stored mail's bytes as composed (its parts put back)."""
    return join(stored, _bodies(session, marks(stored)))


def wholes(session: Session, stored: Iterable[bytes]) -> list[bytes]:
    """:func:`whole` of many mails, their parts read in one query."""
    kept = list(stored)
    bodies = _bodies(session, set().union(*(marks(s) for s in kept)))
    return [join(s, bodies) for s in kept]


def _bodies(session: Session, digests: set[str]) -> dict[str, bytes]:
    if not digests:
        return {}
    rows = session.connection().execute(
        select(col(MailPart.digest), col(MailPart.body))
        .where(col(MailPart.digest).in_(sorted(digests))))
    return {digest: unpack_run(bytes(body)) for digest, body in rows}


def release(session: Session, outbound_ids: Iterable[int]) -> None:
    """The mails ``outbound_ids`` need none of their parts any more."""
    ids = sorted(outbound_ids)
    for start in range(0, len(ids), 500):
        session.execute(delete(MailPartUse)
                        .where(col(MailPartUse.outbound_id).in_(ids[start:start + 500])))


def idle(used_before: datetime) -> ColumnElement[bool]:
    """The parts no mail uses and none took since ``used_before``: what :func:`sweep` drops."""
    unused = ~exists().where(col(MailPartUse.digest) == col(MailPart.digest))
    return and_(col(MailPart.last_used) < used_before, unused)


def sweep(session: Session, used_before: datetime) -> int:
    """Drop the :func:`idle` parts; how many went."""
    done = session.execute(delete(MailPart).where(idle(used_before)))
    return int(getattr(done, "rowcount", 0) or 0)


def _mark_used(session: Session, runs: dict[str, bytes], now: datetime) -> None:
    """Store the parts ``runs`` not yet stored; mark the others used ``now``."""
    digests = sorted(runs)
    conn = session.connection()
    have = set(conn.execute(select(col(MailPart.digest))
                            .where(col(MailPart.digest).in_(digests))).scalars())
    if have:
        touched = conn.execute(update(MailPart).where(col(MailPart.digest).in_(sorted(have)))
                               .values(last_used=now))
        if getattr(touched, "rowcount", len(have)) != len(have):
            have = set()  # a sweep took one meanwhile: store them all again
    missing = [d for d in digests if d not in have]
    if not missing:
        return
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    insert = dialect.insert(MailPart).values(
        [{"digest": d, "body": pack_run(runs[d]), "last_used": now} for d in missing])
    conn.execute(insert.on_conflict_do_update(index_elements=["digest"],
                                              set_={"last_used": insert.excluded.last_used}))


@event.listens_for(Session, "before_flush")
def _cut_parts(session: Session, _context: Any, _instances: Any) -> None:
    pending: list[tuple[OutboundBytes, dict[str, bytes | None], set[str]]] = []
    runs: dict[str, bytes] = {}
    for obj in session.new:
        if not isinstance(obj, OutboundBytes):
            continue
        kept: dict[str, bytes | None] = {}
        used: set[str] = set()
        for name in _COLUMNS:
            value = getattr(obj, name)
            if not value:
                continue
            skeleton, found = split(value)
            if found:
                kept[name] = value
                setattr(obj, name, skeleton)
                runs.update(found)
                used |= found.keys()
        if used:
            pending.append((obj, kept, used))
    if pending:
        _mark_used(session, runs, utcnow())
        session.info[_PENDING] = pending


@event.listens_for(Session, "after_flush")
def _record_uses(session: Session, _context: Any) -> None:
    pending = session.info.pop(_PENDING, None)
    if not pending:
        return
    rows = [{"outbound_id": obj.id, "digest": d} for obj, _kept, used in pending
            for d in sorted(used)]
    session.connection().execute(MailPartUse.__table__.insert(), rows)  # type: ignore[attr-defined]
    for obj, kept, _used in pending:
        for name, value in kept.items():
            set_committed_value(obj, name, value)  # in memory, the mail as composed


@event.listens_for(Session, "after_soft_rollback")
def _restore(session: Session, _previous: Any) -> None:
    # A failed flush leaves its mails to be flushed again: whole, to be cut again.
    for obj, kept, _used in session.info.pop(_PENDING, None) or []:
        for name, value in kept.items():
            setattr(obj, name, value)


@event.listens_for(OutboundBytes, "load")
def _joined(target: OutboundBytes, context: Any) -> None:
    for name in _COLUMNS:
        value = target.__dict__.get(name)
        if value and b"\x00" in value:
            set_committed_value(target, name, whole(context.session, value))


@event.listens_for(OutboundBytes, "refresh")
def _refreshed(target: OutboundBytes, context: Any, _attrs: Any) -> None:
    _joined(target, context)
