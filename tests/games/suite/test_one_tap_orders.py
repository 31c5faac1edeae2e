"""Every game's one-tap orders (pbem.engine.contract.Game.one_tap_orders) are whole legal
orders: at each step of random games, each order offered to a seat to move plays, in English
and in every seat language (as the seat's mail links write it), and none is offered to a
seat that is not to move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.engine import replay
from pbem.engine.contract import canonical_order
from pbem.i18n import LANGUAGES
from pbem.pipeline.one_tap import one_tap_orders
from tests.games.suite.games import every_game

GAMES = 2  # random games per game: enough to pass its phases (setup, play, final turns)


@pytest.mark.parametrize(("name", "game"), [(n, g) for n, g, _ in every_game()])
def test_every_one_tap_order_plays(name: str, game: Any) -> None:
    offered = 0
    for n in range(GAMES):
        seed = f"one-tap-{n}"
        state, _ = replay.start(game, game.max_players, game.default_options(), seed)
        rng = random.Random(seed)
        steps = 0
        while waiting := game.waiting_for(state):
            steps += 1
            assert steps < 2000, f"{name}: no end"
            for seat in range(game.max_players):
                if seat not in waiting:
                    assert one_tap_orders(game, state, seat) == []
                    continue
                for order in one_tap_orders(game, state, seat):
                    offered += 1
                    replay.play(game, state, seat, order, f"{seed}/try")
                    lang = LANGUAGES[steps % len(LANGUAGES)]
                    written = one_tap_orders(game, state, seat, lang)
                    canonical = [canonical_order(game, state, seat, o, lang) for o in written]
                    assert order in [c.strip() for c in canonical], (lang, written)
            seat = sorted(waiting)[0]
            applied, _ = replay.play(game, state, seat, game.random_order(state, seat, rng),
                                     f"{seed}/{steps}")
            state = applied.state
    if name in ("reef-encounter", "reef-2018"):
        assert offered > 0, f"{name} offers one-tap orders"
