"""Keeping ``Game.clock_due_at`` honest: whatever changes a game, its seats or its log makes
the next clock pass look at it again.

The clock pass (pbem.pipeline.clock) sets the column to the game's next reminder or
deadline; it may only be later than "now" while nothing that decides those times changed.
Rather than trusting every writer to remember that, a flush that touches a game, a seat or a
log entry resets the game to CLOCK_CHECK_NOW unless the same flush set the column itself.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, inspect, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from pbem.store.tables import CLOCK_CHECK_NOW, Game, LogEntry, Seat

# A seat's columns that decide no reminder or deadline: the calendar entry its mails keep
# (pbem.pipeline.calendar), written by the very mails a clock pass sends.
NO_CLOCK = frozenset({"calendar_uid", "calendar_sequence", "calendar_due"})


def _decides_times(seat: Seat) -> bool:
    state = inspect(seat)
    return state.pending or any(attr.history.has_changes() for attr in state.attrs
                                if attr.key not in NO_CLOCK)


def _sets_due(game: Game) -> bool:
    return bool(inspect(game).attrs.clock_due_at.history.has_changes())


@event.listens_for(Session, "before_flush")
def _recheck_touched(session: Session, _context: Any, _instances: Any) -> None:
    touched: set[int] = set()
    for obj in (*session.new, *session.dirty):
        if isinstance(obj, Game):
            if obj.id is not None and not _sets_due(obj):
                obj.clock_due_at = CLOCK_CHECK_NOW
        elif (isinstance(obj, Seat) and obj.game_id and _decides_times(obj)) \
                or (isinstance(obj, LogEntry) and obj.game_id):
            touched.add(obj.game_id)
    for game_id in touched:
        game = session.identity_map.get(identity_key(Game, game_id))
        if isinstance(game, Game):
            if not _sets_due(game):
                game.clock_due_at = CLOCK_CHECK_NOW
        else:  # not loaded: a plain UPDATE, no need to read the row
            session.connection().execute(
                update(Game).where(Game.id == game_id).values(clock_due_at=CLOCK_CHECK_NOW))  # type: ignore[arg-type]
