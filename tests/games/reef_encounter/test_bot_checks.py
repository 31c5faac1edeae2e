"""What the bot relies on to try moves cheaply: its message-free placeable() agrees with the
rules' check_place on every cell of positions from seeded bot games, for every colour (a
disagreement would make the bot write illegal orders, or skip legal ones and change the pinned
games), and a refused shrimp move leaves the state and the turn as they were."""

from __future__ import annotations

import random

from pbem.engine.chance import Chance
from pbem.games.reef_encounter.board import Refused, rock_cells
from pbem.games.reef_encounter.context import Turn
from pbem.games.reef_encounter.language import CORAL_COLOURS
from pbem.games.reef_encounter.orders import Cell, MoveShrimp
from pbem.games.reef_encounter.placement import check_place, placeable
from pbem.games.reef_encounter.shrimps import may_move
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.turn import do_step
from tests.games.reef_encounter.positions import bot_game


def _positions(seed: str, players: int, advanced: bool) -> list[State]:
    return [state for n, state in bot_game(random.Random(seed), seed, players, advanced)
            if n and n % 7 == 0]


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


def test_a_refused_shrimp_move_changes_nothing() -> None:
    """The bot tries shrimp moves on its scratch state without a backup copy."""
    refused = 0
    for i, (players, advanced) in enumerate([(2, True), (4, False)]):
        for state in _positions(f"moves-{i}", players, advanced):
            seat = state.to_move
            sources = sorted(k for k, s in state.shrimps.items() if s == seat)
            others = sorted(k for k in state.shrimps if state.shrimps[k] != seat)
            targets = [*sorted(state.polyps)[::3], *others, "1:A1", "2:D4"]
            for source in [*sources, *others[:1]]:
                for target in targets:
                    scratch = state.copy_for(seat)
                    before = scratch.to_json()
                    turn = Turn(seat)
                    try:
                        do_step(scratch, turn, MoveShrimp(_cell(source), _cell(target)),
                                Chance("unused"))
                    except Refused:
                        refused += 1
                        assert scratch.to_json() == before
                        assert turn == Turn(seat)
    assert refused > 50


def _cell(k: str) -> Cell:
    board, rest = k.split(":")
    return Cell(int(board), rest[0], int(rest[1:]))


def test_may_move_is_move_shrimp_without_words() -> None:
    """The bot asks may_move() before trying a shrimp move: it must say yes exactly when the
    rules move the shrimp (else the bot would skip legal moves and change the pinned games)."""
    cells = [k for ks in rock_cells().values() for k in ks] + ["1:A1", "4:G6"]
    moved = refused = 0
    for i, (players, advanced) in enumerate([(2, True), (3, False), (4, False)]):
        for state in _positions(f"may-move-{i}", players, advanced):
            seat = state.to_move
            others = sorted(k for k in state.shrimps if state.shrimps[k] != seat)
            sources = sorted(k for k, s in state.shrimps.items() if s == seat)
            for source in [*sources, *others[:1], "2:D4"]:
                for target in cells:
                    try:
                        do_step(state.copy_for(seat), Turn(seat),
                                MoveShrimp(_cell(source), _cell(target)), Chance("unused"))
                        legal = True
                        moved += 1
                    except Refused:
                        legal = False
                        refused += 1
                    assert may_move(state, seat, source, target) == legal, (source, target)
    assert moved > 100 and refused > moved
