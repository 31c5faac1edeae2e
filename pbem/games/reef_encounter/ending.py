"""How the game ends: end conditions 1 and 2 end it at once with a final turn for every
other player, 3 (the rock full) and an open sea that cannot be refilled end it outright; and
why it ended, as a message."""

from __future__ import annotations

from pbem.games.reef_encounter.board import rock_cells
from pbem.games.reef_encounter.context import Turn, seat_ref, who
from pbem.games.reef_encounter.state import State
from pbem.i18n.msg import Msg, msg

# Why a game ends (the state keeps the English text; end_message turns it back into data).
ALL_COVERED = msg("all ten coral tiles are covered by algae")
ROCK_FULL = msg("no polyp can be placed anywhere: every rock space is taken")
SEA_EMPTY = msg("the open sea cannot be refilled (not enough polyps or larva cubes)")


def rock_full(state: State) -> bool:
    """Every rock cell of the boards in play holds a polyp."""
    return all(k in state.polyps for b in state.boards for k in rock_cells()[b])


def end_early(state: State, turn: Turn, reason: Msg) -> None:
    """End condition 1 or 2: the game ends at once; the others get a final turn each."""
    turn.ended = True
    state.end_reason = str(reason)
    n = len(state.players)
    state.final_turns = [(turn.seat + i) % n for i in range(1, n)]
    turn.say("game_ends", msg("The game ends: {reason}. Every other player has one final turn, "
                              "in which the only action is action 1 (the parrotfish eats).",
                              reason=reason))


def next_final(state: State) -> None:
    if state.final_turns:
        state.phase = "final"
        state.to_move = state.final_turns[0]
    else:
        state.phase = "over"


def all_shrimps_eaten(state: State, seat: int) -> Msg:
    """End condition 2, naming the player whose parrotfish ate its fourth shrimp."""
    return msg("{player}'s parrotfish has eaten all four of {player}'s shrimps",
               player=who(state, seat), seat=seat_ref(seat))


def end_message(state: State) -> Msg | None:
    """Why the game ended, as a message (the state keeps its English text)."""
    if not state.end_reason:
        return None
    for reason in (ALL_COVERED, ROCK_FULL, SEA_EMPTY):
        if state.end_reason == str(reason):
            return reason
    for seat in range(len(state.players)):
        if state.end_reason == str(all_shrimps_eaten(state, seat)):
            return all_shrimps_eaten(state, seat)
    return msg(state.end_reason)  # an older English text: shown as stored


def game_over(state: State, turn: Turn, reason: Msg) -> None:
    state.phase = "over"
    state.end_reason = str(reason)
    state.final_turns = []
    turn.say("game_ends", msg("The game ends: {reason}.", reason=reason))
