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


GUIDE_EXAMPLE = re.compile(r"^(?:  \d{1,2} {1,2}|  |     )(?=\S)(.+?)(?:\s{3,}.*)?$")


def test_every_example_on_the_guide_pages_reads_in_its_language(tmp_path: Path) -> None:
    from pbem.games.reef_encounter import GAME
    from pbem.games.reef_encounter.keywords import canonical_order
    from tests.support.guide_pages import game_help_on_pages

    for lang, text in game_help_on_pages(tmp_path, GAME.name).items():
        shown = [m[1] for ln in text.splitlines() if (m := GUIDE_EXAMPLE.match(ln))]
        assert len(shown) > 20, lang
        for example in shown:
            for part in example.split(" / "):
                assert parse_order(canonical_order(part, lang)).steps, (lang, part)
