"""Rock cells as the bits of one int, for set work on many cells at once.

The bits lie like the boards: board after board (in id order), column after column, row after
row, one bit for every square of a board's 7 x 6 grid (sand squares stay 0). That is also the
order of the sorted cell keys ("1:A2" < "1:A3" < ... < "4:G6"), so reading a mask's bits from
the lowest up lists its cells already sorted; and a neighbour is a shift (one row: 1 bit, one
column: ``ROWS`` bits), so the rock neighbours of many cells at once are a few shifts
(:func:`grow`) instead of a set built cell by cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pbem.games.reef_encounter.board import neighbours, rock_cells
from pbem.games.reef_encounter.components import COLUMNS, ROWS

_PER_BOARD = len(COLUMNS) * ROWS


@dataclass(frozen=True)
class CellBits:
    keys: tuple[str, ...]  # bit index -> cell key ("" for a sand square)
    bit: dict[str, int]  # cell key -> its bit
    near: dict[str, int]  # cell key -> the bits of its rock neighbours
    board: dict[int, int]  # board id -> the bits of its rock cells
    rock: int  # every rock cell
    not_top: int  # every square but row 1's: shifted down a row, stays on its column
    not_bottom: int  # every square but the last row's
    not_left: int  # every square but column A's: shifted left, stays on its board
    not_right: int  # every square but column G's


@cache
def cell_bits() -> CellBits:
    near = neighbours()
    boards = sorted(rock_cells())
    bit: dict[str, int] = {}
    keys = [""] * (_PER_BOARD * len(boards))
    for b, board in enumerate(boards):
        for k in rock_cells()[board]:
            spot = k.split(":")[1]
            i = b * _PER_BOARD + COLUMNS.index(spot[0]) * ROWS + int(spot[1:]) - 1
            bit[k] = 1 << i
            keys[i] = k
    squares = [(b, c, r) for b in range(len(boards))
               for c in range(len(COLUMNS)) for r in range(ROWS)]

    def where(ok: bool, b: int, c: int, r: int) -> int:
        return 1 << (b * _PER_BOARD + c * ROWS + r) if ok else 0

    return CellBits(
        tuple(keys), bit,
        {k: sum(bit[n] for n in around) for k, around in near.items()},
        {board: sum(bit[k] for k in rock_cells()[board]) for board in boards},
        sum(bit.values()),
        sum(where(r > 0, b, c, r) for b, c, r in squares),
        sum(where(r < ROWS - 1, b, c, r) for b, c, r in squares),
        sum(where(c > 0, b, c, r) for b, c, r in squares),
        sum(where(c < len(COLUMNS) - 1, b, c, r) for b, c, r in squares),
    )


def grow(mask: int) -> int:
    """The rock cells next to a cell of ``mask`` (on its board; a cell of ``mask`` is among
    them only if it is next to another)."""
    bits = cell_bits()
    return (((mask & bits.not_bottom) << 1) | ((mask & bits.not_top) >> 1)
            | ((mask & bits.not_right) << ROWS) | ((mask & bits.not_left) >> ROWS)) & bits.rock
