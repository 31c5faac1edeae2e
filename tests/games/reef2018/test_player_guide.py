"""The Reef page of the players' guide (docs/games/reef-2018.md) teaches orders the game
really reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.reef2018.parse import parse_order

README = Path(__file__).parents[3] / "docs" / "games" / "reef-2018.md"


def guide() -> str:
    return README.read_text(encoding="utf-8")


def without_blocks(text: str) -> str:
    """The page without its fenced blocks (their fences would pair with inline code)."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def examples() -> list[str]:
    return [c for c in re.findall(r"`([^`]+)`", without_blocks(guide()))
            if re.match(r"(take|play|start)\b", c)]


def test_the_guide_has_an_example_of_every_form() -> None:
    found = examples()
    assert len(found) >= 8
    kinds = {type(parse_order(e)).__name__ for e in found}
    assert kinds == {"Start", "TakeMarket", "TakeDeck", "Play"}


@pytest.mark.parametrize("order", examples())
def test_every_example_in_the_guide_parses(order: str) -> None:
    parse_order(order)


def test_every_example_on_the_guide_pages_reads_in_its_language(tmp_path: Path) -> None:
    from pbem.games.reef2018 import GAME
    from pbem.games.reef2018.help import EXAMPLES
    from pbem.games.reef2018.keywords import canonical_order
    from tests.support.guide_pages import game_help_on_pages

    for lang, text in game_help_on_pages(tmp_path, GAME.name).items():
        for english in EXAMPLES:
            local = GAME.localise_order(english, lang)
            assert local in text, (lang, local)
            assert parse_order(canonical_order(local, lang)) == parse_order(english)
