"""A computer player sees only what its seat sees, in every game with a strategy (the leak-twin
method): over many positions of random games, a redeal keeps the seat's view; two states that
differ only in what the seat cannot see give the same redeal and the same bot orders (levels
random and normal) for the same random draws; a redeal round-trips through JSON and play goes
on from it.

A game's ``tests/games/<pkg>/suite.py`` names ``bot_twin(state, seat, rng)``: a state differing
from ``state`` only in what ``seat`` cannot see (None when nothing hidden can differ).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pbem.engine.chance import Chance
from pbem.engine.contract import bot_order
from tests.games.suite.games import every_game

POSITIONS = 40  # per game: positions checked, each with a twin


def _twin_maker(game: Any) -> Callable[[Any, int, random.Random], Any] | None:
    package = type(game).__module__.split(".")
    if package[:2] != ["pbem", "games"]:
        return None
    try:
        module = importlib.import_module(f"tests.games.{package[2]}.suite")
    except ModuleNotFoundError:
        return None
    return getattr(module, "bot_twin", None)


FAIR = [pytest.param(game, maker, id=name) for name, game, _ in every_game()
        if getattr(game, "redeal", None) is not None and (maker := _twin_maker(game))]


def _positions(game: Any, seed: str) -> Iterator[tuple[Any, int]]:
    """(state, a seat it waits for) along random games of every player count."""
    rng = random.Random(seed)
    for n in range(game.max_players - game.min_players + 1):
        players = game.min_players + n
        state = game.setup(players, game.default_options(), Chance(f"{seed}-{players}"))
        moves = 0
        while waiting := game.waiting_for(state):
            seat = rng.choice(sorted(waiting))
            yield state, seat
            text = game.random_order(state, seat, rng)
            state = game.apply(state, seat, game.parse(state, seat, text),
                               Chance(f"{seed}-{players}-{moves}")).state
            moves += 1


@pytest.mark.parametrize(("game", "bot_twin"), FAIR)
def test_a_bot_decides_from_what_its_seat_sees(game: Any, bot_twin: Any) -> None:
    rng = random.Random("fair")
    every = list(_positions(game, "fairness"))
    checked = 0
    for state, seat in rng.sample(every, min(POSITIONS, len(every))):
        seen = game.redeal(state, seat, random.Random(1))
        assert game.view(seen, seat) == game.view(state, seat)
        again = game.from_json(game.to_json(seen))
        assert game.to_json(again) == game.to_json(seen)
        twin = bot_twin(state, seat, random.Random(checked))
        if twin is None:
            continue
        assert game.to_json(twin) != game.to_json(state)
        assert game.view(twin, seat) == game.view(state, seat)
        assert (game.to_json(game.redeal(twin, seat, random.Random(1)))
                == game.to_json(seen))
        for level in ("random", "normal"):
            orders = [bot_order(game, s, seat, random.Random(f"{level}-{checked}"), level, 30.0)
                      for s in (state, twin)]
            assert orders[0] == orders[1], (level, orders)
        # Play goes on from the redeal read back: the bot's order for it is legal there.
        text = bot_order(game, again, seat, random.Random(checked), "normal", 30.0)
        game.apply(again, seat, game.parse(again, seat, text), Chance("on"))
        checked += 1
    assert checked >= POSITIONS // 2
