"""MISE EN PLACE: supplies by player count, 3 one-point tokens, 2 hidden cards each, the
starfish board, starting corals (basic and advanced variant), the face-up deck and market."""

from __future__ import annotations

import pytest

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.cards import COLOURS
from pbem.games.reef2018.parse import parse_order
from pbem.games.reef2018.state import State


def new(players: int, advanced: bool = False, seed: str = "s") -> State:
    return GAME.setup(players, {"advanced": advanced}, Chance(seed))


@pytest.mark.parametrize(("players", "per_colour"), [(4, 28), (3, 24), (2, 18)])
def test_supplies_by_player_count_less_the_starting_corals(players: int,
                                                           per_colour: int) -> None:
    state = new(players)
    assert state.supply == {c: per_colour - players for c in COLOURS}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_three_one_point_tokens_and_two_hidden_cards_each(players: int) -> None:
    state = new(players)
    for i, seat in enumerate(state.players):
        assert seat.score == 3 and seat.ledger == [[3, "3 one-point tokens at the start"]]
        assert len(seat.hand) == 2
        others = GAME.view(state, (i + 1) % players)
        assert "hand" not in others["players"][i] and others["players"][i]["hand_count"] == 2
        assert [c["id"] for c in GAME.view(state, i)["you"]["hand"]] == seat.hand


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_market_holds_three_face_up_cards_and_the_deck_shows_its_top(players: int) -> None:
    state = new(players)
    assert len(state.market) == 3 and state.market_tokens == [0, 0, 0]
    assert len(state.deck) == 60 - 2 * players - 3
    shown = GAME.view(state, None)
    assert shown["deck_top"]["id"] == state.deck[0] and shown["deck_count"] == len(state.deck)
    assert [m["card"]["id"] for m in shown["market"]] == state.market
    every = state.deck + state.market + [c for s in state.players for c in s.hand]
    assert sorted(every) == list(range(1, 61))


def test_the_starfish_board_decides_the_start_player() -> None:
    starts = {new(4, seed=f"star-{i}").start_player for i in range(40)}
    assert starts == {0, 1, 2, 3}  # drawn, not always the first seat
    chance = Chance("star")
    state = GAME.setup(3, {}, chance)
    assert [d.label for d in chance.draws] == ["deck", "starfish board"]
    assert state.to_move == state.start_player == chance.draws[1].value


def _start(state: State, seat: int, text: str) -> State:
    return GAME.apply(state, seat, parse_order(text), Chance("x")).state


def test_starting_corals_go_on_the_four_central_squares_in_any_order() -> None:
    state = new(2)
    assert GAME.waiting_for(state) == {0, 1}
    state = _start(state, 0, "start: purple B2, green C2, yellow B3, red C3")
    assert [state.players[0].reef[s] for s in (5, 6, 9, 10)] == [["purple"], ["green"],
                                                                ["yellow"], ["red"]]
    assert GAME.waiting_for(state) == {1} and state.phase == "setup"
    state = _start(state, 1, "start: red B2, yellow C2, green B3, purple C3")
    assert state.phase == "play" and GAME.waiting_for(state) == {state.start_player}


@pytest.mark.parametrize(("text", "reason"), [
    ("start: red A1, yellow C2, green B3, purple C3",
     "the starting corals go one on each of the 4 central squares B2, C2, B3, C3"),
    ("start: red B2, yellow B2, green B3, purple C3",
     "the starting corals go one on each of the 4 central squares B2, C2, B3, C3"),
    ("start: red B2, red C2, green B3, purple C3",
     "the 4 starting corals are one of each colour: red, yellow, green, purple "
     "(you named red, red, green, purple)"),
])
def test_basic_starting_corals_break_no_rule(text: str, reason: str) -> None:
    with pytest.raises(IllegalOrder) as err:
        _start(new(2), 0, text)
    assert str(err.value) == reason


def test_advanced_variant_anywhere_but_the_centre_stacking_allowed() -> None:
    state = new(2, advanced=True)
    state = _start(state, 0, "start: red A1, yellow A1, green A1, purple D4")
    assert state.players[0].reef[0] == ["red", "yellow", "green"]
    with pytest.raises(IllegalOrder) as err:
        _start(state, 1, "start: red A1, yellow B2, green D4, purple C3")
    assert str(err.value) == ("in the advanced variant no starting coral goes on the 4 "
                              "central squares (B2, C2, B3, C3): B2, C3")


def test_setup_answers_once_and_play_orders_wait_for_it() -> None:
    state = _start(new(2), 0, "start: red B2, yellow C2, green B3, purple C3")
    with pytest.raises(IllegalOrder, match="already placed your starting corals"):
        _start(state, 0, "start: red B2, yellow C2, green B3, purple C3")
    with pytest.raises(IllegalOrder, match="first place your 4 starting corals"):
        GAME.apply(state, 1, parse_order("take deck"), Chance("x"))


def test_others_starting_corals_stay_hidden_until_everyone_has_placed() -> None:
    state = _start(new(2), 0, "start: red B2, yellow C2, green B3, purple C3")
    seen_by_ben = GAME.view(state, 1)["players"][0]
    assert all(cell["top"] is None for row in seen_by_ben["reef"] for cell in row)
    assert seen_by_ben["answered_setup"]
    state = _start(state, 1, "start: red B2, yellow C2, green B3, purple C3")
    assert GAME.view(state, 1)["players"][0]["reef"][1][1]["top"] == "red"


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown Reef options: colour"):
        GAME.setup(2, {"colour": "x"}, Chance("x"))
