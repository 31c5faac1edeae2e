"""Cells as bits (cellbits.py) give what the sets they replace gave: the bot's placement
candidates next to a colour are the sorted set of rock neighbours of that colour's polyps on
the boards in play that do not hold that colour, on positions from seeded bot games."""

from __future__ import annotations

import random

from pbem.games.reef_encounter.board import BOARD_OF, neighbours
from pbem.games.reef_encounter.botreef import next_to_mask
from pbem.games.reef_encounter.cellbits import cell_bits, grow
from pbem.games.reef_encounter.parse import CORAL_COLOURS
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import bot_game


def cells_in(mask: int) -> list[str]:
    """The cell keys of ``mask``'s bits, lowest bit first."""
    keys = cell_bits().keys
    return [keys[i] for i in range(mask.bit_length()) if mask >> i & 1]


def next_to(state: State, colour: str) -> list[str]:
    """The bot's placement candidates next to ``colour``, as the sorted cells."""
    bits = cell_bits()
    own = sum(bits.bit[k] for k, c in state.polyps.items() if c == colour)
    return cells_in(next_to_mask(own, sum(bits.board[b] for b in state.boards)))


def _next_to_by_sets(state: State, colour: str) -> list[str]:
    near, polyps = neighbours(), state.polyps
    return sorted({n for k, c in polyps.items() if c == colour and BOARD_OF[k] in state.boards
                   for n in near[k] if polyps.get(n) != colour})


def test_bits_follow_the_sorted_cell_keys() -> None:
    bits = cell_bits()
    assert [k for k in bits.keys if k] == sorted(neighbours())
    assert sorted(bits.bit, key=bits.bit.__getitem__) == sorted(neighbours())
    assert all(bits.keys[bits.bit[k].bit_length() - 1] == k for k in neighbours())
    rock = sorted(neighbours())
    some = [rock[-1], rock[40], rock[0], rock[7]]
    assert cells_in(sum(bits.bit[k] for k in some)) == sorted(some)
    assert cells_in(0) == []
    assert cells_in(bits.near["2:D4"]) == sorted(neighbours()["2:D4"])


def test_grow_is_the_union_of_the_neighbours() -> None:
    bits = cell_bits()
    for k, around in neighbours().items():
        assert grow(bits.bit[k]) == bits.near[k] == sum(bits.bit[n] for n in around)
    rng = random.Random("grow")
    for _ in range(200):
        some = rng.sample(sorted(neighbours()), rng.randint(0, 40))
        mask = sum(bits.bit[k] for k in some)
        assert cells_in(grow(mask)) == sorted({n for k in some for n in neighbours()[k]})


def test_next_to_is_the_set_of_neighbours_it_replaces() -> None:
    rng = random.Random("cellbits")
    checked = 0
    for players, advanced in ((2, False), (3, True), (4, False)):
        for _, state in bot_game(rng, f"cellbits-{players}", players, advanced):
            for colour in CORAL_COLOURS:
                assert next_to(state, colour) == _next_to_by_sets(state, colour)
                checked += 1
    assert checked > 500
