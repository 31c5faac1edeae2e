"""The player guide in docs/games/das-riff.md teaches Das Riff orders that the game really reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.riff.components import default_options
from pbem.games.riff.parse import parse_order

README = Path(__file__).parents[3] / "docs" / "games" / "das-riff.md"
VERBS = ("buy", "flip", "boat", "attach", "shark", "prefer", "pass")


def guide() -> str:
    return README.read_text(encoding="utf-8")


def without_blocks(text: str) -> str:
    """The page without its fenced blocks (their fences would pair with inline code)."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def examples() -> list[str]:
    section = guide()
    inline = [c for c in re.findall(r"`([^`]+)`", without_blocks(section)) if c.split()[0] in VERBS]
    blocks = re.findall(r"```das-riff\n(.*?)```", section, re.S)
    return inline + [b.strip() for b in blocks]


def test_the_guide_has_an_example_of_every_order() -> None:
    found = examples()
    assert len(found) >= 14
    assert {e.split()[0] for e in found} == set(VERBS)


@pytest.mark.parametrize("order", examples())
def test_every_example_in_the_guide_parses(order: str) -> None:
    assert parse_order(order, default_options()["colour_names"]).steps
