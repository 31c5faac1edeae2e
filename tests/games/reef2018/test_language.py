"""Reading orders: every form the help text teaches, the forgiving spellings, and the canonical
text format_order writes (which reads back to the same order)."""

from __future__ import annotations

import random

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import OrderSyntaxError
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.orders import Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.parse import format_order, parse_order

B2, C2, B3, C3, A1, D4 = 5, 6, 9, 10, 0, 15


@pytest.mark.parametrize(("text", "order"), [
    ("take 17", TakeMarket(17)),
    ("Take card R17.", TakeMarket(17)),
    ("take #7", TakeMarket(7)),
    ("take deck", TakeDeck()),
    ("take the deck", TakeDeck()),
    ("take deck, token on 23", TakeDeck(23)),
    ("take deck paying 23", TakeDeck(23)),
    ("take deck token 23", TakeDeck(23)),
    ("play 17: red B2, yellow B2", Play(17, (("red", B2), ("yellow", B2)))),
    ("PLAY R17 r b2 y b2", Play(17, (("red", B2), ("yellow", B2)))),
    ("play 17: red on B2, yellow on B-2", Play(17, (("red", B2), ("yellow", B2)))),
    ("play 17: B2, D4", Play(17, ((None, B2), (None, D4)))),
    ("play 17:\n  red A1\n  yellow D4", Play(17, (("red", A1), ("yellow", D4)))),
    ("play 17: purple A1", Play(17, (("purple", A1),))),
    ("play 17", Play(17, ())),
    ("start: red B2, yellow C2, green B3, purple C3",
     Start((("red", B2), ("yellow", C2), ("green", B3), ("purple", C3)))),
    ("# my turn\n\ntake 17  // the cheap one", TakeMarket(17)),
])
def test_forms_read_as_orders(text: str, order: object) -> None:
    assert parse_order(text) == order


@pytest.mark.parametrize(("text", "message"), [
    ("", "there is no order in your mail"),
    ("jump", 'line 1: I do not know the order "jump"'),
    ("take 0", "line 1: there is no card 0 (cards are numbered 1 to 60)"),
    ("take deck 3 4", 'line 1: I did not understand "4"'),
    ("take 3 please", 'line 1: I did not understand "please" after the card number'),
    ("play x", 'line 1: "x" is not a card number'),
    ("play", "line 1: play which card? its number, then where its corals go"),
    ("play 3: red green B2", "line 1: two colours (red, green) for one square"),
    ("play 3: A5", "line 1: A5 is not on your reef (A1 to D4)"),
    ("start: red B2, yellow C2", "line 1: name the 4 starting corals, each colour with its "
     "square"),
    ("take 3\ntake 4", "line 2: one email is one turn: this is a second order"),
])
def test_bad_text_is_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order(text)
    assert str(err.value).startswith(message)


def test_format_order_reads_back_for_random_orders() -> None:
    rng = random.Random(3)
    for i in range(30):
        state = GAME.setup(2 + i % 3, {"advanced": i % 2 == 1}, Chance(f"lang-{i}"))
        while waiting := GAME.waiting_for(state):
            seat = min(waiting)
            text = GAME.random_order(state, seat, rng)
            order = parse_order(text)
            assert format_order(order) == text
            state = GAME.apply(state, seat, order, Chance("x")).state


def test_the_help_text_examples_read() -> None:
    for example in ("take 17", "take deck", "take deck, token on 23", "take deck paying 23",
                    "play 17: red B2, yellow B2", "play 17: B2, C4",
                    "start: red B2, yellow C2, green B3, purple C3",
                    "start: red A1, yellow A1, green D4, purple B1"):
        assert example in GAME.help_text()
        parse_order(example)
