"""The player guide in README.md teaches orders that the game really reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.reef_encounter.parse import parse_order

README = Path(__file__).parents[3] / "README.md"


def guide() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("### Writing Reef Encounter orders")
    end = text.find("\n## ", start)
    return text[start:end if end > 0 else None]


def examples() -> list[str]:
    section = guide()
    inline = re.findall(r"`([^`]+)`", section)
    orders = [c for c in inline if c == "pass" or re.match(
        r"(eat|larva|shrimp|move|consumed|alga|take|parrotfish) ", c)]
    blocks = re.findall(r"\n\n((?:    .+\n)+)", section)
    return orders + [b.replace("\n    ", "\n").strip() for b in blocks]


def test_the_guide_has_examples() -> None:
    assert len(examples()) >= 12


@pytest.mark.parametrize("order", examples())
def test_every_example_in_the_guide_parses(order: str) -> None:
    assert parse_order(order).steps
