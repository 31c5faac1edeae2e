"""Reef's reefs read back from their text equivalent: a reader who cannot see the pictures
gets every square of every reef, its top colour and stack height, as the view has them."""

from __future__ import annotations

import re

import pytest

from pbem.engine import registry
from pbem.i18n.translate import LANGUAGES
from tests.support.board_text import board_text
from tests.support.boards import positions, status_html

GAME = "reef-2018"
SQUARE = re.compile(r"([A-D])([1-4]) (?:(\w+), height (\d)|empty)$")


def _read(item: str) -> tuple[str, dict[tuple[int, int], tuple[str, int] | None]]:
    """``Ann (player 1): A1 red, height 2; B1 empty; …`` as the player and each square."""
    who, _, squares = item.rstrip(".").partition(": ")
    read: dict[tuple[int, int], tuple[str, int] | None] = {}
    for square in squares.split("; "):
        found = SQUARE.match(square)
        assert found, square
        col, row, colour, height = found.groups()
        read[int(row) - 1, "ABCD".index(col)] = (colour, int(height)) if colour else None
    return who, read


def test_every_square_of_every_reef_reads_back_as_the_view_has_it() -> None:
    read_boards = 0
    for state in positions(GAME, every=9):
        for seat in (None, 0):
            view = registry.get(GAME).view(state, seat)
            items = board_text(status_html(GAME, state, seat))
            assert len(items) == len(view["players"])
            for player, item in zip(view["players"], items, strict=True):
                if view.get("phase") == "setup" and player["seat"] != seat:
                    continue  # hidden until everyone has placed: the item says so
                who, read = _read(item)
                assert who.startswith(["Ann", "Ben", "Cy", "Dee"][player["seat"]])
                expected = {(r, c): (cell["top"], cell["height"]) if cell.get("top") else None
                            for r, row in enumerate(player["reef"])
                            for c, cell in enumerate(row)}
                assert read == expected
                read_boards += 1
    assert read_boards > 20


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_reefs_are_read_in_the_readers_language(lang: str) -> None:
    state = list(positions(GAME, every=30))[-1]
    items = board_text(status_html(GAME, state, 0, lang))
    assert len(items) == 4 and all(item.count(";") == 15 for item in items)
    english = board_text(status_html(GAME, state, 0))
    assert ", height " in english[0] and ", height " not in items[0]
