"""The secret setup step: parrotfish polyp from behind the screen, two larva cubes."""

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef_encounter.orders import SetupAnswer
from pbem.games.reef_encounter.setup import setup
from pbem.games.reef_encounter.setup_answer import apply_setup_answer
from pbem.games.reef_encounter.state import State


def _state() -> State:
    state = setup(2, {}, Chance("answer"))
    state.players[0].screen = {"pink": 1, "white": 5}
    state.players[1].screen = {"grey": 9}
    return state


def test_answer_moves_a_polyp_to_the_parrotfish_and_takes_two_larvae() -> None:
    state = _state()
    new = apply_setup_answer(state, 0, SetupAnswer("pink", ("white", "white")))
    assert new.players[0].screen == {"white": 5}
    assert new.players[0].parrotfish == ["pink"]
    assert new.players[0].larva == {"white": 2}
    assert new.larva_supply["white"] == state.larva_supply["white"] - 2
    assert new.phase == "setup"
    assert state.players[0].parrotfish == []  # the original is untouched


def test_play_begins_when_every_seat_has_answered() -> None:
    state = apply_setup_answer(_state(), 0, SetupAnswer("white", ("grey", "pink")))
    state = apply_setup_answer(state, 1, SetupAnswer("grey", ("yellow", "orange")))
    assert state.phase == "play"


def test_parrotfish_polyp_must_be_behind_the_screen() -> None:
    with pytest.raises(IllegalOrder, match="you have no grey polyp behind your screen"):
        apply_setup_answer(_state(), 0, SetupAnswer("grey", ("white", "pink")))


def test_a_seat_answers_only_once() -> None:
    state = apply_setup_answer(_state(), 0, SetupAnswer("white", ("grey", "pink")))
    with pytest.raises(IllegalOrder, match="you have already answered the setup step"):
        apply_setup_answer(state, 0, SetupAnswer("white", ("grey", "pink")))


def test_larvae_must_be_in_the_supply() -> None:
    state = _state()
    state.larva_supply["yellow"] = 1
    with pytest.raises(IllegalOrder, match="not enough yellow larva cubes left in the supply"):
        apply_setup_answer(state, 0, SetupAnswer("white", ("yellow", "yellow")))


def test_no_setup_answer_once_play_has_begun() -> None:
    state = _state()
    state.phase = "play"
    with pytest.raises(IllegalOrder, match="the setup step is over"):
        apply_setup_answer(state, 0, SetupAnswer("white", ("grey", "pink")))
