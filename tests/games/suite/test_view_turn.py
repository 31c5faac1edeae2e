"""The one key of a view the host reads, ``turn`` (see ``Game.view``), as the contract
declares it: absent from every view of a game, or an int from 0 that every seat and the
spectator read alike and that no move takes back."""

from __future__ import annotations

import random

import pytest

from pbem.engine import replay
from pbem.engine.contract import view_turn
from tests.games.suite.games import games

ORDERS = 60  # enough for turns to pass in every game, few enough to stay a quick test


@pytest.mark.parametrize("name", list(games()))
def test_a_view_s_turn_is_the_same_for_every_reader_and_never_goes_back(name: str) -> None:
    game = games()[name]
    players = min(3, game.max_players)
    state, _ = replay.start(game, players, game.default_options(), "turns")
    rng = random.Random(7)
    seen: list[int | None] = []
    for n in range(ORDERS):
        turns = {view_turn(game.view(state, viewer)) for viewer in (None, *range(players))}
        assert len(turns) == 1, f"order {n}: the readers' views give turns {turns}"
        turn = turns.pop()
        if seen:
            last = seen[-1]
            assert (turn is None) == (last is None), f"order {n}: turn {turn} after {last}"
            assert turn is None or last is None or turn >= last, f"order {n}: went back"
        seen.append(turn)
        waiting = game.waiting_for(state)
        if not waiting:
            break
        seat = min(waiting)
        state = replay.play(game, state, seat, game.random_order(state, seat, rng),
                            f"turns/{n}")[0].state
    first, last = seen[0], seen[-1]
    if first is not None:
        assert first == 0 and last is not None and last > 0, f"turns seen: {seen}"
