"""The board's shortcuts for speed give exactly the long way's answers, on real positions."""

import random

from pbem.engine.chance import Chance
from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import board_of, coral_reaches, group, rock_cells


def test_coral_reaches_says_what_counting_the_whole_coral_says() -> None:
    rng = random.Random("reaches")
    state = GAME.setup(4, {"advanced": False}, Chance("reaches"))
    checked = 0
    for n in range(200):
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            text = GAME.random_order(state, seat, rng)
            state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                               Chance(f"reaches/{n}")).state
            break
        if not waiting:
            break
        for k in (k for b in state.boards for k in rock_cells()[b]):
            size = len(group(state, k))
            for at_least in range(0, 9):
                assert coral_reaches(state, k, at_least) is (size >= at_least), (k, at_least)
                checked += 1
    assert checked > 10_000


def test_board_of_reads_the_board_from_any_key() -> None:
    assert board_of("2:D4") == 2
    assert board_of("4:A1") == 4
    assert board_of("3:Z9") == 3  # not a rock cell: read from the key all the same
