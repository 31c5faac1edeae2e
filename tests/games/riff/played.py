"""Positions of seeded Das Riff games played by the random bot, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pbem.engine.chance import Chance
from pbem.games.riff import GAME
from pbem.games.riff.state import State

FLIPPED = {"face_down_at_sea_edge_counts_as_water": True,
           "completed_corals_count_toward_limit": False,
           "may_buy_fish_without_a_free_coral": False}


def positions(games: int, seed: str, every: int = 1) -> Iterator[State]:
    """The state before every ``every``-th order of ``games`` seeded random games, half with
    the options switched."""
    for i in range(games):
        state = GAME.setup(2, FLIPPED if i % 2 else {}, Chance(f"{seed}-{i}/setup"))
        rng = random.Random(f"{seed}-{i}")
        n = 0
        while GAME.waiting_for(state):
            assert n < 1000
            if n % every == 0:
                yield state
            seat = state.to_move
            text = GAME.random_order(state, seat, rng)
            state = GAME.apply(state, seat, GAME.parse(state, seat, text),
                               Chance(f"{seed}-{i}/{n}")).state
            n += 1
