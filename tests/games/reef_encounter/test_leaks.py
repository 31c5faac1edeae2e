"""No seat's email shows another seat's secrets: two games differing only in Ben's hidden
holdings (the colours behind his screen and in his parrotfish) send every other seat
byte-identical emails, turn after turn, through the whole processor."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.games.reef_encounter.state import State
from pbem.store import SessionFactory, init, session_factory
from tests.games.reef_encounter.mailtable import ANN, BEN, CY, Table, seat_table
from tests.games.reef_encounter.positions import build

BOARD_2 = """
~ ~ ~ . . . ~
. . . G1 . . ~
. . Y . ~ . .
. ~ . . . W W2
. . O . P P .
~ . . . . . ~
"""


def position(ben_screen: dict[str, int], ben_fish: list[str]) -> State:
    return build({2: BOARD_2}, players=3,
                 seats={0: {"screen": {"white": 4, "pink": 3}, "larva": {"white": 1}},
                        1: {"screen": ben_screen, "parrotfish": ben_fish,
                            "larva": {"grey": 1}},
                        2: {"screen": {"grey": 4}, "larva": {"pink": 1},
                            "parrotfish": ["pink"]}},
                 open_sea={"white": ["pink"], "pink": ["grey", "grey"], "grey": ["white"]})


# The same colours in all (the bag stays the same), differently split between screen and fish.
BEN_A = ({"white": 5, "grey": 3}, ["white"])
BEN_B = ({"white": 6, "grey": 2}, ["grey"])


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[tuple[Table, Table]]:
    engines = [init(f"sqlite:///{tmp_path / name}.sqlite") for name in ("a", "b")]
    factories: list[SessionFactory] = [session_factory(e) for e in engines]
    yield (seat_table(factories[0], lambda: position(*BEN_A), players=3),
           seat_table(factories[1], lambda: position(*BEN_B), players=3))
    for e in engines:
        e.dispose()


def test_only_bens_own_mail_differs(tables: tuple[Table, Table]) -> None:
    a, b = tables
    turns = [(0, "larva white: 2D1 2E1\ntake pink"),  # Ann
             (1, "larva grey: 2E2\ntake white"),  # Ben: his own polyps leave his screen
             (2, "take grey")]  # Cy
    for seat, orders in turns:
        ra, text_a = a.send(seat, orders)
        rb, text_b = b.send(seat, orders)
        assert ra.status == rb.status == "applied", (text_a, text_b)
        mails_a, mails_b = a.bodies(ra), b.bodies(rb)
        assert set(mails_a) == set(mails_b) == {ANN, BEN, CY}
        for who in (ANN, CY):
            assert mails_a[who] == mails_b[who], f"{who}'s mail differs after seat {seat}"
        assert mails_a[BEN] != mails_b[BEN]  # the test can tell: Ben's own mail shows them
        if seat == 0:
            assert "polyps behind your screen: 3 grey, 5 white" in mails_a[BEN][0]
            assert "your parrotfish holds: 1 grey" in mails_b[BEN][0]
            assert "3 grey, 5 white" not in mails_a[ANN][0] + mails_a[ANN][1]


def test_a_spectators_and_others_status_on_request_are_identical(
        tables: tuple[Table, Table]) -> None:
    a, b = tables
    for seat in (0, 2):
        ra, _ = a.send(seat, "status")
        rb, _ = b.send(seat, "status")
        assert a.bodies(ra) == b.bodies(rb)


def test_bad_lines_suggestions_and_help_show_no_one_elses_holdings(
        tables: tuple[Table, Table]) -> None:
    """Ann's refused mail (every bad line, the nearest legal cells) and her help are the same
    whatever Ben holds: both are computed from the table and Ann's own holdings only."""
    a, b = tables
    orders = "shrimp new 1D5\nmove shrimp 2A4 to 2A5\nlarva white: 2A1\ntake pink"
    ra, text_a = a.send(0, orders)
    rb, text_b = b.send(0, orders)
    assert ra.status == rb.status == "rejected"
    assert "Suggestion: the nearest cells where this would be legal:" in text_a
    assert text_a == text_b
    assert a.send(0, "help")[1] == b.send(0, "help")[1]
