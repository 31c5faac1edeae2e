"""The player guide in README.md teaches Das Riff orders that the game really reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.riff.components import default_options
from pbem.games.riff.parse import parse_order

README = Path(__file__).parents[3] / "README.md"
VERBS = ("buy", "flip", "boat", "attach", "shark", "prefer", "pass")


def guide() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("### Writing Das Riff orders")
    end = text.find("\n#", start + 5)
    return text[start:end if end > 0 else None]


def examples() -> list[str]:
    section = guide()
    inline = [c for c in re.findall(r"`([^`]+)`", section) if c.split()[0] in VERBS]
    blocks = re.findall(r"\n\n((?:    .+\n)+)", section)
    return inline + [b.replace("\n    ", "\n").strip() for b in blocks]


def test_the_guide_has_an_example_of_every_order() -> None:
    found = examples()
    assert len(found) >= 14
    assert {e.split()[0] for e in found} == set(VERBS)


@pytest.mark.parametrize("order", examples())
def test_every_example_in_the_guide_parses(order: str) -> None:
    assert parse_order(order, default_options()["colour_names"]).steps
