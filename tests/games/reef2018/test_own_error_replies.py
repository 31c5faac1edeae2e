"""Reef's own error replies, beyond the shared suite's (tests/games/suite, with the cases in
suite.py): the nearest valid form of a misread order, the nearest squares, positions of their
own, and a French seat's played order and help."""

from __future__ import annotations

import pytest

from pbem.games.reef2018.state import State
from pbem.store import SessionFactory, queries
from tests.games.reef2018.suite import full_hand, no_points, position
from tests.games.suite.replies import reason, refused
from tests.support.seated import Table, seat_table


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, "reef2018", position)


def test_a_misread_order_comes_with_the_nearest_valid_form(table: Table) -> None:
    reply = refused(table, "play 17 purple A1 purple")
    assert "Hint: play 17: red B2, yellow B2" in reply
    reply = refused(table, "take deck of cards")
    assert "Hint: take 17  (or: take deck, take deck token on 23)" in reply


def test_a_full_stack_comes_with_the_nearest_squares_that_take_the_piece(table: Table) -> None:
    # A1 holds RRRY (4 high); B1 and A2 are one step away and empty, C1 the first of those
    # two steps away (B2 and A3 are as near but come later, row by row).
    reply = refused(table, "play 17: purple A1, purple A2")
    assert "Suggestion: the nearest squares where it would be legal: B1, A2, C1" in reply


def test_the_hand_limit(factory: SessionFactory) -> None:
    table = seat_table(factory, "reef2018", full_hand)
    for orders in ("take 25", "take deck, token on 14"):
        assert "you already hold 4 cards, the limit: play a card instead" in reason(
            refused(table, orders))


def test_the_deck_with_no_points(factory: SessionFactory) -> None:
    table = seat_table(factory, "reef2018", no_points)
    assert ("taking the deck's top card costs a one-point token and you have none: take a "
            "market card or play a card") in reason(refused(table, "take deck, token on 14"))


def test_a_short_supply_names_what_can_be_placed(factory: SessionFactory) -> None:
    def short() -> State:
        state = position()
        state.supply["purple"] = 1
        return state

    table = seat_table(factory, "reef2018", short)
    assert ("card 17 gives purple and purple but only 1 of its corals can be placed (purple): "
            "name 1 square") in reason(refused(table, "play 17: purple A2, purple A3"))


@pytest.fixture
def french(factory: SessionFactory) -> Table:
    return seat_table(factory, "reef2018", position, languages=["fr"])


def test_a_french_order_is_played_and_logged_in_english(french: Table,
                                                        factory: SessionFactory) -> None:
    result, reply = french.send(0, "Vérifier\njouer 33 : rouge A2, vert A3")
    assert result.status == "ignored"
    assert "  - Ann a joué la carte 33 : rouge en A2 (1 de haut) et vert en A3 (1 de haut)." \
        in reply
    result, reply = french.send(0, "prendre la carte 25 de l'offre")
    assert result.status == "applied", reply
    assert ("  - Ann a pris la carte 25 de l'offre ; la carte 52 de la pioche la remplace."
            in reply)
    assert french.state().players[0].hand == [17, 33, 25]
    with factory() as s:
        last = queries.last_entry(s, french.game_id)
    assert last.text.strip() == "take the card 25 from the market"  # the canonical words


def test_help_in_french(french: Table) -> None:
    result, reply = french.send(0, "aide")
    assert result.status == "ignored"
    assert "REEF — COMMENT ÉCRIRE VOTRE ORDRE" in reply
    assert "règles d'après le livret de règles français" in reply  # the game's about, too
    # The market examples name cards of this game's market (25, 14, 41), as in English.
    for example in ("prendre 14", "prendre pioche", "prendre pioche, jeton sur 41",
                    "jouer 17: rouge B2, jaune B2",
                    "départ: rouge B2, jaune C2, vert B3, violet C3"):
        assert example in reply
