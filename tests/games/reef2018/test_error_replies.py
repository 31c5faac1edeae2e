"""Every bad Reef order a player can send, by email through the processor: the reply says
nothing was played, echoes the mail, says why (with the nearest valid form for a misread
order), and the game does not change. Also: check, help, not your turn, a wrong secret."""

from __future__ import annotations

import pytest

from pbem.games.reef2018.state import State
from pbem.store import SessionFactory, queries
from tests.games.reef2018.positions import build
from tests.support.seated import Table, seat_table

ANN_REEF = """
RRRY . .  .
.    R Y  .
.    G P  .
.    . .  .
"""
BEN_REEF = """
. . . .
. R Y .
. G P .
. . . .
"""


def position() -> State:
    """Ann to move holding 17 (purple+purple) and 33 (red+green); market 25 (5 points),
    14 and 41 (1 point each: a tie for the deck's token)."""
    return build([ANN_REEF, BEN_REEF], hands=[[17, 33], [9]], market=[25, 14, 41],
                 deck=[52, 3])


def full_hand() -> State:
    state = position()
    state.seats[0].hand = [17, 33, 2, 5]
    state.deck.remove(2)
    state.deck.remove(5)
    return state


def no_points() -> State:
    state = position()
    state.seats[0].ledger = []
    state.seats[0].score = 0
    return state


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, "reef2018", position)


def refused(table: Table, body: str, seat: int = 0) -> str:
    before = table.state_json()
    result, reply = table.send(seat, body)
    assert result.status == "rejected", (result, reply)
    assert table.state_json() == before
    return reply


def reason(reply: str) -> str:
    """The line of the reply that says why: the first after the echoed orders."""
    lines = reply.splitlines()
    return next(ln for ln in lines[lines.index(""):] if ln)


CASES = [
    ("unknown order", "dance the macarena",
     'Line 1 of your mail ("dance the macarena"): I do not know the order "dance"'),
    ("a square off the reef", "play 17: purple E2, purple A2",
     'Line 1 of your mail ("play 17: purple E2, purple A2"): E2 is not on your reef (A1 to D4)'),
    ("not a square", "play 17: purple here, purple A2",
     'Line 1 of your mail ("play 17: purple here, purple A2"): "here" is not a square '
     "(columns A-D, rows 1-4, like B2)"),
    ("no card number", "take",
     'Line 1 of your mail ("take"): take what? a market card\'s number, or \'deck\''),
    ("a card that does not exist", "take 61",
     'Line 1 of your mail ("take 61"): there is no card 61 (cards are numbered 1 to 60)'),
    ("three corals", "play 17: A1, A2, A3",
     'Line 1 of your mail ("play 17: A1, A2, A3"): a card gives two corals, not 3'),
    ("a colour without a square", "play 17: purple A1, purple",
     'Line 1 of your mail ("play 17: purple A1, purple"): where does the purple coral go? a '
     "square like B2 must follow it"),
    ("two orders in one mail", "take 25\nplay 17: A1 A2",
     'Line 2 of your mail ("play 17: A1 A2"): one email is one turn: this is a second order'),
    ("a card not in the market", "take 52", "card 52 is not in the market; it holds 25, 14, 41"),
    ("the deck's token on a tie", "take deck",
     "cards 14 and 41 tie as the cheapest in the market: say which gets your token, e.g. take "
     "deck, token on 14"),
    ("the token not on the cheapest", "take deck, token on 25",
     "your token goes on the market card with the lowest printed value: 14 or 41, not 25"),
    ("the token on a card not in the market", "take deck, token on 60",
     "card 60 is not in the market"),
    ("a card not in hand", "play 9: red A1, red A2",
     "card 9 is not in your hand; you hold 17, 33"),
    ("a stack already 4 high", "play 17: purple A1, purple A2",
     "the stack on A1 is already 4 high: no piece may go on it"),
    ("a colour the card does not give", "play 33: yellow A2, green A3",
     "card 33 gives red and green, not yellow"),
    ("one square for two corals", "play 33: red A2",
     "card 33 gives two corals (red and green): name a square for each"),
    ("the setup answer once play has begun", "start: red B2, yellow C2, green B3, purple C3",
     "the starting corals are already placed"),
]


@pytest.mark.parametrize(("what", "orders", "why"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_order_is_refused_with_the_reason(table: Table, what: str, orders: str,
                                                why: str) -> None:
    reply = refused(table, orders)
    assert reply.startswith("Your orders were NOT played; nothing changed.")
    for line in orders.splitlines():
        assert f"> {line}" in reply
    assert reason(reply) == why, reply
    assert 'Send "help" for the full list of orders.' in reply


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


def test_not_your_turn(table: Table) -> None:
    reply = refused(table, "take 25", seat=1)
    assert reply.splitlines()[:2] == ["It is not your turn, so nothing was played.",
                                      "Waiting for: Ann."]


def test_a_wrong_secret_changes_nothing(table: Table) -> None:
    before = table.state_json()
    result, _ = table.send(0, "take 25", secret="not-my-secret")
    assert result.status == "rejected" and result.reason == "wrong secret"
    assert table.state_json() == before


def test_check_shows_what_would_happen_and_changes_nothing(table: Table) -> None:
    before = table.state_json()
    result, reply = table.send(0, "check\nplay 33: red A2, green A3")
    assert result.status == "ignored"
    assert table.state_json() == before
    assert reply.startswith("check: these orders are legal. Nothing was played.")
    assert "  - Ann played card 33: red on A2 (1 high), green on A3 (1 high)." in reply


def test_check_of_a_bad_order_says_it_would_be_refused(table: Table) -> None:
    before = table.state_json()
    result, reply = table.send(0, "check\ntake 52")
    assert result.status == "ignored" and table.state_json() == before
    assert reply.startswith("check: these orders would NOT be accepted.")
    assert "card 52 is not in the market" in reply


def test_a_good_order_is_played(table: Table) -> None:
    result, reply = table.send(0, "take 25")
    assert result.status == "applied", reply
    assert "Done. Your orders were played:\n> take 25" in reply
    assert "  - Ann took card 25 from the market; card 52 from the deck takes its place." \
        in reply
    assert table.state().seats[0].hand == [17, 33, 25]


def test_help_answers_with_the_whole_order_language(table: Table) -> None:
    result, reply = table.send(0, "help")
    assert result.status == "ignored"
    assert "REEF — HOW TO WRITE YOUR ORDER" in reply
    # The market examples name cards of this game's market (25, 14, 41).
    for example in ("take 14", "take deck", "take deck, token on 41",
                    "play 17: red B2, yellow B2", "start: red B2, yellow C2, green B3, purple C3"):
        assert example in reply


# Ann writes French (issue 16): her orders are read in French, and every reply is French,
# quotes her own line and suggests the nearest valid form in French.
FRENCH_CASES = [
    ("a square off the reef", "jouer 17 : violet E2, violet A2",
     "Ligne 1 de votre courriel (« jouer 17 : violet E2, violet A2 ») : E2 n'est pas sur "
     "votre récif (A1 à D4)", "Indice : jouer 17: rouge B2, jaune B2"),
    ("an unknown order", "danser la macarena",
     "Ligne 1 de votre courriel (« danser la macarena ») : je ne connais pas l'ordre "
     "« danser »", "Indice : écrivez l'un de : prendre 17  (ou : prendre pioche, prendre "
     "pioche jeton sur 23) ; jouer 17: rouge B2, jaune B2 ; départ: rouge B2, jaune C2, "
     "vert B3, violet C3"),
    ("the deck's token on a tie", "prendre la pioche",
     "les cartes 14 et 41 sont à égalité pour la plus faible valeur de l'offre : dites "
     "laquelle reçoit votre jeton, p. ex. prendre pioche, jeton sur 14", None),
    ("a card not in hand", "jouer la carte 9 : rouge A1, rouge A2",
     "la carte 9 n'est pas dans votre main ; vous avez 17, 33", None),
    ("a colour the card does not give", "jouer 33 : jaune A2, vert A3",
     "la carte 33 donne rouge et vert, pas jaune", None),
    ("a full stack", "jouer 17 : violet A1, violet A2",
     "la pile en A1 a déjà 4 de haut : aucune pièce ne peut y aller",
     "Suggestion : les cases les plus proches où elle serait permise : B1, A2 et C1"),
]


@pytest.fixture
def french(factory: SessionFactory) -> Table:
    return seat_table(factory, "reef2018", position, languages=["fr"])


@pytest.mark.parametrize(("what", "orders", "why", "hint"), FRENCH_CASES,
                         ids=[c[0] for c in FRENCH_CASES])
def test_a_french_seat_is_answered_in_french(french: Table, what: str, orders: str, why: str,
                                             hint: str | None) -> None:
    reply = refused(french, orders)
    assert reply.startswith("Vos ordres n'ont PAS été joués ; rien n'a changé.")
    assert f"> {orders}" in reply  # her own words
    assert reason(reply) == why, reply
    if hint is not None:
        assert hint in reply.splitlines(), reply


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
    assert french.state().seats[0].hand == [17, 33, 25]
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

