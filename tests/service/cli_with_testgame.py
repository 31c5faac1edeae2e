"""``python -m tests.service.cli_with_testgame ARGS``: the real pbem CLI, with the test game."""

from __future__ import annotations

from pbem.cli import main
from pbem.engine import registry
from tests.support.testgame import GAME

if __name__ == "__main__":
    registry.register(GAME)
    main()
