"""An answer to a step other seats still owe answers to within one turn of the game's own count
(a setup choice) mails only its sender: the others keep the mail they hold, which names that
turn; when the step is over, every seat gets one mail of it. Every game, from its first wait,
by mail through the processor."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.pipeline.move_mails import game_turn
from pbem.store import SessionFactory
from tests.games.suite.games import games
from tests.support.seated import PLAYERS, seat_table

GAMES = [pytest.param(name, game, id=name) for name, game in games().items()]


@pytest.mark.parametrize(("name", "game"), GAMES)
def test_an_answer_to_a_shared_step_mails_only_its_sender(factory: SessionFactory, name: str,
                                                          game: Any) -> None:
    players = min(3, game.max_players)
    table = seat_table(factory, name, players=players, seed="one-mail")
    rng = random.Random(7)
    shared = 0
    while len(waiting := game.waiting_for(state := table.state())) > 1:
        seat = min(waiting)
        result, _ = table.send(seat, game.random_order(state, seat, rng))
        assert result.status == "applied", result.reason
        to = sorted(table.bodies(result))
        turn = game_turn(game, state)  # the game's own count, before and after the answer
        if (waiting & game.waiting_for(table.state())) - {seat} \
                and turn is not None and turn == game_turn(game, table.state()):
            assert to == [PLAYERS[seat][1]], (name, to)
            shared += 1
        else:  # the step is over: everyone hears of it
            assert len(to) == players, (name, to)
    if shared == 0:
        pytest.skip(f"{name} begins with no step shared within one of its turns")
