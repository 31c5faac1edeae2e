"""Whatever a player types, the game answers with a player's error or a legal turn: parse
raises only OrderSyntaxError, apply only IllegalOrder, and a refused order changes nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder, OrderSyntaxError
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.state import State

WORDS = ["take", "play", "start", "deck", "token", "on", "paying", "red", "yellow", "green",
         "purple", "r", "p", "A1", "B2", "C3", "D4", "E5", "A0", "17", "R17", "#3", "0", "61",
         "1", "2", "25", ":", ",", ".", "#", "//", "\n", "card", "the", "-", "b-2"]


def _positions() -> list[State]:
    """Positions from a few random games: the setup step, mid-game, a full hand, the end."""
    out = []
    rng = random.Random(5)
    for players, advanced in ((2, False), (3, True), (4, False)):
        state = GAME.setup(players, {"advanced": advanced}, Chance(f"fuzz-{players}"))
        out.append(state)
        n = 0
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            state = GAME.apply(state, seat, GAME.parse(state, seat, GAME.random_order(
                state, seat, rng)), Chance("x")).state
            n += 1
            if n % 17 == 0:
                out.append(state)
        out.append(state)  # over: every order is refused
    return out


POSITIONS = _positions()


@settings(max_examples=400)
@given(st.lists(st.sampled_from(WORDS), max_size=9), st.integers(0, len(POSITIONS) - 1),
       st.integers(0, 3))
def test_any_text_is_answered_and_a_refusal_changes_nothing(words: list[str], index: int,
                                                            seat: int) -> None:
    state = POSITIONS[index]
    seat %= len(state.players)
    before = GAME.to_json(state)
    try:
        order = GAME.parse(state, seat, " ".join(words))
        GAME.apply(state, seat, order, Chance("fuzz"))
    except (OrderSyntaxError, IllegalOrder) as err:
        assert str(err)
    assert GAME.to_json(state) == before


@settings(max_examples=200)
@given(st.text(max_size=80))
def test_any_unicode_text_is_read_or_refused(text: str) -> None:
    try:
        GAME.parse(POSITIONS[1], 0, text)
    except OrderSyntaxError as err:
        assert str(err)
