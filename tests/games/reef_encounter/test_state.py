"""State serialisation: exact JSON round-trip and independent copies."""

import pytest

from pbem.games.reef_encounter.state import Player, State


def _sample() -> State:
    return State(
        boards=[2, 4],
        polyps={"2:D2": "grey", "4:B4": "white"},
        shrimps={"2:D2": 1},
        open_sea=[{"colour": "white", "polyps": ["grey", "pink"], "larva": 1}],
        bag={"grey": 38, "white": 39},
        players=[Player("purple", screen={"pink": 2}, parrotfish=["grey"]), Player("green")],
    )


def test_json_round_trip_is_exact() -> None:
    state = _sample()
    text = state.to_json()
    again = State.from_json(text)
    assert again == state
    assert again.to_json() == text


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown Reef Encounter state format"):
        State.from_json('{"format": 99}')


def test_copy_is_independent_of_the_original() -> None:
    state = _sample()
    other = state.copy()
    other.players[0].screen["pink"] = 5
    other.polyps["2:A2"] = "pink"
    assert state.players[0].screen == {"pink": 2}
    assert "2:A2" not in state.polyps


def test_copy_for_a_turn_copies_that_seat_and_shares_the_others() -> None:
    state = _sample()
    turn = state.copy_for(1)
    assert turn == state
    assert turn.players[0] is state.players[0]  # a turn never writes to another seat
    assert turn.players[1] is not state.players[1]
    turn.players[1].screen["white"] = 3
    turn.polyps["4:C4"] = "pink"
    assert turn.open_sea is state.open_sea  # only action 10 writes it, to a copy (take)
    assert state.players[1].screen == {} and "4:C4" not in state.polyps
