"""Every example order on the documentation site is read by its game's own parser, so the
pages cannot drift from the grammar. An example is marked in the Markdown as a fenced block
whose info string is a game's id (one whole mail's orders), or as inline code in the ``Write``
column of a table on a game's page (one order)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.engine import registry
from pbem.engine.chance import Chance

DOCS = Path(__file__).parents[2] / "docs"
FENCE = re.compile(r"^```([\w-]+)[^\n]*\n(.*?)^```", re.S | re.M)


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def write_column(text: str) -> list[str]:
    """Inline code in the ``Write`` column of the page's tables (fenced blocks left out)."""
    found: list[str] = []
    column = None
    for line in FENCE.sub("", text).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith(
            "|") else None
        if cells is None:
            column = None
        elif "Write" in cells:
            column = cells.index("Write")
        elif column is not None and not set(cells[0]) <= set("-: ") and column < len(cells):
            found += re.findall(r"`([^`]+)`", cells[column])
    return found


def examples() -> list[tuple[str, str, str]]:
    """(page, game id, order text) for every marked example."""
    ids = set(registry.games())
    out: list[tuple[str, str, str]] = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(DOCS).as_posix()
        out += [(name, info, body.strip()) for info, body in FENCE.findall(text)
                if info in ids]
        if page.parent.name == "games":
            out += [(name, page.stem, order) for order in write_column(text)]
    return out


def state_of(game: str) -> Any:
    rules = registry.get(game)
    return rules.setup(rules.min_players, rules.default_options(), Chance("docs"))


def test_every_game_page_marks_examples_of_its_game() -> None:
    found = examples()
    games = {g for _, g, _ in found}
    assert games == set(registry.games()), "a game without examples on the site"
    for game in games:
        assert len([e for e in found if e[1] == game]) >= 8, game
    assert (DOCS / "games").is_dir() and {p.stem for p in (DOCS / "games").glob("*.md")} \
        == set(registry.games())


@pytest.mark.parametrize(("page", "game", "order"), examples())
def test_every_example_order_on_the_site_parses(page: str, game: str, order: str) -> None:
    rules = registry.get(game)
    assert rules.parse(state_of(game), 0, order) is not None, (page, order)


def test_a_wrong_example_is_found() -> None:
    """The check can fail: an order its game cannot read is refused."""
    from pbem.engine.errors import OrderSyntaxError

    game = sorted(registry.games())[0]
    with pytest.raises(OrderSyntaxError):
        registry.get(game).parse(state_of(game), 0, "fly to the moon")
