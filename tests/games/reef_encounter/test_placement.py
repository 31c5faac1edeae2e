"""Placing polyps (actions 2 and 3): bare rock, merging, the two-shrimp join ban, extra growth."""

from pbem.games.reef_encounter.board import coral
from tests.games.reef_encounter.positions import build, play, refused, texts

# Board 2; D4 is its extra-growth (starfish) space.
GREY_PAIR = """
~ ~ ~ . . . ~
. G G . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""


def _me(**seat: object) -> dict[int, dict[str, object]]:
    base: dict[str, object] = {"larva": {"grey": 1, "white": 1}, "screen": {"grey": 6}}
    base.update(seat)
    return {0: base}


def test_a_polyp_goes_on_empty_bare_rock_and_starts_a_coral() -> None:
    state = build({2: GREY_PAIR}, seats=_me())
    new = play(state, 0, "larva grey: 2F5\ntake white").state
    assert new.polyps["2:F5"] == "grey"
    assert coral(new, "2:F5") == ["2:F5"]
    assert new.players[0].screen == {"grey": 5}
    assert new.players[0].larva.get("grey", 0) == 0


def test_a_polyp_never_goes_on_sand() -> None:
    err = refused(build({2: GREY_PAIR}, seats=_me()), 0, "larva grey: 2A1\ntake white")
    assert str(err) == "the polyp on 2A1: 2A1 is sand; nothing can stand there"
    assert (err.step, err.line) == (2, 1)


def test_a_polyp_goes_only_on_a_board_in_the_game() -> None:
    state = build({2: GREY_PAIR}, seats=_me())
    err = refused(state, 0, "larva grey: 3B2\ntake white")
    assert str(err) == "the polyp on 3B2: board 3 is not in this game (boards in play: 1, 2)"


def test_a_polyp_never_goes_where_a_shrimp_stands() -> None:
    picture = GREY_PAIR.replace(". G G . . . ~", ". G G .1 . . ~")
    state = build({2: picture}, seats=_me())
    err = refused(state, 0, "larva grey: 2D2\nmove shrimp 2D2 to 2C2\ntake white")
    assert str(err) == ("the polyp on 2D2: your shrimp stands on 2D2; move it away first (action "
                        "5)")


def test_a_new_polyp_merges_with_every_adjacent_coral_of_its_colour() -> None:
    picture = """
~ ~ ~ . . . ~
. G G . G . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, seats=_me())
    new = play(state, 0, "larva grey: 2D2\ntake white").state
    assert coral(new, "2:B2") == ["2:B2", "2:C2", "2:D2", "2:E2"]


def test_a_polyp_may_not_connect_two_corals_of_its_colour_that_both_hold_a_shrimp() -> None:
    picture = """
~ ~ ~ . . . ~
. G G1 . G2 . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, seats=_me())
    err = refused(state, 0, "larva grey: 2D2\ntake white")
    assert str(err) == ("the polyp on 2D2: a grey polyp on 2D2 would join two grey corals that "
                        "both "
                        "hold a shrimp")


def test_up_to_four_polyps_from_behind_the_screen_plus_any_consumed_ones() -> None:
    state = build({2: GREY_PAIR}, seats=_me(consumed={"grey": 2}))
    new = play(state, 0, "larva grey: 2A2 2A3 2B3 2C3 consumed 2D3 2A4\ntake white").state
    assert new.players[0].screen == {"grey": 2} and new.players[0].consumed == {}
    err = refused(state, 0, "larva grey: 2A2 2A3 2B3 2C3 2D3\ntake white")
    assert str(err) == ("the polyp on 2D3: at most four polyps from behind the screen per larva "
                        "cube "
                        "(write \"consumed\" before cells for polyps from in front of it)")


def test_polyps_placed_are_of_the_larva_cubes_colour_and_must_be_there() -> None:
    state = build({2: GREY_PAIR}, seats=_me())
    err = refused(state, 0, "larva white: 2F5\ntake white")
    assert str(err) == "the polyp on 2F5: you have no white polyp left behind your screen"
    err = refused(state, 0, "larva grey: consumed 2F5\ntake white")
    assert str(err) == "the polyp on 2F5: you have no consumed grey polyp in front of your screen"


def test_a_larva_cube_needs_to_be_owned() -> None:
    err = refused(build({2: GREY_PAIR}, seats=_me()), 0, "larva pink: 2F5\ntake white")
    assert str(err) == ("step 1 (larva pink): you have no pink larva cube (your larva cubes, "
                        "as your status lists them: grey, white)")


def test_a_larva_cube_must_be_followed_by_at_least_one_placement() -> None:
    state = build({2: GREY_PAIR}, seats=_me())
    err = refused(state, 0, "larva grey\ntake white")
    assert str(err) == ("step 1 (take white): the grey larva cube of action 2 must be followed "
                        "by at least one polyp placement before any other action")
    err = refused(state, 0, "larva grey\nlarva white: 2F5\ntake white")
    assert (err.line, err.step) == (2, 1)  # steps count within their line


def test_a_placement_needs_a_larva_cube_first() -> None:
    err = refused(build({2: GREY_PAIR}, seats=_me()), 0, "place 2F5\ntake white")
    assert str(err) == "step 1 (2F5): play a larva cube first, e.g. \"larva white: 2F3\""


# --- extra growth ------------------------------------------------------------------------------

STARFISH = """
~ ~ ~ . . . ~
. . . . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""


def test_extra_growth_fills_the_empty_starfish_space_at_once_with_a_bonus_polyp() -> None:
    state = build({2: STARFISH}, seats=_me())
    applied = play(state, 0, "larva grey: 2D3\ntake white")
    new = applied.state
    assert new.polyps["2:D4"] == "grey"
    assert coral(new, "2:D3") == ["2:D3", "2:D4"]
    assert "Extra growth: a bonus grey polyp grew on 2D4." in texts(applied)
    assert new.bonus["grey"] == 1  # refilled from the bag
    sea_greys = sum(s["polyps"].count("grey") for s in new.open_sea)
    assert new.bag["grey"] + sea_greys == state.bag["grey"] - 1


def test_extra_growth_does_not_count_towards_the_four_polyp_limit() -> None:
    state = build({2: STARFISH}, seats=_me())
    new = play(state, 0, "larva grey: 2D3 2D2 2C2 2B2\ntake white").state
    assert sum(1 for c in new.polyps.values() if c == "grey") == 5
    assert new.players[0].screen == {"grey": 2}


def test_extra_growth_comes_before_anything_else_so_a_polyp_cannot_go_there_next() -> None:
    state = build({2: STARFISH}, seats=_me())
    err = refused(state, 0, "larva grey: 2D3 2D4\ntake white")
    assert str(err) == ("the polyp on 2D4: 2D4 already holds a grey polyp (a coral never attacks "
                        "its "
                        "own colour)")


def test_no_extra_growth_if_it_would_join_two_shrimp_held_corals() -> None:
    picture = """
~ ~ ~ . . . ~
. . . . . . ~
. . . . ~ . .
. ~ G1 . . . .
. . . . G2 . .
~ . . . . . ~
"""
    state = build({2: picture}, seats=_me())
    # 2D5 joins the shrimp-held coral on 2E5 and touches the starfish 2D4, which touches the
    # other shrimp-held grey coral, on 2C4.
    new = play(state, 0, "larva grey: 2D5\ntake white").state
    assert new.polyps["2:D5"] == "grey"
    assert "2:D4" not in new.polyps


def test_no_extra_growth_without_a_polyp_of_that_colour_in_the_bonus_polyps_or_the_bag() -> None:
    state = build({2: STARFISH}, seats=_me(), bonus={"white": 1})
    state.players[1].screen = {"grey": state.bag.pop("grey")}
    new = play(state, 0, "larva grey: 2D3\ntake white").state
    assert "2:D4" not in new.polyps


def test_a_missing_bonus_polyp_is_topped_up_from_the_bag_when_needed() -> None:
    state = build({2: STARFISH}, seats=_me(), bonus={"white": 1})
    new = play(state, 0, "larva grey: 2D3\ntake white").state
    assert new.polyps["2:D4"] == "grey"
    assert new.bonus == {"white": 1, "grey": 1}  # topped up, used, replaced from the bag


def test_no_extra_growth_in_the_advanced_game() -> None:
    state = build({2: STARFISH}, seats=_me(), advanced=True)
    new = play(state, 0, "larva grey: 2D3\ntake white").state
    assert "2:D4" not in new.polyps


def test_no_extra_growth_onto_a_shrimp() -> None:
    picture = STARFISH.replace(". ~ . . . . .", ". ~ . .1 . . .")
    state = build({2: picture}, seats=_me())
    new = play(state, 0, "larva grey: 2D3\nmove shrimp 2D4 to 2D3\ntake white").state
    assert "2:D4" not in new.polyps
    assert new.shrimps == {"2:D3": 0}


def test_the_starfish_space_grows_again_once_it_is_empty_again() -> None:
    picture = """
~ ~ ~ . . . ~
. . . . . . ~
. . . . ~ . .
. ~ . . . . .
. . . . . . .
~ . . . . . ~
"""
    state = build({2: picture}, seats=_me(larva={"grey": 2}))
    first = play(state, 0, "larva grey: 2D3\ntake white").state
    assert first.polyps["2:D4"] == "grey"
    del first.polyps["2:D4"]  # as if eaten
    first.to_move = 0
    again = play(first, 0, "larva grey: 2E4\ntake white").state
    assert again.polyps["2:D4"] == "grey"


def test_when_the_bag_is_empty_the_five_bonus_polyps_go_into_it() -> None:
    state = build({2: STARFISH}, seats=_me(larva={"grey": 2, "white": 1}))
    # Empty the bag but for one grey, which action 8 then takes: the bag is empty.
    state.players[1].screen = dict(state.bag)
    state.players[1].screen["grey"] -= 1
    state.bag = {"grey": 1}
    new = play(state, 0, "larva grey for polyp\nlarva grey: 2A2\ntake orange").state
    assert new.bonus == {}
    # The five bonus polyps refilled the open sea: one for each space below three polyps.
    assert new.bag == {}
    assert sorted(len(s["polyps"]) for s in new.open_sea) == [1, 1, 1, 1, 1]
