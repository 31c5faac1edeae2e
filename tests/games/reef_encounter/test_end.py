"""The four end conditions, and the final round in which the others may only eat."""

from typing import Any

from pbem.games.reef_encounter import GAME
from pbem.games.reef_encounter.board import rock_cells
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play, refused, texts

NINE_COVERED = {"1": "green", "2": "red", "3": "purple", "4": "green", "5": "red",
                "6": "blue", "8": "purple", "9": "blue", "10": "green"}
SIX_WHITES = """
~ ~ ~ . . . ~
W2 W W W W W ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""


def _covering(players: int = 2, picture: str = SIX_WHITES, **fields: Any) -> State:
    seat = {"consumed": {"pink": 1}, "sea_shrimp": True, "parrotfish": ["grey", "white"]}
    return build({2: picture}, players=players, seats={0: seat}, cylinders=dict(NINE_COVERED),
                 **fields)


def test_end_when_all_coral_tiles_are_covered_then_a_final_round() -> None:
    state = _covering(players=3)
    applied = play(state, 0, "alga blue on tile 7 paying pink")
    new = applied.state
    assert (new.phase, new.final_turns, new.to_move) == ("final", [1, 2], 1)
    assert new.end_reason == "all ten coral tiles are covered by algae"
    assert ("The game ends: all ten coral tiles are covered by algae. Every other player has one "
            "final turn, in which the only action is action 1 (the parrotfish eats).") in texts(
        applied)
    assert GAME.waiting_for(new) == frozenset({1})
    new = play(new, 1, "pass").state
    assert (new.to_move, new.final_turns) == (2, [2])
    new = play(new, 2, "pass").state
    assert new.phase == "over" and GAME.waiting_for(new) == frozenset()


def test_the_game_ends_at_once_so_nothing_may_follow_the_ending_step() -> None:
    err = refused(_covering(), 0, "alga blue on tile 7 paying pink\ntake pink")
    assert str(err) == ("step 1 (take pink): the game ended earlier in this turn; nothing more "
                        "may be done")


def test_in_the_final_turn_the_only_action_is_action_1() -> None:
    new = play(_covering(), 0, "alga blue on tile 7 paying pink").state
    err = refused(new, 1, "take pink")
    assert str(err) == ("step 1 (take pink): in your final turn the only action is action 1: eat "
                        "a coral (or pass)")
    err = refused(new, 1, "move shrimp 2A2 home")
    assert "in your final turn the only action is action 1" in str(err)


def test_in_the_final_turn_five_polyps_go_back_into_the_bag() -> None:
    new = play(_covering(), 0, "alga blue on tile 7 paying pink").state
    fish = list(new.players[1].parrotfish)
    over = play(new, 1, "eat 2A2").state
    assert over.players[1].parrotfish == [*fish, "white"]  # 6 polyps: 5 to the bag, 1 eaten
    assert over.phase == "over"


def test_in_the_advanced_game_six_polyps_go_back_in_the_final_round() -> None:
    picture = SIX_WHITES.replace(". . . . ~ . .", "W . . . ~ . .")
    new = play(_covering(picture=picture, advanced=True), 0, "alga blue on tile 7 paying pink")
    over = play(new.state, 1, "eat 2A2").state
    assert over.players[1].parrotfish.count("white") == 1  # 7 polyps: 6 to the bag


def test_end_when_a_parrotfish_has_eaten_all_four_of_its_players_shrimps() -> None:
    picture = SIX_WHITES.replace("W2", "W1")
    state = build({2: picture}, players=3, to_move=1,
                  seats={0: {"sea_shrimp": True, "fish_shrimps": 2}})
    state.to_move = 0
    applied = play(state, 0, "eat 2A2")
    new = applied.state
    assert new.players[0].fish_shrimps == 3
    assert new.end_reason == "Purple's parrotfish has eaten all four of Purple's shrimps"
    assert (new.phase, new.final_turns) == ("final", [1, 2])


def test_end_when_no_polyp_can_be_placed_anywhere() -> None:
    state = build({}, seats={0: {"larva": {"grey": 1}, "screen": {"grey": 1}}})
    colours = ["white", "pink"]
    for b in state.boards:
        for i, k in enumerate(rock_cells()[b]):
            state.polyps[k] = colours[(i // 7 + i) % 2]
    del state.polyps["2:D1"]
    applied = play(state, 0, "larva grey: 2D1")  # the game stops at once: no action 10
    assert applied.state.phase == "over"
    assert applied.state.end_reason == "no polyp can be placed anywhere: every rock space is taken"
    assert "The game ends: no polyp can be placed anywhere: every rock space is taken." in texts(
        applied)


def test_end_when_action_10_cannot_be_refilled_for_lack_of_a_larva_cube() -> None:
    state = build({}, seats={0: {"larva": {"pink": 9}}})
    assert state.larva_supply["pink"] == 0
    new = play(state, 0, "take pink").state
    assert new.phase == "over"
    assert new.end_reason == "the open sea cannot be refilled (not enough polyps or larva cubes)"
    assert new.players[0].larva["pink"] == 10  # the take itself happened


def test_end_when_action_10_cannot_be_refilled_for_lack_of_polyps() -> None:
    state = build({})
    state.players[1].screen = dict(state.bag)
    state.bag = {"grey": 1}
    state.players[1].screen["grey"] -= 1
    new = play(state, 0, "take pink").state  # five spaces need a polyp: 1 + 5 bonus is enough
    assert new.phase == "play"
    new.to_move = 0
    new = play(new, 0, "take grey").state  # now one polyp is short
    assert new.phase == "over"


def test_the_game_is_over_for_orders() -> None:
    state = build({}, phase="over")
    err = refused(state, 0, "take pink")
    assert str(err) == "the game is over; no more orders are taken"


def test_the_last_final_turn_says_the_game_is_over() -> None:
    new = play(_covering(), 0, "alga blue on tile 7 paying pink").state
    applied = play(new, 1, "pass")
    assert texts(applied) == ["Green has played their final turn.",
                              "The game is over: every final turn has been played."]
