"""Cells as bits (cellbits.py) give what the sets they replace gave: the bot's placement
candidates next to a colour are the sorted set of rock neighbours of that colour's polyps on
the boards in play that do not hold that colour, on positions from seeded bot games."""

from __future__ import annotations

import random

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import BOARD_OF, neighbours
from pbem.games.reef_encounter.cellbits import cell_bits, cells_in
from pbem.games.reef_encounter.language import CORAL_COLOURS
from pbem.games.reef_encounter.moves import next_to
from pbem.games.reef_encounter.state import State


def _next_to_by_sets(state: State, colour: str) -> list[str]:
    near, polyps = neighbours(), state.polyps
    return sorted({n for k, c in polyps.items() if c == colour and BOARD_OF[k] in state.boards
                   for n in near[k] if polyps.get(n) != colour})


def test_bits_follow_the_sorted_cell_keys() -> None:
    bits = cell_bits()
    assert list(bits.keys) == sorted(neighbours())
    some = [bits.keys[-1], bits.keys[40], bits.keys[0], bits.keys[7]]
    assert cells_in(sum(bits.bit[k] for k in some)) == sorted(some)
    assert cells_in(0) == []
    assert cells_in(bits.near["2:D4"]) == sorted(neighbours()["2:D4"])


def test_next_to_is_the_set_of_neighbours_it_replaces() -> None:
    rng = random.Random("cellbits")
    checked = 0
    for players, advanced in ((2, False), (3, True), (4, False)):
        seed = f"cellbits-{players}"
        state = GAME.setup(players, {"advanced": advanced}, Chance(f"{seed}/setup"))
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = rng.choice(sorted(waiting))
            for colour in CORAL_COLOURS:
                assert next_to(state, colour) == _next_to_by_sets(state, colour)
                checked += 1
            order = GAME.parse(state, seat, GAME.random_order(state, seat, rng))
            state = GAME.apply(state, seat, order, Chance(f"{seed}/{n}")).state
            n += 1
    assert checked > 500
