"""Cells of this game's boards nearest to a cell a player wrote (help examples, suggestions).

Distance is the board distance: steps along rows and columns on the same board. A cell on a
board that is not in the game is measured from the same column and row on each board in play
(the player most likely meant that spot on another board); sand counts like rock for where a
player meant, but only rock cells are offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pbem.games.reef_encounter.board import rock_cells
from pbem.games.reef_encounter.components import COLUMNS

OTHER_BOARD = 100  # any cell of the same board is nearer than one of another board


def distance(a: str, b: str) -> int:
    """Board distance between two cell keys ("2:D4")."""
    (board_a, cell_a), (board_b, cell_b) = a.split(":"), b.split(":")
    steps = (abs(COLUMNS.index(cell_a[0]) - COLUMNS.index(cell_b[0]))
             + abs(int(cell_a[1:]) - int(cell_b[1:])))
    return steps + (0 if board_a == board_b else OTHER_BOARD)


def nearest(cell_key: str, boards: Iterable[int]) -> Iterator[str]:
    """Rock cells of ``boards``, nearest to ``cell_key`` first (ties: board order, then row
    by row). ``cell_key`` itself comes first if it is a rock cell of those boards."""
    cells = [(i, k) for i, board in enumerate(boards) for k in rock_cells().get(board, ())]
    cells.sort(key=lambda ik: (distance(cell_key, ik[1]), ik[0]))
    return (k for _, k in cells)
