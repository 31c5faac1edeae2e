"""Rock cells as the bits of one int, for set work on many cells at once.

Bit ``i`` is the ``i``-th rock cell key in sorted order ("1:A2" < "1:A3" < ... < "4:G6"), so
reading a mask's bits from the lowest up lists its cells already sorted, and a union of
neighbourhoods is a few ``|`` instead of a set built cell by cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pbem.games.reef_encounter.board import neighbours, rock_cells


@dataclass(frozen=True)
class CellBits:
    keys: tuple[str, ...]  # bit index -> cell key, sorted
    bit: dict[str, int]  # cell key -> its bit
    near: dict[str, int]  # cell key -> the bits of its rock neighbours
    board: dict[int, int]  # board id -> the bits of its rock cells


@cache
def cell_bits() -> CellBits:
    near = neighbours()
    keys = tuple(sorted(near))
    bit = {k: 1 << i for i, k in enumerate(keys)}
    return CellBits(
        keys, bit,
        {k: sum(bit[n] for n in around) for k, around in near.items()},
        {b: sum(bit[k] for k in cells) for b, cells in rock_cells().items()},
    )


def cells_in(mask: int) -> list[str]:
    """The cell keys of ``mask``'s bits, sorted."""
    keys = cell_bits().keys
    bits = bin(mask)[:1:-1]  # lowest bit first
    out = []
    i = bits.find("1")
    while i >= 0:
        out.append(keys[i])
        i = bits.find("1", i + 1)
    return out
