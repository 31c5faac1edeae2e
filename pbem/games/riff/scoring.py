"""The end of a game of Das Riff: completed crosses decide, a tie is a draw."""

from __future__ import annotations

from pbem.engine.contract import Outcome
from pbem.games.riff.rules import end_reason
from pbem.games.riff.state import State
from pbem.i18n.msg import Msg, SeatRef, msg


def final_outcome(state: State) -> Outcome:
    """Scores (completed crosses), the ranking and why the game ended, for a game over."""
    scores = {i: p.crosses() for i, p in enumerate(state.players)}
    words: list[str | Msg]
    if state.winner is None:
        ranking = [[0, 1]]
        words = [msg("A draw: {reason}, with {n} completed crosses each.",
                     reason=end_reason(state), n=scores[0])]
    else:
        ranking = [[state.winner], [1 - state.winner]]
        words = [msg("{player} wins: {reason}.", player=SeatRef(state.winner),
                     reason=end_reason(state))]
    return Outcome(scores, ranking, [*words, msg("Scores are completed crosses.")])
