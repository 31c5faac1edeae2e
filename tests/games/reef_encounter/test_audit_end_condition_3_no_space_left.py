"""End condition 3 ('Il ne reste aucun emplacement pour jouer un polype'), audited.

The French 'Fin de la partie': "La partie s'arrête immédiatement lorsqu'un des événements
suivants a lieu" — so the game stops at the placement that takes the last rock space, in the
middle of the turn: nothing more may follow (not even action 10), and there is no final round
(only events 1 and 2 give one).
"""

from pbem.games.reef_encounter.board import rock_cells
from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import balance, build, play, refused, texts

REASON = "no polyp can be placed anywhere: every rock space is taken"


def _all_but(*free: str, **seat: object) -> State:
    """Every rock space of both boards holds a non-grey polyp, except ``free``."""
    me = {"larva": {"grey": 1}, "screen": {"grey": 2}, **seat}
    state = build({}, seats={0: me})
    colours = ["white", "pink", "orange", "yellow"]
    for b in state.boards:
        for i, k in enumerate(rock_cells()[b]):
            state.polyps[k] = colours[i % 4]
    for k in free:
        del state.polyps[k]
    balance(state)
    return state


def test_end_condition_3_stops_the_game_at_the_placement_taking_the_last_rock_space() -> None:
    applied = play(_all_but("2:D1"), 0, "larva grey: 2D1")
    new = applied.state
    assert (new.phase, new.end_reason, new.final_turns) == ("over", REASON, [])
    assert f"The game ends: {REASON}." in texts(applied)
    assert new.players[0].larva == {}  # no action 10 was taken


def test_end_condition_3_refuses_the_rest_of_the_turn_even_action_10() -> None:
    err = refused(_all_but("2:D1"), 0, "larva grey: 2D1\ntake white")
    assert str(err) == ("step 1 (take white): the game ended earlier in this turn; nothing more "
                        "may be done")


def test_end_condition_3_refuses_a_further_placement_of_the_same_larva_cube() -> None:
    # A second grey polyp of the same cube is refused before anything else is checked.
    err = refused(_all_but("2:D1"), 0, "larva grey: 2D1 2A3")
    assert str(err) == ("the polyp on 2A3: the game ended earlier in this turn; nothing more may "
                        "be done")


def test_end_condition_3_has_no_final_round() -> None:
    new = play(_all_but("2:D1"), 0, "larva grey: 2D1").state
    assert new.phase == "over" and new.final_turns == []


def test_end_condition_3_is_reached_by_extra_growth_too() -> None:
    # 2:C4 and the starfish 2:D4 are the last free spaces: the grey polyp on 2:C4 grows a bonus
    # grey polyp on 2:D4, and that fills the rock.
    state = _all_but("2:C4", "2:D4")
    applied = play(state, 0, "larva grey: 2C4")
    assert applied.state.polyps["2:D4"] == "grey"
    assert applied.state.phase == "over" and applied.state.end_reason == REASON


def test_the_game_goes_on_while_one_rock_space_is_free() -> None:
    new = play(_all_but("2:D1", "2:E1"), 0, "larva grey: 2D1\ntake white").state
    assert new.phase == "play" and new.to_move == 1
