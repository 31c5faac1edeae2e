"""Das Riff's fishing area read back from its text equivalent: a reader who cannot see the
picture gets every place of every row, what lies there, and each row's cost."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pbem.engine import registry
from pbem.i18n.translate import LANGUAGES
from tests.support.board_text import board_text
from tests.support.boards import positions, status_html

GAME = "das-riff"
ROW = re.compile(r"(.+) \((\d+)\): (.+)\.$")
FISH = re.compile(r"(\w+) (male|female) fish$")


def _place(words: str) -> Any:
    """A place's words as what the view holds there (its fields that say what lies there)."""
    if words == "empty":
        return None
    if words == "face down":
        return "down"
    found = FISH.match(words)
    if found:
        return ("fish", found.group(1), found.group(2)[0])
    return (words,)


def _expected(cell: Any) -> Any:
    if cell is None:
        return None
    if not cell.get("up"):
        return "down"
    if cell["kind"] == "fish":
        return ("fish", cell["colour"], cell["sex"])
    return (cell["kind"],)


def test_every_place_of_the_area_reads_back_as_the_view_has_it() -> None:
    rules = registry.get(GAME)
    places = 0
    for state in positions(GAME, every=5):
        for seat in (None, 0, 1):
            view = rules.view(state, seat)
            items = board_text(status_html(GAME, state, seat))
            assert len(items) == len(view["rows"])
            for row, item in zip(view["rows"], items, strict=True):
                found = ROW.match(item)
                assert found, item
                name, cost, read = found.groups()
                assert (name, int(cost)) == (row["name"], row["cost"])
                said = read.split(", ")
                assert [w.split(" ", 1)[0] for w in said] == [str(c) for c in range(1, 9)]
                assert [_place(w.split(" ", 1)[1]) for w in said] == \
                    [_expected(c) for c in row["cells"]]
                places += len(said)
    assert places > 500


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_area_is_read_in_the_readers_language(lang: str) -> None:
    state = list(positions(GAME, every=10))[-1]
    items = board_text(status_html(GAME, state, 0, lang))
    english = board_text(status_html(GAME, state, 0))
    assert len(items) == len(english) == 4
    assert all(item.count(", ") == 7 for item in items)
    assert items != english
