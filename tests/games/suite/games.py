"""The games the suite runs over: every game in the registry, and the host's test game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pbem.engine import registry
from tests.games.suite.hooks import Hooks, hooks_for
from tests.support.testgame import GAME as TEST_GAME


def games() -> dict[str, Any]:
    """By name; a game the registry knows under old names too is listed once."""
    found = {game.name: game for game in registry.games().values()}
    found.setdefault(TEST_GAME.name, TEST_GAME)
    return dict(sorted(found.items()))


def every_game() -> list[tuple[str, Any, Hooks]]:
    return [(name, game, hooks_for(game)) for name, game in games().items()]


@pytest.fixture(autouse=True)
def registered_test_game() -> Iterator[None]:
    """The host finds the test game by name while a test plays it through the processor."""
    known = TEST_GAME.name in registry.games()
    registry.register(TEST_GAME)
    yield
    if not known:
        registry.unregister(TEST_GAME.name)
