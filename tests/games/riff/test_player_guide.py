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


def test_every_example_on_the_guide_pages_reads_in_its_language(tmp_path: Path) -> None:
    from pbem.engine.chance import Chance
    from pbem.games.riff import GAME
    from pbem.games.riff.keywords import fold, words
    from tests.support.guide_pages import game_help_on_pages

    state = GAME.setup(2, GAME.default_options(), Chance("guide"))
    for lang, text in game_help_on_pages(tmp_path, GAME.name).items():
        verbs = {fold(w) for english in VERBS for w in words(lang)[english]} | set(VERBS)
        shown = [m.group(1) for line in text.splitlines()
                 if (m := re.match(r"^  (\S.*?)(?:\s{2,}|$)", line))
                 and fold(m.group(1).split()[0]) in verbs]
        assert len(shown) >= 15, (lang, shown)
        for example in shown:
            assert GAME.parse(state, 0, GAME.canonical_order(state, 0, example, lang)), example
