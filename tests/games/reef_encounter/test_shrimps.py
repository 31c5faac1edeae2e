"""Shrimps: new ones (action 4), moves (action 5), one per coral, two per board, bare rock."""

from tests.games.reef_encounter.positions import build, play, refused, texts

CORALS = """
~ ~ ~ . . . ~
. W W . G . ~
. . . . ~ G .
. ~ P . . . .
. . P . . . .
~ . . . . . ~
"""


def _me(**seat: object) -> dict[int, dict[str, object]]:
    base: dict[str, object] = {"larva": {"white": 1, "pink": 1}, "screen": {"white": 4}}
    base.update(seat)
    return {0: base}


def test_action_4_puts_a_new_shrimp_on_any_polyp_of_a_coral_without_a_shrimp() -> None:
    state = build({2: CORALS}, seats=_me())
    applied = play(state, 0, "shrimp new 2B2\ntake white")
    assert applied.state.shrimps == {"2:B2": 0}
    assert applied.state.players[0].shrimps_in_hand == 3
    assert "Purple put a new shrimp on the white coral at 2B2." in texts(applied)


def test_one_shrimp_per_coral() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W2 W . G . ~")
    err = refused(build({2: picture}, seats=_me()), 0, "shrimp new 2C2\ntake white")
    assert str(err) == ("step 1 (shrimp new 2C2): the white coral on 2C2 already has a shrimp "
                        "(green's, on 2B2); one shrimp per coral")


def test_a_new_shrimp_goes_on_a_polyp() -> None:
    err = refused(build({2: CORALS}, seats=_me()), 0, "shrimp new 2D2\ntake white")
    assert str(err) == "step 1 (shrimp new 2D2): a new shrimp goes on a polyp, and 2D2 has none"


def test_action_4_only_once_per_turn() -> None:
    err = refused(build({2: CORALS}, seats=_me()), 0, "shrimp new 2B2\nshrimp new 2C4\ntake pink")
    assert str(err) == ("step 1 (shrimp new 2C4): you may put in a new shrimp (action 4) only "
                        "once per turn")


def test_no_new_shrimp_when_none_is_left_behind_the_screen() -> None:
    state = build({2: CORALS}, seats=_me(fish_shrimps=3, sea_shrimp=True))
    err = refused(state, 0, "shrimp new 2B2\ntake white")
    assert str(err) == "step 1 (shrimp new 2B2): you have no shrimp left behind your screen"


def test_at_most_two_of_a_players_own_shrimps_on_one_board() -> None:
    picture = """
~ ~ ~ . . . ~
. W1 W . G1 . ~
. . . . ~ G .
. ~ P . . . .
. . P . . . .
~ . . . . . ~
"""
    state = build({2: picture}, seats=_me())
    err = refused(state, 0, "shrimp new 2C4\ntake white")
    assert str(err) == ("step 1 (shrimp new 2C4): you already have two shrimps on board 2; at "
                        "most two per board")
    # Moving one within the board is fine; moving one in from another board is not.
    play(state, 0, "move shrimp 2B2 to 2C4\ntake white")
    two_boards = build({2: picture, 1: CORALS_ON_1}, seats=_me())
    err = refused(two_boards, 0, "move shrimp 1B2 to 2C4\ntake white")
    assert "you already have two shrimps on board 2" in str(err)


CORALS_ON_1 = """
~ ~ ~ . . . ~
~ Y1 . . . . ~
. . ~ . . . .
. . . . . ~ .
. . . ~ . . .
. . . . . . .
"""


def test_action_5_moves_a_shrimp_to_another_polyp_of_its_coral_or_of_another_coral() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G . ~")
    state = build({2: picture}, seats=_me())
    assert play(state, 0, "move shrimp 2B2 to 2C2\ntake white").state.shrimps == {"2:C2": 0}
    assert play(state, 0, "move shrimp 2B2 to 2F3\ntake white").state.shrimps == {"2:F3": 0}


def test_action_5_takes_a_shrimp_home_behind_the_screen() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G . ~")
    new = play(build({2: picture}, seats=_me()), 0, "move shrimp 2B2 home\ntake white").state
    assert new.shrimps == {} and new.players[0].shrimps_in_hand == 4


def test_only_ones_own_shrimp_moves() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W2 W . G . ~")
    err = refused(build({2: picture}, seats=_me()), 0, "move shrimp 2B2 home\ntake white")
    assert str(err) == "step 1 (move shrimp 2B2 home): you have no shrimp on 2B2"


def test_a_shrimp_may_stand_on_bare_rock_during_its_owners_turn() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G . ~")
    state = build({2: picture}, seats=_me())
    new = play(state, 0, "move shrimp 2B2 to 2D3\nmove shrimp 2D3 to 2C2\ntake white").state
    assert new.shrimps == {"2:C2": 0}


def test_an_order_leaving_a_shrimp_on_bare_rock_is_refused() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G . ~")
    err = refused(build({2: picture}, seats=_me()), 0, "move shrimp 2B2 to 2D3\ntake white")
    assert str(err) == ("your turn cannot end like this: your shrimp on 2D3 stands on bare rock; "
                        "by the end of your turn it must be on a polyp or back behind your screen")


def test_a_polyp_placed_under_a_resting_shrimp_is_fine_once_the_shrimp_moves_onto_it() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G . ~")
    state = build({2: picture}, seats=_me())
    new = play(state, 0, "move shrimp 2B2 to 2D2\nlarva white: 2A2\nmove shrimp 2D2 to 2A2\n"
                         "take white").state
    assert new.shrimps == {"2:A2": 0}


def test_action_5_may_come_between_two_placements_of_one_larva_cube() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W W .1 G . ~")
    state = build({2: picture}, seats=_me())
    order = "larva white: 2A2\nmove shrimp 2D2 to 2A2\nplace 2D2\ntake white"
    new = play(state, 0, order).state
    assert new.polyps["2:D2"] == "white" and new.shrimps == {"2:A2": 0}


def test_a_shrimp_cannot_share_a_cell() -> None:
    picture = CORALS.replace(". W W . G . ~", ". W1 W . G2 . ~")
    err = refused(build({2: picture}, seats=_me()), 0, "move shrimp 2B2 to 2E2\ntake white")
    assert str(err) == "step 1 (move shrimp 2B2 to 2E2): 2E2 already holds a shrimp"
