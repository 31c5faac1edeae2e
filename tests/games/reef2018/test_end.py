"""FIN DE LA PARTIE: a colour's supply used up ends the game when the round is over (the round
ends with the player before the start player); an empty deck ends it at once; then each card
in hand scores its pattern once; tie-breakers: most covered squares, most stacks 4 high,
shared."""

from __future__ import annotations

from pbem.engine.chance import Chance
from pbem.engine.contract import Outcome
from pbem.games.reef2018 import GAME
from pbem.games.reef2018.parse import parse_order
from pbem.games.reef2018.scoring import final_outcome
from pbem.games.reef2018.state import State
from tests.games.reef2018.positions import EMPTY, build

LOW = {"red": 10, "yellow": 10, "green": 10, "purple": 2}


def play(state: State, text: str) -> State:
    return GAME.apply(state, state.to_move, parse_order(text), Chance("x")).state


def test_supply_out_finishes_the_round() -> None:
    # Three players, player 2 (seat 1) starts: the round is seats 1, 2, 0.
    state = build([EMPTY] * 3, hands=[[], [17], []], supply=LOW, start_player=1, to_move=1)
    state = play(state, "play 17: purple A1, purple A2")  # the purple supply is now empty
    assert state.last_round and state.phase == "play" and state.to_move == 2
    state = play(state, f"take {state.market[0]}")
    assert state.phase == "play" and state.to_move == 0
    state = play(state, f"take {state.market[0]}")  # seat 0 sits before the start player
    assert state.phase == "over" and GAME.waiting_for(state) == frozenset()
    assert state.end_reason == "a coral supply ran out and the round is over"


def test_supply_out_on_the_rounds_last_turn_ends_at_once() -> None:
    state = build([EMPTY] * 2, hands=[[17], []], supply=LOW, start_player=1, to_move=0)
    state = play(state, "play 17: purple A1, purple A2")  # seat 0 closes the round
    assert state.phase == "over"


def test_a_short_supply_counts_as_used_up() -> None:
    state = build([EMPTY] * 2, hands=[[17], []],
                  supply={"red": 10, "yellow": 10, "green": 10, "purple": 1})
    state = play(state, "play 17: purple A1")
    assert state.last_round and state.to_move == 1
    state = play(state, f"take {state.market[0]}")  # seat 1 closes the round (start: 0)
    assert state.phase == "over"


def test_deck_running_out_ends_at_once() -> None:
    # Only one card left in the deck: taking a market card draws it to refill -> over,
    # although the round (seat 0 starts, seat 1 closes) is not finished.
    state = build([EMPTY] * 2, hands=[[], []], market=[1, 2, 3], deck=[4])
    state.deck = [4]
    others = [c for c in range(5, 61)]
    state.players[1].played = others  # the rest of the cards, out of the way
    state = play(state, "take 2")
    assert state.market == [1, 4, 3] and state.deck == []
    assert state.phase == "over" and state.end_reason == "the deck ran out"
    # ... and taking the deck's last card ends it the same way.
    state = build([EMPTY] * 2, hands=[[], []], market=[1, 2, 3], deck=[4])
    state.deck = [4]
    state.players[1].played = others
    state = play(state, "take deck")  # the token goes on card 2 (4 points, the cheapest)
    assert state.players[0].hand == [4] and state.phase == "over"


def test_hand_cards_score_once_at_the_end() -> None:
    greens = "\n".join(["G G G G"] * 4)
    # Seat 0 holds card 7 (1 per green) and card 8 (6 per 2x2 green square): each scores once.
    state = build([greens, EMPTY], hands=[[7, 8, 1], [17]], supply=LOW, to_move=1,
                  start_player=0)
    state = play(state, "play 17: purple A1, purple A2")  # purple gone; seat 1 closes round
    assert state.phase == "over"
    me = state.players[0]
    assert me.ledger[-2:] == [[1, "card 7 in hand at the end"], [6, "card 8 in hand at the end"]]
    assert me.score == 3 + 1 + 6  # card 1 (a red square) is not there: nothing
    assert GAME.outcome(state) is not None


def _over(reefs: list[str], scores: list[int]) -> State:
    state = build(reefs, scores=scores)
    state.phase = "over"
    return state


WIDE = """
R R R R
R . . .
. . . .
. . . .
"""
NARROW_TALL = """
RRRR . . .
R    . . .
.    . . .
.    . . .
"""
WIDE_TALL = """
RRRR R R R
R    . . .
.    . . .
.    . . .
"""
SAME_AS_WIDE_TALL = """
. . . .
. . . .
. . . Y
R R R RRRR
"""


def english(out: Outcome) -> list[str]:
    """The explanation's lines in English (they are messages, rendered per seat's language)."""
    return [str(line) for line in out.explanation]


def test_most_points_wins() -> None:
    out = final_outcome(_over([EMPTY, EMPTY], [5, 9]))
    assert out.ranking == [[1], [0]] and out.scores == {0: 5, 1: 9}


def test_tie_broken_by_most_covered_squares() -> None:
    out = final_outcome(_over([NARROW_TALL, WIDE], [7, 7]))
    assert out.ranking == [[1], [0]]
    assert "Tie-breaker 1 (most covered squares): Player 1 2, Player 2 5." in english(out)


def test_then_by_most_stacks_four_high() -> None:
    out = final_outcome(_over([WIDE, WIDE_TALL], [7, 7]))
    assert out.ranking == [[1], [0]]
    assert "Tie-breaker 2 (most stacks 4 high): Player 1 0, Player 2 1." in english(out)


def test_then_shared() -> None:
    out = final_outcome(_over([WIDE_TALL, SAME_AS_WIDE_TALL, EMPTY], [7, 7, 2]))
    assert out.ranking == [[0, 1], [2]]
    assert ("Player 1 and Player 2 are still equal after both tie-breakers and share their "
            "place.") in english(out)


def test_the_score_is_the_sum_of_its_ledger() -> None:
    state = build([EMPTY, EMPTY], hands=[[48], []], tokens=[1, 0, 0])
    state = play(state, f"take {state.market[0]}")
    for seat in state.players:
        assert seat.score == sum(points for points, _ in seat.ledger)
