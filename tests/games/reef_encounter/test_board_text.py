"""Reef Encounter's boards read back from their text equivalent: a reader who cannot see the
pictures gets every cell of every board: sand, bare rock, an extra-growth space or a polyp
of its colour, and whose shrimp stands there."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pbem.engine import registry
from pbem.i18n.translate import LANGUAGES
from tests.support.board_text import board_text
from tests.support.boards import positions, status_html

GAME = "reef-encounter"
BOARD = re.compile(r"Board (\d+): (.+)\.$")
CELL = re.compile(r"([A-G])([1-6]) (sand|bare rock|extra-growth space|(\w+) polyp)"
                  r"(?:, shrimp of player (\d))?$")


def _expected(cell: Any) -> tuple[Any, ...]:
    what = (("polyp", cell["polyp"]) if cell.get("polyp") else ("sand",) if cell.get("sand")
            else ("extra-growth space",) if cell.get("extra_growth") else ("bare rock",))
    shrimp = cell.get("shrimp")
    return (*what, None if shrimp is None else shrimp + 1)


def _read(words: str) -> tuple[str, tuple[Any, ...]]:
    found = CELL.match(words)
    assert found, words
    col, row, what, colour, shrimp = found.groups()
    read = ("polyp", colour) if colour else (what,)
    return f"{col}{row}", (*read, None if shrimp is None else int(shrimp))


def test_every_cell_of_every_board_reads_back_as_the_view_has_it() -> None:
    rules = registry.get(GAME)
    cells = 0
    for state in positions(GAME, every=9):
        view = rules.view(state, None)
        items = board_text(status_html(GAME, state, None))
        assert len(items) == len(view["boards"])
        for board, item in zip(view["boards"], items, strict=True):
            found = BOARD.match(item)
            assert found, item
            assert int(found.group(1)) == board["number"]
            read = dict(_read(words) for words in found.group(2).split("; "))
            expected = {f"{'ABCDEFG'[c]}{r + 1}": _expected(cell)
                        for r, row in enumerate(board["rows"]) for c, cell in enumerate(row)}
            assert read == expected
            cells += len(read)
    assert cells > 1000


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_boards_are_read_in_the_readers_language(lang: str) -> None:
    state = list(positions(GAME, every=40))[-1]
    items = board_text(status_html(GAME, state, 0, lang))
    english = board_text(status_html(GAME, state, 0))
    assert len(items) == len(english) and all(item.count("; ") == 41 for item in items)
    assert "polyp" in english[0] and "sand" not in items[0] and "bare rock" not in items[0]
