"""Status emails of a real game: golden files for a fixed seed, and no leak between seats.

Regenerate the golden files with ``PBEM_UPDATE_GOLDEN=1 pytest tests/games/reef_encounter``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.engine.chance import Chance
from pbem.processor.render import environment
from tests.games.reef_encounter.test_render import check_golden

GAME: Any = getattr(pytest.importorskip("pbem.games.reef_encounter"), "GAME", None)
if GAME is None:
    pytest.skip("the Reef Encounter rules are not there yet", allow_module_level=True)


def play(seats: int, turns: int) -> Any:
    """A game from the fixed seed after the setup answers and ``turns`` bot turns."""
    chance = Chance("fixed-seed")
    state = GAME.setup(seats, GAME.default_options(), chance)
    rng = random.Random(7)
    done = 0
    while done < turns + seats and GAME.waiting_for(state):
        seat = min(GAME.waiting_for(state))
        text = GAME.random_order(state, seat, rng)
        state = GAME.apply(state, seat, GAME.parse(state, seat, text), chance).state
        done += 1
    return state


def render(state: Any, seat: int | None) -> tuple[str, str]:
    env = environment(GAME)
    view = GAME.view(state, seat)
    text = env.get_template("reef_encounter/status.txt.j2").render(view=view, seat=seat)
    html = env.get_template("reef_encounter/status.html.j2").render(view=view, seat=seat)
    return text, html


@pytest.mark.parametrize("seat", [0, 1, None])
def test_fixed_seed_game_renders_as_golden(seat: int | None) -> None:
    text, html = render(play(2, 3), seat)
    check_golden(f"game2_seat{seat}.txt", text)
    check_golden(f"game2_seat{seat}.html", html)
