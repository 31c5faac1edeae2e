"""Action 7: alga cylinders on the alga space and on coral tiles; flipping and locking."""

from typing import Any

from pbem.games.reef_encounter.board import visible
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play, refused, texts

# Face a, large algae: blue on tiles 6, 7, 9; purple on 3, 8; green on 1, 4, 10; red on 2, 5.


def _state(sea_shrimp: bool = True, **fields: Any) -> State:
    seat = {"consumed": {"pink": 2, "orange": 1}, "sea_shrimp": sea_shrimp,
            "parrotfish": ["grey", "white"]}
    return build({}, seats={0: seat}, **fields)


def test_an_alga_on_the_alga_space_flips_every_uncovered_tile_showing_its_large_alga() -> None:
    state = _state(sea_shrimp=False)
    applied = play(state, 0, "alga blue on space paying pink\ntake white")
    new = applied.state
    assert new.alga_space == "blue"
    assert new.flipped_tiles == [6, 7, 9]
    assert visible(new, 7)[:2] == ("orange", "yellow")
    assert ("Purple paid a consumed pink polyp for a blue alga and put it on the alga space; coral "
            "tiles flipped: 6, 7, 9.") in texts(applied)


def test_the_paying_consumed_polyp_goes_into_the_bag() -> None:
    state = _state()
    new = play(state, 0, "alga blue on space paying pink\ntake white").state
    assert new.players[0].consumed == {"pink": 1, "orange": 1}
    assert new.alga_supply["blue"] == 4


def test_the_old_cylinder_on_the_alga_space_returns_to_the_supply() -> None:
    state = _state(alga_space="red")
    new = play(state, 0, "alga blue on space paying pink\ntake white").state
    assert new.alga_space == "blue" and new.alga_supply["red"] == 5


def test_many_algae_may_go_on_the_alga_space_in_one_turn() -> None:
    state = _state()
    new = play(state, 0, "alga blue on space paying pink\nalga blue on space paying pink\n"
                         "take white").state
    # The first flips 6, 7 and 9; then no tile shows a large blue alga, so the second flips none.
    assert new.flipped_tiles == [6, 7, 9]
    assert new.alga_supply["blue"] == 4


def test_an_alga_on_a_tile_locks_it_and_flips_the_other_uncovered_tiles_with_that_alga() -> None:
    state = _state(cylinders={"6": "blue"})
    new = play(state, 0, "alga blue on tile 7 paying pink\ntake white").state
    assert new.cylinders == {"6": "blue", "7": "blue"}
    assert new.flipped_tiles == [9]  # 6 is covered, 7 takes the cylinder
    new.to_move = 0
    again = play(new, 0, "alga blue on space paying pink\ntake white").state
    assert again.flipped_tiles == [9]  # no uncovered tile shows a large blue alga now
    assert visible(again, 7)[:2] == ("yellow", "orange")


def test_a_covered_tile_never_flips_again() -> None:
    state = _state(cylinders={"7": "blue"})
    new = play(state, 0, "alga blue on space paying pink\ntake white").state
    assert new.flipped_tiles == [6, 9]


def test_an_alga_on_a_tile_needs_a_shrimp_on_the_open_sea_board() -> None:
    err = refused(_state(sea_shrimp=False), 0, "alga blue on tile 7 paying pink\ntake white")
    assert str(err) == ("step 1 (alga blue on tile 7 paying pink): an alga goes on a coral tile "
                        "only once your parrotfish has eaten a coral (a shrimp of yours on the "
                        "open-sea board); use the alga space")


def test_only_one_alga_per_turn_on_a_coral_tile() -> None:
    err = refused(_state(), 0, "alga blue on tile 7 paying pink\nalga purple on tile 8 paying "
                               "pink\ntake white")
    assert str(err) == ("step 1 (alga purple on tile 8 paying pink): only one alga per turn may "
                        "go on a coral tile")


def test_the_alga_must_match_the_tiles_visible_large_alga() -> None:
    err = refused(_state(), 0, "alga red on tile 7 paying pink\ntake white")
    assert str(err) == ("step 1 (alga red on tile 7 paying pink): coral tile 7 shows a large blue "
                        "alga; only a blue alga may go on it")


def test_a_covered_tile_takes_no_second_cylinder() -> None:
    err = refused(_state(cylinders={"7": "blue"}), 0, "alga blue on tile 7 paying pink\ntake "
                                                      "white")
    assert str(err).endswith("coral tile 7 already holds a blue alga")


def test_an_alga_needs_a_consumed_polyp_to_pay_with() -> None:
    err = refused(_state(), 0, "alga blue on space paying white\ntake white")
    assert str(err) == ("step 1 (alga blue on space paying white): you have no consumed white "
                        "polyp in front of your screen to pay with")


def test_the_alga_colour_must_be_available() -> None:
    # Five blue cylinders out: tiles 6, 7, 9 (face a) and 1 (flipped), and the alga space.
    state = _state(cylinders={"1": "blue", "6": "blue", "7": "blue", "9": "blue"},
                   flipped_tiles=[1], alga_space="blue")
    assert state.alga_supply["blue"] == 0
    err = refused(state, 0, "alga blue on space paying pink\ntake white")
    assert str(err) == ("step 1 (alga blue on space paying pink): no blue alga cylinder is left "
                        "in the supply")


def test_the_last_uncovered_tile_needs_two_polyps_in_the_parrotfish() -> None:
    covered = {"1": "green", "2": "red", "3": "purple", "4": "green", "5": "red",
               "6": "blue", "8": "purple", "9": "blue", "10": "green"}
    state = _state(cylinders=covered)
    state.players[0].parrotfish = ["grey"]
    err = refused(state, 0, "alga blue on tile 7 paying pink\ntake white")
    assert str(err) == ("step 1 (alga blue on tile 7 paying pink): coral tile 7 is the last "
                        "uncovered one: covering it ends the game, which needs at least two "
                        "polyps in your parrotfish")


def test_a_cylinder_on_a_coral_tile_never_leaves_it() -> None:
    state = _state(cylinders={"7": "blue"}, alga_space="red")
    new = play(state, 0, "alga blue on space paying pink\nalga green on tile 1 paying pink\n"
                         "take white").state
    assert new.cylinders == {"7": "blue", "1": "green"}
    assert new.alga_supply["red"] == 5 and new.alga_supply["blue"] == 3
