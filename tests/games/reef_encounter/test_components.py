"""Component facts checked against the rulebook's counts and the data file's own invariants."""

from collections import Counter

import pytest

from pbem.games.reef_encounter.components import components, parse_components


def test_four_boards_of_six_rows_by_seven_columns_with_extra_growth_on_bare_rock() -> None:
    comp = components()
    assert [b.id for b in comp.boards] == [1, 2, 3, 4]
    for board in comp.boards:
        assert board.extra_growth == "D4"
        assert board.cell("D4") == "."


def test_each_board_prints_one_starting_polyp_of_each_coral_colour() -> None:
    comp = components()
    for board in comp.boards:
        assert sorted(board.starting_polyps().values()) == sorted(comp.coral_colours)


def test_board_cells_are_named_by_column_letter_and_row_number() -> None:
    board = components().board(2)
    assert board.cell("D2") == "G"
    assert board.starting_polyps()["D2"] == "grey"
    assert board.is_sand("A1")
    assert not board.is_sand("D1")


def test_every_coral_colour_is_stronger_on_exactly_two_face_a_tiles() -> None:
    comp = components()
    assert len(comp.coral_tiles) == comp.counts["coral_tiles"] == 10
    stronger = Counter(t.stronger for t in comp.coral_tiles)
    assert stronger == {c: 2 for c in comp.coral_colours}


def test_every_alga_colour_is_printed_five_times_over_the_tiles() -> None:
    comp = components()
    printed = Counter(a for t in comp.coral_tiles for a in (t.large_alga, t.small_alga))
    assert printed == {a: 5 for a in comp.alga_colours}


def test_face_b_swaps_stronger_with_weaker_and_large_with_small_alga() -> None:
    tile = components().coral_tiles[0]
    b = tile.face("b")
    assert (b.stronger, b.weaker) == (tile.weaker, tile.stronger)
    assert (b.large_alga, b.small_alga) == (tile.small_alga, tile.large_alga)
    assert tile.face("a") == tile
    with pytest.raises(ValueError, match="unknown coral tile face 'c'"):
        tile.face("c")


def test_each_pair_of_coral_colours_has_exactly_one_tile() -> None:
    comp = components()
    pairs = {frozenset((t.stronger, t.weaker)) for t in comp.coral_tiles}
    assert len(pairs) == 10


def test_starting_polyps_by_seat_follow_the_rulebook() -> None:
    comp = components()
    assert comp.starting_polyps(2) == [6, 9]
    assert comp.starting_polyps(3) == [6, 7, 9]
    assert comp.starting_polyps(4) == [6, 7, 8, 9]
    assert comp.counts["open_sea_start"] == [3, 3, 3, 2, 1]
    assert sorted(comp.open_sea_clockwise) == sorted(comp.coral_colours)


def test_a_malformed_board_is_refused() -> None:
    text = """
[colours]
coral = []
player = []
alga = []
[counts]
[open_sea]
clockwise = []
[[board]]
id = 9
rows = ["~~~"]
extra_growth = "D4"
coral_tiles = []
"""
    with pytest.raises(ValueError, match="board 9 is not 6x7"):
        parse_components(text)
