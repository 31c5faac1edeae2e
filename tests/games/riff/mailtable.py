"""A Das Riff game seated in a real database: tests/support/seated.py with this game's name.

``Table.put`` replaces the current position with a crafted one (the snapshot the pipeline reads
next); ``Table.send`` posts one email through the whole pipeline and returns the plain text of
the reply to the sender.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlmodel import select

from pbem.games.riff import GAME
from pbem.games.riff.state import State
from pbem.store import SessionFactory
from pbem.store.tables import Seat
from tests.support import seated
from tests.support.seated import ANN, BEN, HOST, Table

__all__ = ["ANN", "BEN", "HOST", "PLAYERS", "Table", "language", "seat_table", "speak",
           "state_json"]

PLAYERS = seated.PLAYERS[:2]  # a two-player game


def seat_table(factory: SessionFactory, position: Callable[[], State] | None = None,
               options: dict[str, Any] | None = None, seed: str = "table") -> Table:
    """Ann and Ben at a new game (no welcome mail), at ``position`` if given."""
    return seated.seat_table(factory, GAME.name, position, options=options, seed=seed)


def state_json(state: State) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)


def speak(table: Table, seat: int, lang: str) -> None:
    """``seat`` reads and writes ``lang`` from now on (as after its "language" command)."""
    with table.factory() as s:
        row = s.exec(select(Seat).where(Seat.game_id == table.game_id,
                                        Seat.index == seat)).one()
        row.language = lang
        s.add(row)
        s.commit()


def language(table: Table, seat: int) -> str:
    with table.factory() as s:
        lang: str = s.exec(select(Seat).where(Seat.game_id == table.game_id,
                                              Seat.index == seat)).one().language
    return lang
