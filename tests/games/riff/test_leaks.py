"""No mail shows a hidden card: two games differing only in one face-down card (swapped with a
pile card, so the box is the same) send both players byte-identical mails, turn after turn,
through the whole processor, until that card is turned."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.games.riff import GAME
from pbem.games.riff.state import State
from pbem.store import SessionFactory, init, session_factory
from tests.games.riff.invariants import violations
from tests.games.riff.mailtable import ANN, BEN, Table, language, seat_table, speak
from tests.games.riff.positions import FULL, build

HIDDEN = (2, 2)  # area row 2 = Ann's far-middle row, column 3: "[coral]"


def position(swap: bool) -> State:
    state = build(FULL, players=[{"worms": {"red": 2, "green": 2, "blue": 2}, "boats": 3},
                                 {"worms": {"pink": 2}}])
    if swap:
        slot = state.area[HIDDEN[0]][HIDDEN[1]]
        assert slot is not None and not slot["up"]
        j = next(i for i, c in enumerate(state.pile) if c != slot["card"])
        slot["card"], state.pile[j] = state.pile[j], slot["card"]
    assert violations(state) == []
    return state


@pytest.fixture(params=["en", "fr"])
def tables(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Table, Table]]:
    """The two games; Ben's seat in English, then in French (his mails and orders)."""
    engines = [init(f"sqlite:///{tmp_path / name}.sqlite") for name in ("a", "b")]
    factories: list[SessionFactory] = [session_factory(e) for e in engines]
    pair = (seat_table(factories[0], lambda: position(False)),
            seat_table(factories[1], lambda: position(True)))
    for table in pair:
        speak(table, 1, request.param)
    yield pair
    for e in engines:
        e.dispose()


def test_the_games_really_differ_in_one_hidden_card(tables: tuple[Table, Table]) -> None:
    a, b = (t.state() for t in tables)
    slot_a, slot_b = a.area[2][2], b.area[2][2]
    assert slot_a is not None and slot_b is not None and slot_a != slot_b
    assert a.pile != b.pile
    assert sorted([*a.pile, slot_a["card"]]) == sorted([*b.pile, slot_b["card"]])


def test_both_players_mails_are_identical_until_the_card_turns(
        tables: tuple[Table, Table]) -> None:
    a, b = tables
    turns = [(1, "prefer pink green"),  # Ben, out of turn
             (0, "buy 1 near\nflip 2 middle"),  # Ann turns another hidden card
             (1, "pass"),
             (0, "buy 3 near\nboat"),
             (1, "prefer red")]
    ben = language(a, 1)
    for seat, orders in turns:
        if seat == 1:
            orders = GAME.localise_order(orders, ben)
        ra, text_a = a.send(seat, orders)
        rb, text_b = b.send(seat, orders)
        assert ra.status == rb.status == "applied", (text_a, text_b)
        mails_a, mails_b = a.bodies(ra), b.bodies(rb)
        assert set(mails_a) == {ANN, BEN}
        assert mails_a == mails_b, f"a mail differs after {orders!r}"
        assert "[##]" in mails_a[ANN][0]
        assert ("LA ZONE DE PÊCHE" if ben == "fr" else "THE FISHING AREA") in mails_a[BEN][0]
    for seat in (0, 1):  # and a status on request
        assert a.bodies(a.send(seat, "status")[0]) == b.bodies(b.send(seat, "status")[0])


@pytest.mark.parametrize("orders", ["buy 8 near\nflip 3 far middle\nattach red male to coral 4",
                                    "buy 8 near\nbuy 3 far middle paying red red",
                                    "buy 8 near\nbuy 3 far middle if red fish\nshark 4 far"])
def test_a_mail_sent_back_for_bad_lines_shows_nothing_of_the_hidden_card(
        tables: tuple[Table, Table], orders: str) -> None:
    """Every bad line is listed only up to a line that would turn a hidden card: checking on
    would show, in the reply, what that card is (e.g. whether red worms pay for it)."""
    a, b = tables
    ra, text_a = a.send(0, orders)
    rb, text_b = b.send(0, orders)
    assert ra.status == rb.status == "rejected"
    assert text_a == text_b
    assert 'Line 1 of your mail ("buy 8 near")' in text_a and "Line 2" not in text_a
    assert "Line 3" not in text_a
    assert a.state_json() != b.state_json()  # the games still differ: nothing was turned
    assert a.state().area[2][2]["up"] is False and b.state().area[2][2]["up"] is False
    help_a, help_b = a.send(0, "help")[1], b.send(0, "help")[1]
    assert help_a == help_b  # help from the game's own state names nothing hidden
