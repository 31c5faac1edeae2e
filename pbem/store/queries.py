"""The queries the pipeline and the API need, in one place."""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import BindParameter, bindparam
from sqlmodel import Session, col, func, select

from pbem.engine.contract import Event
from pbem.engine.replay import OrderRecord, SetupRecord, draws_from_json
from pbem.store.tables import Game, LogEntry, OutboundMessage, Seat, Snapshot, utcnow

# The statements an order runs, built once with their values bound per call: building a
# select and working out its cache key each time cost as much as SQLite took to run it
# (some 50 µs, about ten times an order).
# populate_existing: the row may already sit in the session, read before the lock was
# taken; after waiting for another worker its status must be the committed one.
_LOCK_GAME = (select(Game).where(Game.id == bindparam("game_id"))
              .with_for_update(key_share=True).execution_options(populate_existing=True))
_GAME_BY_TAG = select(Game).where(func.lower(Game.tag) == bindparam("tag"))
_LOCK_GAME_BY_TAG = (_GAME_BY_TAG.with_for_update(key_share=True)
                     .execution_options(populate_existing=True))
_SEATS = select(Seat).where(Seat.game_id == bindparam("game_id")).order_by(col(Seat.index))


def lock_game(session: Session, game_id: int) -> Game | None:
    """The game row, locked on PostgreSQL so two workers never both move it.

    FOR NO KEY UPDATE, not FOR UPDATE: rows that reference the game (the inbound message,
    queued mail) take KEY SHARE locks on it when written, and FOR UPDATE waits on those, so
    two workers each holding one deadlock. NO KEY UPDATE still excludes the other worker.
    """
    return session.exec(_LOCK_GAME, params={"game_id": game_id}).first()


def game_by_tag(session: Session, tag: str, *, lock: bool = False) -> Game | None:
    """Tags match case-blind; lower(tag) has its own index (migration 0007). ``lock``: the
    row is locked as by :func:`lock_game`, found and locked in one statement."""
    return session.exec(_LOCK_GAME_BY_TAG if lock else _GAME_BY_TAG,
                        params={"tag": tag.lower()}).first()


def seats(session: Session, game_id: int) -> list[Seat]:
    return list(session.exec(_SEATS, params={"game_id": game_id}))


def seat_by_address(session: Session, game_id: int, address: str) -> list[Seat]:
    return at_address(seats(session, game_id), address)


def at_address(seats: list[Seat], address: str) -> list[Seat]:
    """Those of a game's ``seats`` that ``address`` holds (one address may hold several)."""
    if not address.strip():  # bot seats have no address: no mail speaks for them
        return []
    return [s for s in seats if s.address == address.lower()]


def games_of_address(session: Session, address: str) -> list[Game]:
    if not address.strip():
        return []
    q = select(Game).join(Seat, col(Seat.game_id) == col(Game.id)).where(
        Seat.address == address.lower(), col(Game.status).in_(["active", "paused"]))
    return list(session.exec(q.distinct()))


def log(session: Session, game_id: int) -> list[LogEntry]:
    q = select(LogEntry).where(LogEntry.game_id == game_id).order_by(col(LogEntry.index))
    return list(session.exec(q))


def log_since_last_order(session: Session, game_id: int, seat: int,
                         kinds: Collection[str] = ("order",)) -> list[LogEntry]:
    """The log from ``seat``'s last entry of one of ``kinds`` on (the whole log if none).

    What a status mail needs; reading only this keeps each order's cost independent of the
    game's history, as long as ``kinds`` holds every kind of move a seat makes (a seat that
    only ever times out must not read the whole log). ORDER BY ... LIMIT 1 walks the
    (game_id, index) index backwards.
    """
    last = session.exec(
        select(LogEntry.index).where(LogEntry.game_id == game_id, LogEntry.seat == seat,
                                     col(LogEntry.kind).in_(list(kinds)))
        .order_by(col(LogEntry.index).desc()).limit(1)).first()
    q = select(LogEntry).where(LogEntry.game_id == game_id,
                               col(LogEntry.index) >= (last or 0))
    return list(session.exec(q.order_by(col(LogEntry.index))))


def moves_and_log_since(session: Session, game_id: int, seats: Collection[int],
                        kinds: Collection[str]) -> tuple[int, list[LogEntry]]:
    """:func:`moves_made`, and the log from the earliest of ``seats``' last entries of
    ``kinds`` on: what every seat's :func:`log_since_last_order` holds. Read once for a
    move's mails, in two statements, not two per seat: the count and each seat's last move
    (an indexed ORDER BY ... LIMIT 1, as there) are scalar subqueries of one SELECT."""
    wanted = sorted(set(seats))
    params: dict[str, Any] = {"game_id": game_id, "kinds": sorted(kinds)}
    params.update((f"seat{n}", seat) for n, seat in enumerate(wanted))
    moves, *found = session.exec(_last_moves(len(wanted)), params=params).one()
    if not wanted:
        return int(moves), []
    first = min((i or 0 for i in found), default=0)
    return int(moves), list(session.exec(_LOG_FROM, params={"game_id": game_id,
                                                            "first": first}))


@lru_cache(maxsize=16)
def _last_moves(count: int) -> Any:
    """How many entries of some kinds the game has, then ``count`` seats' last entries of
    them, as the scalar subqueries of one SELECT (seats bound as seat0, seat1...; the kinds
    as kinds)."""
    kinds: BindParameter[list[str]] = bindparam("kinds", expanding=True)
    made = (select(func.count()).select_from(LogEntry)
            .where(LogEntry.game_id == bindparam("game_id"), col(LogEntry.kind).in_(kinds))
            .scalar_subquery())
    return select(made, *(select(LogEntry.index)
                          .where(LogEntry.game_id == bindparam("game_id"),
                                 LogEntry.seat == bindparam(f"seat{n}"),
                                 col(LogEntry.kind).in_(kinds))
                          .order_by(col(LogEntry.index).desc()).limit(1).scalar_subquery()
                          for n in range(count)))


_LOG_FROM = (select(LogEntry).where(LogEntry.game_id == bindparam("game_id"),
                                    col(LogEntry.index) >= bindparam("first"))
             .order_by(col(LogEntry.index)))


_LATEST_SNAPSHOT = (select(Snapshot).where(Snapshot.game_id == bindparam("game_id"))
                    .order_by(col(Snapshot.log_index).desc())
                    .limit(1))  # LIMIT: never ship the whole history


def latest_snapshot(session: Session, game_id: int) -> Snapshot:
    snap = session.exec(_LATEST_SNAPSHOT, params={"game_id": game_id}).first()
    if snap is None:
        raise LookupError(f"game {game_id} has no snapshot")
    return snap


def last_entry(session: Session, game_id: int) -> LogEntry:
    q = select(LogEntry).where(LogEntry.game_id == game_id).order_by(
        col(LogEntry.index).desc()).limit(1)
    entry = session.exec(q).first()
    if entry is None:
        raise LookupError(f"game {game_id} has no log")
    return entry


def moves_made(session: Session, game_id: int, kinds: frozenset[str]) -> int:
    """How many entries of ``kinds`` (the moves, not talk or the host's notes) the log holds."""
    return int(session.exec(_MOVES_MADE, params={"game_id": game_id,
                                                  "kinds": sorted(kinds)}).one())


_MOVES_MADE = select(func.count()).select_from(LogEntry).where(
    LogEntry.game_id == bindparam("game_id"),
    col(LogEntry.kind).in_(bindparam("kinds", expanding=True)))
_TOP_INDEX = select(func.max(LogEntry.index)).where(LogEntry.game_id == bindparam("game_id"))


def next_log_index(session: Session, game_id: int) -> int:
    top = session.exec(_TOP_INDEX, params={"game_id": game_id}).one()
    return 0 if top is None else int(top) + 1


def entry_events(entry: LogEntry) -> list[Event]:
    return list(_events(entry.events_json))


# Entries read into events, kept: a move's mails read the same few entries once per seat.
# Events are immutable, so one read serves every reader.
@lru_cache(maxsize=1024)
def _events(events_json: str) -> tuple[Event, ...]:
    return tuple(Event.from_json(e) for e in json.loads(events_json))


def setup_record(game: Game, entry: LogEntry, seat_count: int) -> SetupRecord:
    options: dict[str, Any] = json.loads(game.options_json)
    return SetupRecord(seat_count, options, draws_from_json(json.loads(entry.draws_json)),
                       entry.state_hash)


def order_record(entry: LogEntry) -> OrderRecord:
    return OrderRecord(entry.seat, entry.text, draws_from_json(json.loads(entry.draws_json)),
                       entry.state_hash, entry_events(entry))


def recent_replies(session: Session, address: str | None, kinds: tuple[str, ...],
                   since: timedelta) -> int:
    """How many mails of ``kinds`` went to ``address`` (None: to anyone) lately."""
    cutoff: datetime = utcnow() - since
    q = select(func.count()).select_from(OutboundMessage).where(
        col(OutboundMessage.kind).in_(kinds), col(OutboundMessage.created) >= cutoff)
    if address is not None:
        q = q.where(OutboundMessage.to_addr == address.lower())
    return int(session.exec(q).one())
