"""Every class of bad Reef Encounter order, sent by email through the processor: the player's
reply says nothing was played, quotes the line and says why; the game does not change.

Positions are pictured as the status email draws boards (tests/games/reef_encounter/positions.py):
``~`` sand, ``.`` bare rock, ``G O P W Y`` polyps, a digit after a cell the shrimp of player 1
(Ann, Purple) or 2 (Ben, Green). Coral tiles lie face "a" up: pink beats white (tile 3),
white beats yellow (tile 1); tile 1 shows a large green alga.
"""

from __future__ import annotations

import pytest

from pbem.games.reef_encounter.state import State
from pbem.store import SessionFactory
from tests.games.reef_encounter.mailtable import Table, seat_table, state_json
from tests.games.reef_encounter.positions import build

BOARD_2 = """
~ ~ ~ . . . ~
. . . G1 . . ~
. W Y . ~ . .
. ~ . . . W W2
. . O . P P .
~ . . . . . ~
"""
BOARD_4 = """
~ . . . . . ~
. . . O ~ . .
. . ~ . G . .
. P . . . . .
~ P P . Y . ~
~ P P2 ~ . . ~
"""
# Two white corals held by Ann's and Ben's shrimps, one space apart (2F3 would join them).
BOARD_2_TWO_SHRIMPS = """
~ ~ ~ . . . ~
. . . . . W1 ~
. . . . ~ . .
. ~ . . . W2 .
. . . . . . .
~ . . . . . ~
"""

ANN_HOLDS = {"screen": {"white": 6, "pink": 3, "grey": 2}, "larva": {"white": 1, "pink": 1},
             "parrotfish": ["grey"], "consumed": {"pink": 1}}
BEN_HOLDS = {"screen": {"white": 5, "grey": 3}, "larva": {"grey": 1, "white": 1},
             "parrotfish": ["white"]}


def position(board_2: str = BOARD_2) -> State:
    return build({2: board_2, 4: BOARD_4}, seats={0: dict(ANN_HOLDS), 1: dict(BEN_HOLDS)},
                 open_sea={"white": ["pink"], "pink": ["grey", "grey"]})


@pytest.fixture
def table(factory: SessionFactory) -> Table:
    return seat_table(factory, position)


def refused(table: Table, body: str, seat: int = 0) -> str:
    """Send ``body``; it must be rejected with nothing changed. Returns the reply's text."""
    before = state_json(table.state())
    result, reply = table.send(seat, body)
    assert result.status == "rejected", (result, reply)
    assert state_json(table.state()) == before
    return reply


def reason(reply: str) -> str:
    """The line of the reply that says why: the first after the echoed orders."""
    lines = reply.splitlines()
    return next(ln for ln in lines[lines.index(""):] if ln)


# (what is wrong, the mail's order lines, the reason line the player reads)
CASES = [
    ("syntax", "dance the macarena",
     'Line 1 of your mail ("dance the macarena"): I do not know the order "dance"\n'),
    ("unknown cell", "larva white: 2H9\ntake white",
     'Line 1, column 14 of your mail ("larva white: 2H9"): there is no cell "2H9"\n'),
    ("unknown colour", "larva white: 2D1\ntake pnk",
     'Line 2, column 6 of your mail ("take pnk"): "pnk" is not a coral colour\n'),
    ("board not in play", "larva white: 3C3\ntake white",
     'Line 1 of your mail ("larva white: 3C3"): step 2 (3C3): board 3 is not in this game '
     "(boards in play: 2, 4)"),
    ("sand", "larva white: 2A1\ntake white",
     'Line 1 of your mail ("larva white: 2A1"): step 2 (2A1): 2A1 is sand; nothing can stand '
     "there"),
    ("occupied by its own colour", "larva white: 2F4\ntake white",
     'Line 1 of your mail ("larva white: 2F4"): step 2 (2F4): 2F4 already holds a white polyp '
     "(a coral never attacks its own colour)"),
    ("occupied by one's own shrimp", "move shrimp 2D2 to 2E2\nlarva white: 2E2\ntake white",
     'Line 2 of your mail ("larva white: 2E2"): step 2 (2E2): your shrimp stands on 2E2; move '
     "it away first (action 5)"),
    ("attack on a dominating colour", "larva white: 2E5\ntake white",
     'Line 1 of your mail ("larva white: 2E5"): step 2 (2E5): white cannot attack pink here — '
     "pink dominates white (coral tile 3)"),
    ("attack by a one-polyp coral", "larva white: 2C3\ntake white",
     'Line 1 of your mail ("larva white: 2C3"): step 2 (2C3): white cannot attack the yellow '
     "polyp on 2C3: only a coral of at least two polyps may attack, and the white coral next "
     "to it has one"),
    ("attack on a protected polyp", "larva pink: 2F4\ntake white",
     'Line 1 of your mail ("larva pink: 2F4"): step 2 (2F4): the white polyp on 2F4 is '
     "protected by green's shrimp on 2G4"),
    ("too many polyps from behind the screen", "larva white: 2D1 2E1 2F1 2E2 2F2\ntake white",
     'Line 1 of your mail ("larva white: 2D1 2E1 2F1 2E2 2F2"): step 6 (2F2): at most four '
     "polyps from behind the screen per larva cube"),
    ("more polyps of a colour than behind the screen", "larva pink: 2D1 2E1 2F1 2F2\ntake white",
     'Line 1 of your mail ("larva pink: 2D1 2E1 2F1 2F2"): step 5 (2F2): you have no pink '
     "polyp left behind your screen"),
    ("wrong larva colour", "larva yellow: 2D1\ntake white",
     'Line 1 of your mail ("larva yellow: 2D1"): step 1 (larva yellow): you have no yellow '
     "larva cube (your larva cubes, as your status lists them: pink, white)"),
    ("a larva cube with no polyp", "larva white:\ntake white",
     'Line 2 of your mail ("take white"): step 1 (take white): the white larva cube of action 2 '
     "must be followed by at least one polyp placement"),
    ("shrimp left on bare rock", "move shrimp 2D2 to 2E2\ntake white",
     "your turn cannot end like this: your shrimp on 2E2 stands on bare rock; by the end of "
     "your turn it must be on a polyp or back behind your screen"),
    ("alga on a tile without a shrimp on the open sea", "alga green on tile 1 paying pink\n"
     "take white",
     'Line 1 of your mail ("alga green on tile 1 paying pink"): step 1 (alga green on tile 1 '
     "paying pink): an alga goes on a coral tile only once your parrotfish has eaten a coral"),
    ("eating a small coral", "eat 2D2\ntake white",
     'Line 1 of your mail ("eat 2D2"): step 1 (eat 2D2): the grey coral on 2D2 has 1 polyps; '
     "the parrotfish eats only corals of at least 5"),
    ("eating a coral guarded by another player's shrimp", "eat 4C6\ntake white",
     'Line 1 of your mail ("eat 4C6"): step 1 (eat 4C6): the pink coral on 4C6 is guarded by '
     "green's shrimp, not yours"),
    ("eating after another action", "larva white: 2D1\neat 4C6\ntake white",
     'Line 2 of your mail ("eat 4C6"): step 1 (eat 4C6): action 1 (the parrotfish eats) may '
     "only be the first action of a turn"),
    ("a second new shrimp", "shrimp new 2C3\nshrimp new 2E5\ntake white",
     'Line 2 of your mail ("shrimp new 2E5"): step 1 (shrimp new 2E5): you may put in a new '
     "shrimp (action 4) only once per turn"),
    ("a second shrimp on a coral", "shrimp new 2G4\ntake white",
     'Line 1 of your mail ("shrimp new 2G4"): step 1 (shrimp new 2G4): 2G4 already holds a '
     "shrimp"),
    ("missing action 10", "larva white: 2D1",
     "your turn cannot end like this: every turn ends with action 10: take a larva cube and its "
     'polyps from the open sea, e.g. "take pink"'),
    ("anything after action 10", "take white\nlarva white: 2D1",
     'Line 2 of your mail ("larva white: 2D1"): step 1 (larva white): action 10 (take) ends the '
     "turn; nothing may follow it"),
    ("the setup answer once play has begun", "parrotfish pink; larvae white yellow",
     'Line 1 of your mail ("parrotfish pink; larvae white yellow"): step 1 (parrotfish pink; '
     "larvae white yellow): the setup step is over"),
]


@pytest.mark.parametrize(("what", "orders", "why"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_order_is_refused_with_the_reason(table: Table, what: str, orders: str,
                                                why: str) -> None:
    reply = refused(table, orders)
    assert reply.startswith("Your orders were NOT played; nothing changed.")
    for line in orders.splitlines():  # the mail's orders are echoed back
        assert f"> {line}" in reply
    assert f"{reason(reply)}\n".startswith(why), reply
    assert 'Send "help" for the full list of orders.' in reply


def test_a_syntax_error_comes_with_the_nearest_valid_form(table: Table) -> None:
    reply = refused(table, "larva white 2F3 take pink")
    assert reason(reply) == ('Line 1, column 17 of your mail ("larva white 2F3 take pink"): I '
                             'did not expect "take" here')
    assert "Hint: for example: larva white: 2F3 2E4 consumed 2G4" in reply


def test_not_your_turn(table: Table) -> None:
    reply = refused(table, "take white", seat=1)
    assert reply.splitlines()[:2] == ["It is not your turn, so nothing was played.",
                                      "Waiting for: Ann."]


def test_joining_two_corals_that_hold_shrimps(factory: SessionFactory) -> None:
    table = seat_table(factory, lambda: position(BOARD_2_TWO_SHRIMPS))
    reply = refused(table, "larva white: 2F3\ntake white")
    assert reason(reply) == ('Line 1 of your mail ("larva white: 2F3"): step 2 (2F3): a white '
                             "polyp on 2F3 would join two white corals that both hold a shrimp")


def test_alga_on_a_tile_of_the_wrong_colour(factory: SessionFactory) -> None:
    table = seat_table(factory, _with_sea_shrimp)
    reply = refused(table, "alga red on tile 1 paying pink\ntake white")
    assert reason(reply) == ('Line 1 of your mail ("alga red on tile 1 paying pink"): step 1 '
                             "(alga red on tile 1 paying pink): coral tile 1 shows a large "
                             "green alga; only a green alga may go on it")


def _with_sea_shrimp() -> State:
    state = position()
    state.seats[0].sea_shrimp = True
    state.seats[0].shrimps_in_hand -= 1
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


def test_a_wrong_secret_changes_nothing(table: Table) -> None:
    before = state_json(table.state())
    result, _ = table.send(0, "take white", secret="not-my-secret")
    assert result.status == "rejected" and result.reason == "wrong secret"
    assert state_json(table.state()) == before


def test_check_shows_what_would_happen_and_changes_nothing(table: Table) -> None:
    before = state_json(table.state())
    result, reply = table.send(0, "check\nlarva white: 2D1 2E1\ntake pink")
    assert result.status == "ignored"
    assert state_json(table.state()) == before
    assert reply.startswith("check: these orders are legal. Nothing was played.")
    assert "  - Purple placed a white polyp on 2D1." in reply
    assert "  - Purple took the pink larva cube and grey, grey from the open sea." in reply


def test_check_of_a_bad_order_says_it_would_be_refused(table: Table) -> None:
    before = state_json(table.state())
    result, reply = table.send(0, "preview\nlarva white: 2A1\ntake white")
    assert result.status == "ignored"
    assert state_json(table.state()) == before
    assert reply.startswith("check: these orders would NOT be accepted.")
    assert "2A1 is sand; nothing can stand there" in reply


def test_the_same_orders_without_check_are_played(table: Table) -> None:
    result, reply = table.send(0, "larva white: 2D1 2E1\ntake pink")
    assert result.status == "applied", reply
    assert reply.startswith("Reef Encounter [")
    assert "Done. Your orders were played:\n> larva white: 2D1 2E1\n> take pink" in reply
    assert "  - Purple placed a white polyp on 2D1." in reply


def test_help_answers_with_the_whole_order_language(table: Table) -> None:
    result, reply = table.send(0, "help")
    assert result.status == "ignored"
    assert "REEF ENCOUNTER — HOW TO WRITE YOUR ORDERS" in reply
    for example in ("eat 2F4", "larva white: 2F3 2E4", "shrimp new 2F4",
                    "move shrimp 2F4 to 2G4", "alga purple on tile 3 paying pink", "take pink",
                    "parrotfish pink; larvae white yellow"):
        assert example in reply
