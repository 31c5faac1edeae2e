"""The bot's message-free placeable() agrees with the rules' check_place on every cell of
positions from seeded bot games, for every colour (a disagreement would make the bot write
illegal orders, or skip legal ones and change the pinned games)."""

from __future__ import annotations

import random

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import Refused, rock_cells
from pbem.games.reef_encounter.language import CORAL_COLOURS
from pbem.games.reef_encounter.placement import check_place, placeable
from pbem.games.reef_encounter.state import State


def _positions(seed: str, players: int, advanced: bool) -> list[State]:
    rng = random.Random(seed)
    state = GAME.setup(players, {"advanced": advanced}, Chance(f"{seed}/setup"))
    out = []
    n = 0
    while waiting := GAME.waiting_for(state):
        seat = rng.choice(sorted(waiting))
        order = GAME.parse(state, seat, GAME.random_order(state, seat, rng))
        state = GAME.apply(state, seat, order, Chance(f"{seed}/{n}")).state
        n += 1
        if n % 7 == 0:
            out.append(state)
    return out


def test_placeable_is_check_place_without_words() -> None:
    cells = [k for ks in rock_cells().values() for k in ks] + ["1:A1", "4:G6"]
    agreed = refused = 0
    for i, (players, advanced) in enumerate([(2, False), (3, True), (4, False)]):
        for state in _positions(f"placeable-{i}", players, advanced):
            for k in cells:
                for colour in CORAL_COLOURS:
                    try:
                        check_place(state, state.to_move, k, colour)
                        legal = True
                    except Refused:
                        legal = False
                        refused += 1
                    assert placeable(state, k, colour) == legal, (k, colour)
                    agreed += 1
    assert refused and refused < agreed  # both answers were seen
