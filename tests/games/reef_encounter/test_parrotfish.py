"""Action 1: the parrotfish eats a coral of 5+ guarded by one's own shrimp."""

from typing import Any

from pbem.games.reef_encounter.state import State
from tests.games.reef_encounter.positions import build, play, refused, texts

FIVE_WHITES = """
~ ~ ~ . . . ~
W1 W W W W . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
SIX_WHITES = FIVE_WHITES.replace("W1 W W W W . ~", "W1 W W W W W ~")


def _state(picture: str = SIX_WHITES, **fields: Any) -> State:
    return build({2: picture}, seats={0: {"parrotfish": ["pink"]}}, **fields)


def test_four_polyps_go_back_into_the_bag_and_the_rest_into_the_parrotfish() -> None:
    state = _state()
    applied = play(state, 0, "eat 2B2\ntake white")
    new = applied.state
    assert not any(k.startswith("2:") and k[3] == "2" for k in new.polyps)
    assert sorted(new.players[0].parrotfish) == ["pink", "white", "white"]
    sea_whites = sum(s["polyps"].count("white") for s in new.open_sea)
    assert new.bag.get("white", 0) + sea_whites == state.bag["white"] + 4


def test_what_goes_into_the_parrotfish_is_told_only_to_its_owner() -> None:
    applied = play(_state(), 0, "eat 2B2\ntake white")
    assert ("Purple's parrotfish ate the 6-polyp white coral at 2B2: 4 polyps went back into the "
            "bag, its shrimp went to the open-sea board.") in texts(applied)
    mine = [e for e in applied.events if e.visible_to == frozenset({0})]
    assert [e.text for e in mine] == ["2 white polyps went into your parrotfish."]
    assert "2 white polyps went into your parrotfish." not in texts(applied, 1)


def test_the_first_shrimp_eaten_goes_to_the_open_sea_board() -> None:
    new = play(_state(), 0, "eat 2A2\ntake white").state
    assert new.players[0].sea_shrimp and new.players[0].fish_shrimps == 0
    assert new.shrimps == {}


def test_later_shrimps_eaten_go_into_the_parrotfish() -> None:
    new = play(_sea_state(), 0, "eat 2A2\ntake white").state
    assert new.players[0].sea_shrimp and new.players[0].fish_shrimps == 2


def _sea_state() -> State:
    state = _state()
    state.players[0].sea_shrimp = True
    state.players[0].fish_shrimps = 1
    state.players[0].shrimps_in_hand = 1
    return state


def test_the_coral_needs_at_least_five_polyps() -> None:
    picture = FIVE_WHITES.replace("W1 W W W W . ~", "W1 W W W . . ~")
    err = refused(_state(picture), 0, "eat 2A2\ntake white")
    assert str(err) == ("step 1 (eat 2A2): the white coral on 2A2 has 4 polyps; the parrotfish "
                        "eats only corals of at least 5")
    new = play(_state(FIVE_WHITES), 0, "eat 2A2\ntake white").state
    assert new.players[0].parrotfish == ["pink", "white"]


def test_the_coral_must_be_guarded_by_ones_own_shrimp() -> None:
    err = refused(_state(SIX_WHITES.replace("W1", "W2")), 0, "eat 2A2\ntake white")
    assert str(err) == ("step 1 (eat 2A2): the white coral on 2A2 is guarded by green's shrimp, "
                        "not yours")
    err = refused(_state(SIX_WHITES.replace("W1", "W ")), 0, "eat 2A2\ntake white")
    assert str(err) == ("step 1 (eat 2A2): the white coral on 2A2 has no shrimp; the parrotfish "
                        "eats only a coral guarded by your own shrimp")


def test_there_must_be_a_coral_to_eat() -> None:
    err = refused(_state(), 0, "eat 2A3\ntake white")
    assert str(err) == "step 1 (eat 2A3): there is no coral on 2A3"


def test_action_1_may_only_be_the_first_action_of_a_turn() -> None:
    state = _state()
    state.players[0].larva = {"grey": 1}
    state.players[0].screen = {"grey": 1}
    err = refused(state, 0, "larva grey: 2A4\neat 2A2\ntake white")
    assert str(err) == ("step 1 (eat 2A2): action 1 (the parrotfish eats) may only be the first "
                        "action of a turn")
    err = refused(state, 0, "move shrimp 2A2 to 2B2\neat 2A2\ntake white")
    assert (err.line, err.step) == (2, 1)  # steps count within their line


def test_the_advanced_game_returns_five_polyps_to_the_bag() -> None:
    new = play(_state(advanced=True), 0, "eat 2A2\ntake white").state
    assert new.players[0].parrotfish == ["pink", "white"]
