"""A computer seat decides from what its seat may see only (the leak-twin method), in every
game with a strategy (``redeal`` and ``bot_order``, pbem/engine/contract.py).

Over positions of seeded random games: a redeal shows its seat exactly the view of the real
state, round-trips through JSON and can be played on; and twins, two states differing only in
what the seat cannot see, get the same redeal and the same bot choice at the levels random and
normal for the same rng. A game makes twins with ``hidden_twin(state, seat, rng)`` in its
``tests/games/<pkg>/suite.py`` (another seat's hidden holdings or the deck's order changed;
None where there is nothing hidden to change).
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pbem.engine.chance import Chance
from pbem.engine.contract import bot_order
from tests.games.suite.games import every_game
from tests.games.suite.hooks import Hooks, configs

POSITIONS = 40  # per game, from random games in each of its configurations
Twin = Callable[[Any, int, random.Random], Any]


def _twin_hook(game: Any) -> Twin | None:
    package = type(game).__module__.split(".")
    pkg = package[2] if package[:2] == ["pbem", "games"] else package[-1]
    try:
        module = importlib.import_module(f"tests.games.{pkg}.suite")
    except ModuleNotFoundError:
        return None
    return getattr(module, "hidden_twin", None)


WITH = [pytest.param(game, hooks, twin, id=name) for name, game, hooks in every_game()
        if hasattr(game, "redeal") and (twin := _twin_hook(game)) is not None]


def positions(game: Any, hooks: Hooks) -> Iterator[tuple[Any, int]]:
    """Positions spread over random games of every configuration, with a seat to move."""
    kinds = configs(game, hooks)
    per = -(-POSITIONS // len(kinds))
    for config in kinds:
        rng = random.Random(f"fair-{config.seed}")
        state = game.setup(config.players, dict(config.options), Chance(f"fair-{config.seed}"))
        found = 0
        while found < per:
            waiting = game.waiting_for(state)
            if not waiting:
                state = game.setup(config.players, dict(config.options),
                                   Chance(f"fair-{config.seed}-{found}"))
                continue
            seat = rng.choice(sorted(waiting))
            if rng.random() < 0.25:
                yield state, seat
                found += 1
            state = game.apply(state, seat, game.parse(state, seat, game.random_order(
                state, seat, rng)), Chance("fair")).state


@pytest.mark.parametrize(("game", "hooks", "twin"), WITH)
def test_a_redeal_looks_the_same_to_its_seat_and_plays_on(game: Any, hooks: Hooks,
                                                          twin: Twin) -> None:
    for n, (state, seat) in enumerate(positions(game, hooks)):
        dealt = game.redeal(state, seat, random.Random(n))
        assert game.view(dealt, seat) == game.view(state, seat)
        back = game.from_json(json.loads(json.dumps(game.to_json(dealt))))
        assert game.to_json(back) == game.to_json(dealt)
        mover = min(game.waiting_for(back))
        text = game.random_order(back, mover, random.Random(n))
        game.apply(back, mover, game.parse(back, mover, text), Chance("on"))


@pytest.mark.parametrize(("game", "hooks", "twin"), WITH)
def test_twins_differing_in_what_a_seat_cannot_see_get_the_same_choices(
        game: Any, hooks: Hooks, twin: Twin) -> None:
    compared = 0
    for n, (state, seat) in enumerate(positions(game, hooks)):
        other = twin(state, seat, random.Random(n))
        if other is None:
            continue
        assert game.to_json(other) != game.to_json(state)
        assert game.view(other, seat) == game.view(state, seat)
        assert (game.to_json(game.redeal(state, seat, random.Random(n)))
                == game.to_json(game.redeal(other, seat, random.Random(n))))
        for level in ("random", "normal"):  # a budget that never runs out: deterministic
            assert (bot_order(game, state, seat, random.Random(n), level, 30.0)
                    == bot_order(game, other, seat, random.Random(n), level, 30.0))
        compared += 1
    assert compared >= POSITIONS // 2
