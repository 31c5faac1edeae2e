"""create_game checks seats and tags whoever calls it (the CLI, a script, the demo)."""

from __future__ import annotations

import pytest

from pbem.ops import api
from pbem.store import SessionFactory
from tests.pipeline.conftest import ALICE, BOB


@pytest.mark.parametrize(("tag", "says"), [
    ("x] [reef-1", "tag 'x] [reef-1' must be 1-40 letters"),
    ("testcards-9", "a game tagged testcards-9 exists already; choose another tag"),
])
def test_a_bad_or_taken_tag_is_refused(factory: SessionFactory, tag: str, says: str) -> None:
    with factory() as s:
        api.create_game(s, "testcards", [("A", ALICE), ("B", BOB)], tag="TestCards-9")
        s.commit()
        with pytest.raises(ValueError, match=says.replace("[", r"\[").replace("]", r"\]")):
            api.create_game(s, "testcards", [("A", ALICE), ("B", BOB)], tag=tag)


def test_addresses_are_checked_and_kept_lower_case(factory: SessionFactory) -> None:
    with factory() as s:
        with pytest.raises(ValueError, match="is given for two seats"):
            api.create_game(s, "testcards", [("A", ALICE), ("B", ALICE.upper())])
        with pytest.raises(ValueError, match="seat address 'a@x' is not a valid email"):
            api.create_game(s, "testcards", [("A", "a@x"), ("B", BOB)])
        game, _ = api.create_game(s, "testcards", [("A", ALICE.upper()), ("B", BOB)])
        assert [seat.address for seat in api.queries.seats(s, game.id or 0)] == [ALICE, BOB]


def test_an_international_domain_is_kept_in_its_ascii_form(factory: SessionFactory) -> None:
    with factory() as s:
        game, _ = api.create_game(s, "testcards", [("Zoë", "zoe@exämple.org"), ("B", BOB)])
        assert api.queries.seats(s, game.id or 0)[0].address == "zoe@xn--exmple-cua.org"
