"""The board's shortcuts give the long way's answers."""

from pbem.games.reef_encounter.board import board_of


def test_board_of_reads_the_board_from_any_key() -> None:
    assert board_of("2:D4") == 2
    assert board_of("4:A1") == 4
    assert board_of("3:Z9") == 3  # not a rock cell: read from the key all the same
