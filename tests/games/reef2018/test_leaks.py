"""No seat's email shows another seat's hand: two games differing only in Ben's hidden card
(10 or 11; the other lies in the deck, below its face-up top) send every other seat
byte-identical emails, turn after turn, through the whole processor. Once with every seat in
English, once with Ann and Cy reading (and writing) French."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.games.reef2018 import GAME
from pbem.games.reef2018.state import State
from pbem.store import SessionFactory, init, session_factory
from tests.games.reef2018.positions import build
from tests.support.seated import ANN, BEN, CY, Table, seat_table

REEF = """
. . . .
. R Y .
. G P .
. . . .
"""


def position(ben_secret: int) -> State:
    return build([REEF, REEF, REEF], hands=[[17, 33], [9, ben_secret], [40]],
                 market=[25, 14, 45], deck=[52, 3, 4])


LANGUAGES: dict[str, list[str | None]] = {"english": [None, None, None],
                                         "french": ["fr", None, "fr"]}


@pytest.fixture(params=sorted(LANGUAGES))
def languages(request: pytest.FixtureRequest) -> list[str | None]:
    return LANGUAGES[str(request.param)]


@pytest.fixture
def tables(tmp_path: Path, languages: list[str | None]) -> Iterator[tuple[Table, Table]]:
    engines = [init(f"sqlite:///{tmp_path / name}.sqlite") for name in ("a", "b")]
    factories: list[SessionFactory] = [session_factory(e) for e in engines]
    yield (seat_table(factories[0], "reef2018", lambda: position(10), players=3,
                      languages=languages),
           seat_table(factories[1], "reef2018", lambda: position(11), players=3,
                      languages=languages))
    for e in engines:
        e.dispose()


def test_only_bens_own_mail_differs(tables: tuple[Table, Table],
                                    languages: list[str | None]) -> None:
    a, b = tables
    turns = [(0, "take 25"),  # Ann
             (1, "play 9: green A1, green A2"),  # Ben plays the card both games share
             (2, "take deck")]  # Cy
    for seat, english in turns:
        lang = languages[seat]
        orders = GAME.localise_order(english, lang) if lang else english
        ra, text_a = a.send(seat, orders)
        rb, text_b = b.send(seat, orders)
        assert ra.status == rb.status == "applied", (text_a, text_b)
        mails_a, mails_b = a.bodies(ra), b.bodies(rb)
        assert set(mails_a) == set(mails_b) == {ANN, BEN, CY}
        for who in (ANN, CY):
            assert mails_a[who] == mails_b[who], f"{who}'s mail differs after seat {seat}"
        assert mails_a[BEN] != mails_b[BEN]  # the test can tell: Ben's own mail shows it
        assert "Card 10:" in mails_a[BEN][0] and "Card 11:" in mails_b[BEN][0]
        for who in (ANN, CY):
            seen = mails_a[who][0] + mails_a[who][1]
            assert "Card 10:" not in seen and "Carte 10 :" not in seen
            if languages[0] == "fr":
                assert "Vous êtes" in seen  # the watchers' mails are French indeed


def test_a_status_on_request_to_another_seat_is_identical(tables: tuple[Table, Table]) -> None:
    a, b = tables
    for seat in (0, 2):
        ra, _ = a.send(seat, "status")
        rb, _ = b.send(seat, "status")
        assert a.bodies(ra) == b.bodies(rb)
