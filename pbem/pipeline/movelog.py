"""Appending to a game's log: a played move (the entry, its snapshot, and the game's end), or
an admin entry.

Orders by mail, orders forced by the operator and default orders played at a deadline all go
through here, so every kind of move is stored, snapshotted and replayed the same way; so do
the operator's actions and what a player does to their seat by mail (``resign``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session

from pbem.engine.contract import Event, GameRules
from pbem.engine.hashing import canonical_json, state_hash
from pbem.engine.replay import OrderRecord, draws_to_json
from pbem.pipeline import history, standings
from pbem.store import queries
from pbem.store.tables import Game, LogEntry, Snapshot, utcnow


def record_move(session: Session, rules: GameRules, game: Game, *, index: int, kind: str, seat: int,
                text: str, record: OrderRecord, state: Any, told: list[Event] | None = None,
                source_message_id: int | None = None, created: datetime | None = None,
                rate_bots: bool = False) -> None:
    """Log entry ``index`` for ``record`` (``told`` goes before the game's own events), the
    snapshot of ``state`` after it, and ``finished`` (and rated) once the game has an
    outcome (``rate_bots``: the host's ``bot_games_rated``). Added to the session, not
    flushed: the next query (or the commit) writes them with whatever the move changes next
    (its clock), in one flush."""
    events = [*(told or []), *record.events]
    created = created or utcnow()
    session.add(LogEntry(
        game_id=game.id or 0, index=index, kind=kind, seat=seat, text=text,
        draws_json=canonical_json(draws_to_json(record.draws)),
        events_json=canonical_json([e.to_json() for e in events]),
        state_hash=record.state_hash, source_message_id=source_message_id,
        created=created))
    session.add(Snapshot(game_id=game.id or 0, log_index=index,
                         state_json=canonical_json(rules.to_json(state))))
    if rules.outcome(state) is not None:
        game.status = "finished"
        # Rated in this same transaction, dated as its last entry (what a rebuild reads).
        standings.game_finished(session, rules, game, state, created, rate_bots)
    session.add(game)


def log_admin(session: Session, rules: GameRules, game: Game, state: Any, text: str,
              events: list[Event], seat: int | None = None, snapshot: bool = False) -> LogEntry:
    """Append an admin entry carrying the hash of ``state``, the state after the action.

    Also used for what a player does to their seat by mail (``resign``), so the log and
    ``game replay`` show it like an operator's action."""
    index = queries.next_log_index(session, game.id or 0)
    data = rules.to_json(state)
    entry = LogEntry(game_id=game.id or 0, index=index, kind=history.ADMIN, seat=seat,
                     text=text, draws_json="[]",
                     events_json=canonical_json([e.to_json() for e in events]),
                     state_hash=state_hash(data))
    session.add(entry)
    if snapshot:  # the state changed (undo): processing must start from the new one
        session.add(Snapshot(game_id=game.id or 0, log_index=index,
                             state_json=canonical_json(data)))
    session.flush()
    return entry
