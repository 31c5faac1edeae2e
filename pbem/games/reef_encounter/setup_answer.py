"""The simultaneous secret setup step: one polyp into the parrotfish, two larva cubes taken.

Applied to a copy, so a refused answer leaves the state untouched.
"""

from __future__ import annotations

from pbem.engine.errors import IllegalOrder
from pbem.games.reef_encounter.components import components
from pbem.games.reef_encounter.orders import SetupAnswer
from pbem.games.reef_encounter.state import State
from pbem.games.reef_encounter.terms import colour as colour_word
from pbem.i18n.msg import msg


def check_setup_answer(state: State, seat: int, answer: SetupAnswer) -> None:
    """Refuse an illegal setup answer, changing nothing."""
    if state.phase != "setup":
        raise IllegalOrder(msg("the setup step is over"), step=1)
    mine = state.players[seat]
    if mine.answered_setup:
        raise IllegalOrder(msg("you have already answered the setup step"), step=1)
    if mine.screen.get(answer.parrotfish, 0) < 1:
        raise IllegalOrder(
            msg("you have no {colour} polyp behind your screen for the parrotfish",
                colour=colour_word(answer.parrotfish)), step=1)
    for colour, n in _wanted(answer).items():
        if state.larva_supply.get(colour, 0) < n:
            raise IllegalOrder(msg("not enough {colour} larva cubes left in the supply",
                                   colour=colour_word(colour)), step=1)


def legal_setup_answers(state: State, seat: int) -> list[SetupAnswer]:
    """Every setup answer the rules accept from ``seat`` now (larva cubes in both orders)."""
    colours = components().coral_colours
    out = []
    for fish in colours:
        for first in colours:
            for second in colours:
                answer = SetupAnswer(fish, (first, second))
                try:
                    check_setup_answer(state, seat, answer)
                except IllegalOrder:
                    continue
                out.append(answer)
    return out


def _wanted(answer: SetupAnswer) -> dict[str, int]:
    wanted: dict[str, int] = {}
    for colour in answer.larvae:
        wanted[colour] = wanted.get(colour, 0) + 1
    return wanted


def apply_setup_answer(state: State, seat: int, answer: SetupAnswer) -> State:
    """A new state with `seat`'s answer applied; play begins once every seat has answered."""
    check_setup_answer(state, seat, answer)
    new = state.copy()
    me = new.players[seat]
    me.screen[answer.parrotfish] -= 1
    if me.screen[answer.parrotfish] == 0:
        del me.screen[answer.parrotfish]
    me.parrotfish.append(answer.parrotfish)
    for colour, n in _wanted(answer).items():
        new.larva_supply[colour] -= n
        me.larva[colour] = me.larva.get(colour, 0) + n
    me.answered_setup = True
    if all(s.answered_setup for s in new.players):
        new.phase = "play"
    return new
