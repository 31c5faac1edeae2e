"""The Reef section of the README's player guide teaches orders the game really reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.reef2018.parse import parse_order

README = Path(__file__).parents[3] / "README.md"


def guide() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("### Writing Reef orders")
    end = re.search(r"\n##", text[start + 4:])
    return text[start:start + 4 + end.start()] if end else text[start:]


def examples() -> list[str]:
    return [c for c in re.findall(r"`([^`]+)`", guide())
            if re.match(r"(take|play|start)\b", c)]


def test_the_guide_has_an_example_of_every_form() -> None:
    found = examples()
    assert len(found) >= 8
    kinds = {type(parse_order(e)).__name__ for e in found}
    assert kinds == {"Start", "TakeMarket", "TakeDeck", "Play"}


@pytest.mark.parametrize("order", examples())
def test_every_example_in_the_guide_parses(order: str) -> None:
    parse_order(order)
