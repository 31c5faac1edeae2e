"""A computer seat decides from what its seat may see only, in every game with its own
``redeal`` (pbem.engine.contract.Game): at many positions of random games, a redeal looks the
same to its seat, round-trips through JSON and plays on; and twin states that differ only in
what the seat cannot see (the game's ``bot_twin`` hook) give the same redeal and the same bot
orders, at levels random and normal, for the same generator."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from pbem.engine.chance import Chance
from pbem.engine.contract import Game, bot_order
from tests.games.suite.games import every_game
from tests.games.suite.hooks import Hooks, configs

WITH_STRATEGY = [pytest.param(name, game, hooks, id=name) for name, game, hooks in every_game()
                 if type(game).redeal is not Game.redeal and hooks.bot_twin is not None]
GAMES = 3
EVERY = 3  # orders between two positions looked at


def positions(game: Any, hooks: Hooks) -> Iterator[tuple[Any, int]]:
    """(state, a seat it waits for) every few orders of seeded random games."""
    config = configs(game, hooks)[0]
    for i in range(GAMES):
        seed = f"fairness-{config.seed}-{i}"
        state = game.setup(config.players, config.options, Chance(f"{seed}/setup"))
        rng = random.Random(seed)
        n = 0
        while waiting := game.waiting_for(state):
            assert n < hooks.max_orders
            seat = hooks.choose_seat(state, waiting, rng)
            if n % EVERY == 0:
                yield state, seat
            text = game.random_order(state, seat, rng)
            state = game.apply(state, seat, game.parse(state, seat, text),
                               Chance(f"{seed}/{n}")).state
            n += 1


def _json(game: Any, state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True)


@pytest.mark.parametrize(("name", "game", "hooks"), WITH_STRATEGY)
def test_a_redeal_looks_the_same_to_its_seat_and_plays_on(name: str, game: Any,
                                                          hooks: Hooks) -> None:
    looked = 0
    for n, (state, seat) in enumerate(positions(game, hooks)):
        dealt = game.redeal(state, seat, random.Random(n))
        assert game.view(dealt, seat) == game.view(state, seat)
        again = game.from_json(json.loads(json.dumps(game.to_json(dealt))))
        assert _json(game, again) == _json(game, dealt)
        text = game.random_order(again, seat, random.Random(n))
        game.apply(again, seat, game.parse(again, seat, text), Chance(f"redealt/{n}"))
        looked += 1
    assert looked > 20


@pytest.mark.parametrize(("name", "game", "hooks"), WITH_STRATEGY)
def test_leak_twins_get_the_same_redeal_and_the_same_bot_orders(name: str, game: Any,
                                                               hooks: Hooks) -> None:
    assert hooks.bot_twin is not None
    differed = 0
    for n, (state, seat) in enumerate(positions(game, hooks)):
        twin = hooks.bot_twin(state, seat, random.Random(f"twin-{n}"))
        if twin is None:  # nothing hidden from this seat could differ here
            continue
        assert game.view(twin, seat) == game.view(state, seat)
        differed += _json(game, twin) != _json(game, state)
        assert (_json(game, game.redeal(state, seat, random.Random(n)))
                == _json(game, game.redeal(twin, seat, random.Random(n))))
        for level in ("random", "normal"):
            # a budget the bot never meets: only a budget that runs out may change a choice
            ours, theirs = (bot_order(game, s, seat, random.Random(n), level, budget=60.0)
                            for s in (state, twin))
            assert ours == theirs, (n, level)
    assert differed > 20
