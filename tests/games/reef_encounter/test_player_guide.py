"""The player guide in docs/games/reef-encounter.md teaches orders that the game really reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.reef_encounter.parse import parse_order

README = Path(__file__).parents[3] / "docs" / "games" / "reef-encounter.md"


def guide() -> str:
    return README.read_text(encoding="utf-8")


def without_blocks(text: str) -> str:
    """The page without its fenced blocks (their fences would pair with inline code)."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def examples() -> list[str]:
    section = guide()
    inline = re.findall(r"`([^`]+)`", without_blocks(section))
    orders = [c for c in inline if c == "pass" or re.match(
        r"(eat|larva|shrimp|move|consumed|alga|take|parrotfish) ", c)]
    blocks = re.findall(r"```reef-encounter\n(.*?)```", section, re.S)
    return orders + [b.strip() for b in blocks]


def test_the_guide_has_examples() -> None:
    assert len(examples()) >= 12


@pytest.mark.parametrize("order", examples())
def test_every_example_in_the_guide_parses(order: str) -> None:
    assert parse_order(order).steps
