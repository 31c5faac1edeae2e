"""How long stored mail keeps its bytes (the config's ``[retention]``), and the prune that
applies it: ``pbem prune`` now, ``pbem serve`` once a day.

A sent mail keeps its bytes ``sent_mail_days`` after it went out (a dropped one after it was
queued), then only its headers, with the size and SHA-256 of what it was. A received mail
keeps its bytes while its game runs and ``received_mail_days`` after the game ends (mail of
no game: after it was handled), then only its headers and the digest it was received with
(the log holds every order and draw). A picture sent mails share is kept once
(pbem.store.mailparts) and goes when no mail kept whole shows it. Quarantined mail, mail
still to process, and sent mail that failed or is held wait for the operator: never pruned.
The snapshots between a game's setup and its latest state go at the received-mail horizon
(nothing reads them: processing starts from the latest, replay from the log). Nothing a
game needs to replay, verify, export or import is touched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.sql import ColumnElement
from sqlmodel import Session, col

from pbem.pipeline.deadlines import aware
from pbem.store import mailparts, space
from pbem.store.db import SessionFactory
from pbem.store.tables import (
    Game,
    InboundBytes,
    InboundMessage,
    LogEntry,
    MailPart,
    MailPartUse,
    OutboundBytes,
    OutboundMessage,
    Snapshot,
    utcnow,
)

ENDED = ("finished", "archived")
SENT_PRUNED = ("sent", "dropped")  # failed and held mail wait for the operator
RECEIVED_KEPT = ("received", "quarantined")  # still to process, or the operator's
BATCH = 200  # mails cut per transaction: a pass waits for one batch at most
HEADERS_MAX = 64 * 1024  # a "header" without its blank line is cut here
DAY = timedelta(days=1)
# The tables a prune rewrites, for the space to come back (pbem.store.space).
TABLES = ("inboundbytes", "outboundbytes", "mailpart", "mailpartuse", "snapshot")


@dataclass
class Swept:
    """One kind of thing pruned: how many, and the bytes they held before."""

    count: int = 0
    bytes: int = 0


@dataclass
class Pruned:
    sent: Swept = field(default_factory=Swept)
    received: Swept = field(default_factory=Swept)
    snapshots: Swept = field(default_factory=Swept)
    parts: Swept = field(default_factory=Swept)
    space: space.Reclaimed | None = None
    dry_run: bool = False

    def lines(self) -> list[str]:
        verb = "would go" if self.dry_run else "gone"
        out = [f"sent mails cut to their headers: {self.sent.count} "
               f"({size(self.sent.bytes)} {verb})",
               f"received mails cut to their headers: {self.received.count} "
               f"({size(self.received.bytes)} {verb})",
               f"pictures no kept mail shows: {self.parts.count} "
               f"({size(self.parts.bytes)} {verb})",
               f"snapshots between setup and latest state: {self.snapshots.count} "
               f"({size(self.snapshots.bytes)} {verb})"]
        if self.space is not None:
            out.append(f"database: {size(self.space.before)} -> {size(self.space.after)} "
                       f"({self.space.how})")
        return out


def size(count: int) -> str:
    """Bytes as an operator reads them: 812 kB, 3.4 MB."""
    return f"{count / (1 << 20):.1f} MB" if count >= 1 << 20 else f"{count / 1024:.0f} kB"


def headers_of(raw: bytes) -> bytes:
    """A mail's header block with the blank line that ends it: what a pruned mail keeps."""
    for end in (b"\r\n\r\n", b"\n\n"):
        cut = raw.find(end)
        if cut >= 0:
            return raw[:min(cut + len(end), HEADERS_MAX)]
    return raw[:HEADERS_MAX]


def _ended_before(cutoff: datetime) -> Any:
    """The ids of the games that ended before ``cutoff`` (dated by their last entry)."""
    return (select(col(LogEntry.game_id)).join(Game, col(Game.id) == col(LogEntry.game_id))
            .where(col(Game.status).in_(ENDED)).group_by(col(LogEntry.game_id))
            .having(func.max(LogEntry.created) < cutoff))


def _sent_due(cutoff: datetime) -> ColumnElement[bool]:
    return (col(OutboundMessage.pruned_at).is_(None)
            & col(OutboundMessage.status).in_(SENT_PRUNED)
            & (func.coalesce(OutboundMessage.sent_at, OutboundMessage.created) < cutoff))


def _received_due(cutoff: datetime) -> ColumnElement[bool]:
    no_game = (col(InboundMessage.game_id).is_(None)
               & (func.coalesce(InboundMessage.processed_at, InboundMessage.received_at)
                  < cutoff))
    return (col(InboundMessage.pruned_at).is_(None)
            & col(InboundMessage.status).not_in(RECEIVED_KEPT)
            & (no_game | col(InboundMessage.game_id).in_(_ended_before(cutoff))))


def _snapshots_due(cutoff: datetime) -> Any:
    latest = (select(col(Snapshot.game_id), func.max(Snapshot.log_index).label("top"))
              .group_by(col(Snapshot.game_id)).subquery())
    return (select(col(Snapshot.id))
            .join(latest, latest.c.game_id == col(Snapshot.game_id))
            .join(LogEntry, (col(LogEntry.game_id) == col(Snapshot.game_id))
                  & (col(LogEntry.index) == col(Snapshot.log_index)))
            .where(col(Snapshot.log_index) > 0, col(Snapshot.log_index) < latest.c.top,
                   col(LogEntry.created) < cutoff))


def _measure(session: Session, ids: Any, length: Any, key: Any) -> Swept:
    count, total = session.execute(select(func.count(), func.coalesce(func.sum(length), 0))
                                   .where(key.in_(ids))).one()
    return Swept(int(count), int(total))


def _cut(factory: SessionFactory, due: ColumnElement[bool], row: Any, stored: Any,
         stamp: Callable[[bytes], dict[str, Any]], now: datetime) -> Swept:
    """Cut every mail ``due`` selects to its headers, a batch per transaction. ``bytes``
    counts what the database held of them (pictures apart: see ``_sweep``)."""
    swept = Swept()
    while True:
        with factory() as session:
            ids = list(session.execute(select(row.id).where(due).order_by(row.id)
                                       .limit(BATCH)).scalars())
            if not ids:
                return swept
            rows = session.execute(select(stored.id, stored.raw, func.length(stored.raw))
                                   .where(col(stored.id).in_(ids))).all()
            composed = mailparts.wholes(session, [kept for _, kept, _ in rows])
            for (mail_id, _, held), raw in zip(rows, composed, strict=True):
                session.execute(update(stored).where(stored.id == mail_id)
                                .values(raw=headers_of(raw)))
                session.execute(update(row).where(row.id == mail_id)
                                .values(pruned_at=now, **stamp(raw)))
                swept.count += 1
                swept.bytes += int(held)
            if stored is OutboundBytes:
                mailparts.release(session, ids)
            # A mail whose bytes row is missing is marked all the same: nothing to cut.
            missing = set(ids) - set(session.execute(select(stored.id).where(
                col(stored.id).in_(ids))).scalars())
            if missing:
                session.execute(update(row).where(row.id.in_(missing)).values(pruned_at=now))
            session.commit()


def _parts_freed(session: Session, leaving: Any) -> Swept:
    """The pictures that only the mails ``leaving`` use: what a sweep after them frees."""
    staying = select(col(MailPartUse.digest)).where(col(MailPartUse.outbound_id).not_in(leaving))
    going = select(col(MailPartUse.digest)).where(col(MailPartUse.outbound_id).in_(leaving))
    return _measure(session, select(col(MailPart.digest)).where(
        col(MailPart.digest).in_(going), col(MailPart.digest).not_in(staying)),
        func.length(MailPart.body), col(MailPart.digest))


def _sweep(factory: SessionFactory, now: datetime) -> Swept:
    """Drop the pictures no stored mail uses any more (and none took within a day)."""
    with factory() as session:
        idle = select(col(MailPart.digest)).where(mailparts.idle(now - DAY))
        swept = _measure(session, idle, func.length(MailPart.body), col(MailPart.digest))
        if swept.count:
            mailparts.sweep(session, now - DAY)
            session.commit()
        return swept


def prune(factory: SessionFactory, *, sent_days: int, received_days: int,
          now: datetime | None = None, dry_run: bool = False, reclaim: bool = True) -> Pruned:
    """Apply the retention at ``now``: cut what is due, then give the space back (unless
    ``dry_run``: then only measure what would go)."""
    now = aware(now or utcnow())
    sent_cutoff, received_cutoff = now - sent_days * DAY, now - received_days * DAY
    done = Pruned(dry_run=dry_run)
    sent_ids = select(col(OutboundMessage.id)).where(_sent_due(sent_cutoff))
    received_ids = select(col(InboundMessage.id)).where(_received_due(received_cutoff))
    snapshot_ids = _snapshots_due(received_cutoff)
    if dry_run:
        with factory() as session:
            done.sent = _measure(session, sent_ids, func.length(OutboundBytes.raw),
                                 col(OutboundBytes.id))
            done.parts = _parts_freed(session, sent_ids)
            done.received = _measure(session, received_ids, func.length(InboundBytes.raw),
                                     col(InboundBytes.id))
            done.snapshots = _measure(session, snapshot_ids, func.length(Snapshot.state_json),
                                      col(Snapshot.id))
        return done
    done.sent = _cut(factory, _sent_due(sent_cutoff), OutboundMessage, OutboundBytes,
                     lambda raw: {"raw_size": len(raw),
                                  "raw_sha256": hashlib.sha256(raw).hexdigest()}, now)
    done.received = _cut(factory, _received_due(received_cutoff), InboundMessage,
                         InboundBytes, lambda raw: {"raw_size": len(raw)}, now)
    done.parts = _sweep(factory, now)
    with factory() as session:
        done.snapshots = _measure(session, snapshot_ids, func.length(Snapshot.state_json),
                                  col(Snapshot.id))
        ids = list(session.execute(snapshot_ids).scalars())
        for start in range(0, len(ids), 500):
            session.execute(delete(Snapshot).where(col(Snapshot.id).in_(ids[start:start + 500])))
        session.commit()
        engine = session.get_bind()
    if reclaim and isinstance(engine, Engine) and (
            done.sent.count or done.received.count or done.parts.count
            or done.snapshots.count):
        done.space = space.reclaim(engine, TABLES)
    return done


class Daily:
    """When ``pbem serve`` last pruned, in a small file of the data folder: a day later it
    prunes again, across restarts and for every worker sharing the folder."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def due(self, now: datetime) -> bool:
        try:
            last = datetime.fromisoformat(json.loads(self.path.read_text("utf-8"))["last"])
        except (OSError, ValueError, KeyError, TypeError):
            return True
        return aware(now) - aware(last) >= DAY

    def done(self, now: datetime) -> None:
        self.path.write_text(json.dumps({"last": aware(now).isoformat()}), "utf-8")

