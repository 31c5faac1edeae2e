"""The test game's hooks for the shared suite (tests/games/suite)."""

from __future__ import annotations

from tests.games.suite import hooks as suite
from tests.support.testgame import CardsState

HANDS = [[3, 7, 12], [5, 9, 20]]


def position() -> CardsState:
    """Ann holds 3, 7 and 12; Ben 5, 9 and 20; nobody has played this round."""
    deck = [c for c in range(1, 31) if not any(c in hand for hand in HANDS)]
    return CardsState([list(h) for h in HANDS], deck, scores=[0, 0])


ERRORS = suite.Errors(
    position=position,
    cases=[suite.ErrorCase("not an order", "dance the macarena",
                     'Line 1 of your mail ("dance the macarena"): expected an order like '
                     '"play 7"'),
           suite.ErrorCase("a card not in hand", "play 5",
                     'Line 1 of your mail ("play 5"): you have no card 5; your hand '
                     "is 3, 7, 12"),
           suite.ErrorCase("two orders", "play 3\nplay 7",
                     'Line 2 of your mail ("play 7"): write exactly one order')],
    check=("play 7", ["You played 7."]),
    check_bad=("check\nplay 5", ["you have no card 5; your hand is 3, 7, 12"]),
    play=("play 12", ["You played 12."]),
    help=['play N — play card N from your hand, e.g. "play 7".'])


def twin(ben_has: int) -> CardsState:
    """Three seats; Ben's third card is 20 or 21, the other lies in the deck."""
    hands = [[3, 7, 12], [5, 9, ben_has], [1, 2, 4]]
    deck = [c for c in range(1, 31) if not any(c in hand for hand in hands)]
    return CardsState(hands, deck, scores=[0, 0, 0])


TWINS = suite.Twins(
    positions=(lambda: twin(20), lambda: twin(21)), players=3, holder=1,
    scripts={"english": suite.Script(languages=(), turns=[(0, "play 7"), (1, "play 5")],
                                     refused=[(0, "play 5")])})

# languages=None: the test game's own texts have no catalogues (they are English in every
# language), so a game of it in every language has nothing to show.
HOOKS = suite.Hooks(games=30, errors=ERRORS, twins=TWINS, languages=None)
