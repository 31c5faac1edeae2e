"""Reef's computer player: the redeal it decides on, and its orders (legal, reproducible, within
its budget, and worth something). How well it plays is measured by bench/bots.py; the
leak-twin test is tests/games/suite/test_bot_fairness.py."""

from __future__ import annotations

import random
import time

import pytest

from pbem.engine.chance import Chance
from pbem.engine.contract import bot_order
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.cards import cards
from pbem.games.reef2018.redeal import redeal
from pbem.games.reef2018.rules import apply_order
from tests.games.reef2018.positions import build
from tests.games.reef2018.suite import hidden_twin
from tests.games.reef2018.test_legal import positions

GREEN_SQUARE = """
G G . .
G G . .
. . . .
. . . Y
"""


def test_a_redeal_keeps_what_the_seat_sees_and_deals_the_rest_afresh() -> None:
    state = build([GREEN_SQUARE] * 3, hands=[[8, 33], [9, 10, 11], [12]], market=[25, 14, 41],
                  deck=[52, 3, 4])
    hidden = sorted(state.deck[1:] + state.players[1].hand + state.players[2].hand)
    deals = set()
    for n in range(20):
        dealt = redeal(state, 0, random.Random(n))
        assert dealt.players[0].hand == [8, 33] and dealt.market == state.market
        assert dealt.deck[0] == 52 and len(dealt.deck) == len(state.deck)
        assert [len(s.hand) for s in dealt.players] == [2, 3, 1]
        assert sorted(dealt.deck[1:] + dealt.players[1].hand + dealt.players[2].hand) == hidden
        every = dealt.deck + dealt.market + [c for s in dealt.players for c in s.hand + s.played]
        assert sorted(every) == sorted(cards())
        deals.add(tuple(dealt.players[1].hand))
    assert len(deals) > 10  # really drawn afresh, not the real hands kept


def test_the_setup_steps_hidden_starts_are_placed_afresh() -> None:
    state = GAME.setup(3, {"advanced": True}, Chance("hidden starts"))
    state = apply_order(state, 1, GAME.parse(state, 1, "start: red A1, yellow A1, green D4, "
                                                       "purple B1"), Chance("start"))[0]
    starts = {tuple(map(tuple, redeal(state, 0, random.Random(n)).players[1].reef))
              for n in range(10)}
    assert len(starts) > 5
    assert all(sum(map(len, reef)) == 4 for reef in starts)


def test_the_bot_plays_a_card_whose_pattern_is_there() -> None:
    """Card 8 scores 6 for the green 2×2 square on Ann's reef; nothing else scores."""
    state = build([GREEN_SQUARE, GREEN_SQUARE], hands=[[8, 33], [9]], market=[25, 14, 41])
    for level in ("normal", "strong"):
        text = bot_order(GAME, state, 0, random.Random(1), level, 5.0)
        assert text.startswith("play 8:"), text
        after = apply_order(state, 0, GAME.parse(state, 0, text), Chance(text))[0]
        assert after.players[0].score == state.players[0].score + 6


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_bot_orders_are_legal_and_the_same_for_the_same_rng(level: str) -> None:
    every = 7 if level == "normal" else 28  # strong thinks about 4 times longer
    for n, (state, seat) in enumerate(positions(2, f"bot-{level}", every)):
        text = bot_order(GAME, state, seat, random.Random(n), level, 30.0)
        apply_order(state, seat, GAME.parse(state, seat, text), Chance(text))  # legal, or raises
        assert bot_order(GAME, state, seat, random.Random(n), level, 30.0) == text


def test_a_spent_budget_still_gives_a_legal_order_and_is_not_exceeded() -> None:
    state = build([GREEN_SQUARE, GREEN_SQUARE], hands=[[8, 33, 2, 5], [9]],
                  market=[25, 14, 41])
    for budget in (0.0, 0.02):
        started = time.process_time()
        text = GAME.bot_order(state, 0, random.Random(1), "strong", budget)
        assert time.process_time() - started <= budget + 0.01
        apply_order(state, 0, GAME.parse(state, 0, text), Chance(text))


def test_a_seat_with_no_order_to_give_is_told_so() -> None:
    state = build([GREEN_SQUARE, GREEN_SQUARE], hands=[[8, 33], [9]], market=[25, 14, 41])
    with pytest.raises(ValueError, match="seat 1 has no order to give now"):
        GAME.bot_order(state, 1, random.Random(1), "normal", 1.0)


def test_twins_at_every_player_count_and_in_the_setup_step_get_the_same_choices() -> None:
    """The shared leak-twin test (tests/games/suite/test_bot_fairness.py) looks at two-player
    basic games; here 2-4 players, both variants, the setup step's hidden starts included."""
    compared = set()
    for n, (state, seat) in enumerate(positions(4, "twins", 6)):
        twin = hidden_twin(state, seat, random.Random(n))
        if twin is None:
            continue
        assert GAME.view(twin, seat) == GAME.view(state, seat)
        for level in ("random", "normal"):
            assert (bot_order(GAME, state, seat, random.Random(n), level, 60.0)
                    == bot_order(GAME, twin, seat, random.Random(n), level, 60.0))
        compared.add((len(state.players), state.advanced, state.phase))
    assert {(p, a, "play") for p, a in [(2, False), (3, True), (4, False)]} <= compared
    assert (3, True, "setup") in compared
