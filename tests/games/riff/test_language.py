"""The order language: every form in help parses to the right step; every syntax error says
where, why, and the nearest valid form."""

from __future__ import annotations

import re

import pytest

from pbem.engine.errors import OrderSyntaxError
from pbem.games.riff.components import default_options
from pbem.games.riff.help import HELP_TEXT
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Describe,
    Flip,
    Pass,
    Place,
    Prefer,
    SharkArea,
    SharkOwn,
)
from pbem.games.riff.parse import parse_order

COLOURS = default_options()["colour_names"]


def steps(text: str) -> list[object]:
    return list(parse_order(text, COLOURS).steps)


@pytest.mark.parametrize(("text", "step"), [
    ("buy 3 near", Buy(Place(2, 0))),
    ("Buy near 3.", Buy(Place(2, 0))),
    ("buy 5 middle", Buy(Place(4, 1))),
    ("buy 6 far middle paying blue red red", Buy(Place(5, 2), ("blue", "red", "red"))),
    ("buy 4 far", Buy(Place(3, 3))),
    ("buy 3 near paying pearl", Buy(Place(2, 0), ("pearl",))),
    ("buy 5 middle if coral or red fish",
     Buy(Place(4, 1), None, (Describe("coral"), Describe("fish", "red")))),
    ("buy 5 middle paying green if red male or female or pearl",
     Buy(Place(4, 1), ("green",), (Describe("fish", "red", "m"), Describe("fish", None, "f"),
                                   Describe("pearl")))),
    ("flip 5 middle", Flip(Place(4, 1))),
    ("flip 2 far middle paying blue", Flip(Place(1, 2), ("blue",))),
    ("boat", Boat()),
    ("buy boat", Boat()),
    ("boat paying red blue green", Boat(("red", "blue", "green"))),
    ("attach red male to coral 2", Attach((("red", "m"),), 1)),
    ("attach red male and yellow female to coral 1",
     Attach((("red", "m"), ("yellow", "f")), 0)),
    ("shark 4 far", SharkArea(Place(3, 3))),
    ("shark my blue female", SharkOwn("blue", "f")),
    ("prefer red blue green", Prefer(("red", "blue", "green"))),
    ("pass", Pass()),
    ("done", Pass()),
])
def test_each_form_reads_as_its_step(text: str, step: object) -> None:
    assert steps(text) == [step]


def test_lines_semicolons_and_comments() -> None:
    order = parse_order("# my turn\nbuy 1 near; boat\n\nattach red male to coral 1 // yes\n",
                        COLOURS)
    assert len(order.steps) == 3 and order.lines == (2, 2, 4)


def test_every_example_line_in_help_parses() -> None:
    lines = re.findall(r"^  (prefer|buy|flip|boat|attach|shark|pass)\b([^\n]*?)(?:  |$)",
                       HELP_TEXT, flags=re.M)
    assert len(lines) >= 14
    for verb, rest in lines:
        assert steps(f"{verb}{rest}"), f"{verb}{rest}"


@pytest.mark.parametrize(("text", "message"), [
    ("byu 3 near", r"line 1, column 1: unknown order 'byu' \"byu 3 near\" — did you mean: "
                   r"buy 3 near"),
    ("buy 9 near", r"line 1, column 5: expected a column number 1-8, found '9'"),
    ("buy 3 nowhere", r"line 1, column 7: expected a row: near, middle, far middle or far"),
    ("attach red to coral 1", r"column 12: expected male or female"),
    ("attach red male and blue male to coral 1", r"a coral takes one male and one female"),
    ("attach orange male to coral 1", r"expected a colour \(red, yellow, blue, green, pink, "
                                      r"purple\), found 'orange'"),
    ("prefer red red", r"red is named twice"),
    ("buy 3 near paying", r"\"paying\" needs worm colours or \"pearl\""),
    ("buy 3 near if", r"expected a card: fish, red fish, red male, coral, pearl, shark or "
                      r"water"),
    ("pass\nboat now", r"line 2, column 6: unexpected 'now'"),
    ("shark", r"line 1, column 6: expected a column number 1-8"),
])
def test_syntax_errors_say_where_why_and_the_form(text: str, message: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order(text, COLOURS)
    assert re.search(message, str(err.value)), str(err.value)
    assert err.value.hint


def test_an_empty_order_is_an_error() -> None:
    with pytest.raises(OrderSyntaxError, match="no orders found"):
        parse_order("# nothing\n", COLOURS)
