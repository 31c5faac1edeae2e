"""A hostile line (long runs of digits, spaces or separators) is read in linear time: a
megabyte costs well under a second of CPU, whether it parses, fails or is translated."""

import contextlib
import time
from collections.abc import Callable

import pytest

from pbem.engine.errors import OrderSyntaxError
from pbem.games.reef_encounter.keywords import canonical_order, localise_order
from pbem.games.reef_encounter.parse import parse_order

MB = 1_000_000
LINES = {
    "digits": "1" * MB,
    "digits then a letter": "1" * MB + "a",
    "a keyword, then digits": "place " + "1" * MB,
    "spaces": " " * MB + "x",
    "spaces before a comment": "take pink" + " " * MB + "# why",
    "a cell spread over spaces": "1" + " " * MB + "a" + " " * MB + "x",
    "a cell spread over dashes": "place 1" + "-" * MB + "f" + "-" * MB + "x",
    "comment marks": "/" * MB,
}


def _cpu(call: Callable[..., object], *args: str) -> float:
    """CPU seconds of ``call(*args)``; a refused order counts as read."""
    start = time.process_time()
    with contextlib.suppress(OrderSyntaxError):
        call(*args)
    return time.process_time() - start


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Build the parser and load the catalogues first: their one-off cost is not the line's."""
    _cpu(parse_order, "banana")
    canonical_order("prendre rose", "fr")


@pytest.mark.parametrize("name", list(LINES))
def test_a_megabyte_line_is_parsed_in_linear_time(name: str) -> None:
    assert _cpu(parse_order, LINES[name]) < 1.0


@pytest.mark.parametrize("name", list(LINES))
def test_a_megabyte_line_is_translated_in_linear_time(name: str) -> None:
    assert _cpu(canonical_order, LINES[name], "fr") < 1.0
    assert _cpu(localise_order, LINES[name], "de") < 1.0
