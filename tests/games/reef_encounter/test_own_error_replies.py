"""Reef Encounter's own error replies, beyond the shared suite's (tests/games/suite, with the
cases in suite.py): the nearest valid form of a misread order, positions of their own, and a
French seat's replies. Positions are pictured as in suite.py.
"""

from __future__ import annotations

import pytest

from pbem.games.reef_encounter.state import State
from pbem.store import SessionFactory, queries
from tests.games.reef_encounter.mailtable import Table, seat_table, speaks
from tests.games.reef_encounter.suite import BOARD_2_TWO_SHRIMPS, position
from tests.games.suite.replies import reason, refused


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, position)


def test_a_syntax_error_comes_with_the_nearest_valid_form(table: Table) -> None:
    reply = refused(table, "larva white 2F3 take pink")
    assert reason(reply) == ('Line 1, column 17 of your mail ("larva white 2F3 take pink"): I '
                             'did not expect "take" here')
    assert "Hint: for example: larva white: 2F3 2E4 consumed 2G4" in reply


def test_joining_two_corals_that_hold_shrimps(factory: SessionFactory) -> None:
    table = seat_table(factory, lambda: position(BOARD_2_TWO_SHRIMPS))
    reply = refused(table, "larva white: 2F3\ntake white")
    assert reason(reply) == ('Line 1 of your mail ("larva white: 2F3"): the polyp on 2F3: a white '
                             "polyp on 2F3 would join two white corals that both hold a shrimp")


def test_alga_on_a_tile_of_the_wrong_colour(factory: SessionFactory) -> None:
    table = seat_table(factory, _with_sea_shrimp)
    reply = refused(table, "alga red on tile 1 paying pink\ntake white")
    assert reason(reply) == ('Line 1 of your mail ("alga red on tile 1 paying pink"): step 1 '
                             "(alga red on tile 1 paying pink): coral tile 1 shows a large "
                             "green alga; only a green alga may go on it")


def _with_sea_shrimp() -> State:
    state = position()
    state.players[0].sea_shrimp = True
    state.players[0].shrimps_in_hand -= 1
    return state


def test_a_final_turn_allows_only_eating(factory: SessionFactory) -> None:
    def final() -> State:
        state = position()
        state.phase, state.final_turns = "final", [0]
        state.end_reason = "all ten coral tiles are covered by algae"
        return state

    table = seat_table(factory, final)
    reply = refused(table, "larva white: 2D1")
    assert reason(reply) == ('Line 1 of your mail ("larva white: 2D1"): step 1 (larva white): '
                             "in your final turn the only action is action 1: eat a coral (or "
                             "pass)")


# --- the same replies for a French seat, orders written in French --------------------------

@pytest.fixture
def french(factory: SessionFactory) -> Table:
    table = seat_table(factory, position)
    speaks(table, 0, "fr")
    return table


def test_a_french_syntax_error_quotes_the_french_line_and_suggests_in_french(
        french: Table) -> None:
    reply = refused(french, "prendr rose")
    assert "> prendr rose" in reply  # the player's own words, echoed and quoted
    assert "prendr rose" in reason(reply)
    assert "je ne connais pas l’ordre « prendr »" in reason(reply)
    assert "par exemple : prendre rose" in reply  # the suggestion, in French order words
    assert "I do not know" not in reply and "for example" not in reply


def test_a_french_rule_error_says_why_in_french(french: Table) -> None:
    reply = refused(french, "larve blanche : 2H9\nprendre blanc")
    assert "il n’y a pas de case « 2H9 »" in reason(reply)
    assert "une case s’écrit plateau 1-4, colonne A-G, rangée 1-6, comme 2F4" in reply
    reply = refused(french, "larve grise : 2D1\nprendre blanc")
    assert "vous n’avez pas de cube larve gris" in reason(reply)


def test_french_orders_are_played_and_logged_in_english(french: Table) -> None:
    result, reply = french.send(0, "larve blanche : 2D1 2E1\nprendre rose")
    assert result.status == "applied", reply
    assert "Violet a placé un polype blanc sur 2D1." in reply
    with french.factory() as s:
        texts = [e.text for e in queries.log(s, french.game_id)]
    assert "larva white : 2D1 2E1\ntake pink" in "\n".join(texts)


def test_help_in_french(french: Table) -> None:
    result, reply = french.send(0, "aide")
    assert result.status == "ignored"
    assert "REEF ENCOUNTER — COMMENT ÉCRIRE VOS ORDRES" in reply
    for example in ("manger 2F4", "larve blanche : 2F3 2E4", "crevette nouvelle 2F4",
                    "déplacer crevette 2F4 vers 2G4", "prendre rose"):
        assert example in reply
    # The colour letters are the English initials: the French help says which is which.
    flat = " ".join(reply.split())
    assert "(ou g, o, p, w, y : les initiales anglaises, p = rose, w = blanc, y = jaune)" in flat
    # The host's part of the help: its words for talk in French too.
    assert "dire <texte>" in reply and "dire à NOM: <texte>" in reply


@pytest.mark.parametrize(("language", "letters"), [
    ("de", ["(oder g, o, p, w, y: die englischen Anfangsbuchstaben, p = rosa, y = gelb)",
            "(oder b, g, p, r: p = lila)"]),
    ("it", ["(o g, o, p, w, y: le iniziali inglesi, o = arancione, p = rosa, w = bianco, "
            "y = giallo)", "(o b, g, p, r: le iniziali inglesi, g = verde, p = viola)"]),
    ("nl", ["(of g, o, p, w, y: de Engelse beginletters, p = roze, y = geel)"]),
])
def test_the_help_says_which_english_initial_is_which_colour(
        factory: SessionFactory, language: str, letters: list[str]) -> None:
    """The colour letters are the English initials in every language (a translated letter
    would clash with another colour's): where the word starts otherwise, the help says so."""
    table = seat_table(factory, position)
    speaks(table, 0, language)
    result, reply = table.send(0, "help")
    assert result.status == "ignored"
    flat = " ".join(reply.split())
    for said in letters:
        assert said in flat
