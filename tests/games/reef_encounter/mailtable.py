"""A Reef Encounter game seated in a real database: tests/support/seated.py with this game's
name.

``Table.put`` replaces the current position with a crafted one (the snapshot the pipeline reads
next); ``Table.send`` posts one email through the whole pipeline and returns the plain text of
the reply to the sender.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.state import State
from pbem.store import SessionFactory, queries
from tests.support import seated
from tests.support.seated import ANN, BEN, CY, DI, HOST, PLAYERS, Table

__all__ = ["ANN", "BEN", "CY", "DI", "HOST", "PLAYERS", "Table", "seat_table", "speaks",
           "state_json"]


def seat_table(factory: SessionFactory, position: Callable[[], State] | None = None,
               players: int = 2) -> Table:
    """Ann, Ben (, Cy, Di) at a new game (no welcome mail), at ``position`` if given."""
    return seated.seat_table(factory, GAME.name, position, players=players)


def state_json(state: State) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)


def speaks(table: Table, seat: int, lang: str) -> None:
    """Set ``seat``'s language (as its ``language`` mail command would)."""
    with table.factory() as s:
        for row in queries.seats(s, table.game_id):
            if row.index == seat:
                row.language = lang
                s.add(row)
        s.commit()
