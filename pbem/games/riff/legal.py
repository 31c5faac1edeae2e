"""The legal next steps of a turn, as the rules decide them.

A Das Riff turn is a list of steps, so whole turns are too many to list; the rules give the
steps legal *next*, after those a turn has played. Every step the order language can write
with the rules choosing the worms (a buy, a flip or a shark of each card of the area, a boat,
a shark on each own fish, each one or two fish onto each coral) is tried with the rules' own
``do_step`` on a scratch copy and kept if the rules play it. No rule is written here: a step
is legal because ``do_step`` accepts it.

One kind of step depends on a card nobody has seen: buying a face-down card turns it first,
and what it shows decides whether it is bought (else the rules leave it face up and skip the
rest of the line). Such a buy is legal when the rules may turn the card (``do_flip`` accepts
it), whatever it turns out to be.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pbem.engine.chance import Chance
from pbem.games.riff.buying import COST, do_flip
from pbem.games.riff.context import QuietTurn, RuleError, Turn
from pbem.games.riff.orders import (
    Attach,
    Boat,
    Buy,
    Flip,
    Place,
    SharkArea,
    SharkOwn,
    Step,
)
from pbem.games.riff.rules import do_step
from pbem.games.riff.state import COLUMNS, Slot, State
from pbem.games.riff.worms import CannotPay

T = TypeVar("T")
SEXES = ("m", "f")
# The steps on each place of the area, made once (steps are frozen): many lists are made.
_AREA_STEPS = tuple((place, (Buy(place), Flip(place), SharkArea(place)))
                    for place in (Place(c, d) for c in range(COLUMNS) for d in range(len(COST))))
_BOAT = Boat()


@dataclass
class Progress:
    """A turn under way: the state after the steps played so far and the turn's record (what
    was turned, bought this turn). Made by :func:`start`, advanced by :func:`play`."""

    state: State
    turn: Turn
    steps: tuple[Step, ...] = ()


def start(state: State, seat: int) -> Progress:
    """``seat``'s turn before its first step (the state is copied, never changed)."""
    return Progress(state.copy_for(seat), QuietTurn(seat))


def _turn_copy(turn: Turn) -> QuietTurn:
    return QuietTurn(turn.seat, set(turn.flipped), turn.revealed, turn.fresh_pearls,
                     turn.fresh_sharks)


def play(progress: Progress, step: Step, chance: Chance) -> Progress:
    """The turn after ``step`` (a legal next step), played by the rules on a copy; a card it
    turns is drawn through ``chance``. A face-down card's buy whose card cannot be bought
    leaves it turned, as the rules do."""
    state = progress.state.copy_for(progress.turn.seat)
    turn = _turn_copy(progress.turn)
    hidden = _hidden_buy(progress, step)
    try:
        do_step(state, turn, step, chance)
    except (RuleError, CannotPay):
        if not hidden:
            raise
    return Progress(state, turn, (*progress.steps, step))


def _hidden_buy(progress: Progress, step: Step) -> bool:
    if not isinstance(step, Buy):
        return False
    card = slot(progress, step.place)
    return card is not None and not card["up"]


def slot(progress: Progress, place: Place) -> Slot:
    """The area slot ``place`` names for the seat whose turn it is (None: no card there)."""
    return progress.state.slot_at(progress.turn.seat, place)


def written(progress: Progress) -> Iterator[Step]:
    """Every step the order language can write now, with the rules choosing the worms: what
    :func:`next_steps` tries."""
    state, seat = progress.state, progress.turn.seat
    for place, steps in _AREA_STEPS:
        if slot(progress, place) is not None:
            yield from steps
    yield _BOAT
    # The fish a step names are the seat's own: the ones it holds, on a coral or not.
    player = state.players[seat]
    held = dict.fromkeys(player.fish)
    males = [key[:-2] for key in held if key[-1] == "m"]
    females = [key[:-2] for key in held if key[-1] == "f"]
    for coral in range(len(player.corals)):
        for male in males:
            yield Attach(((male, "m"),), coral)
            for female in females:
                yield Attach(((male, "m"), (female, "f")), coral)
        for female in females:
            yield Attach(((female, "f"),), coral)
    on_corals = [f"{colour}:{sex}" for c in player.corals
                 for colour, sex in ((c.male, "m"), (c.female, "f")) if colour is not None]
    for key in dict.fromkeys([*held, *on_corals]):
        yield SharkOwn(key[:-2], key[-1])


def next_steps(progress: Progress) -> list[Step]:
    """The steps the rules would play next in this turn (see the module's docstring), in
    :func:`written`'s order. The turn's state is never changed."""
    seat = progress.turn.seat
    legal: list[Step] = []
    scratch: State | None = None
    turn = progress.turn
    for step in written(progress):
        if scratch is None:  # a step the rules refuse changes nothing: the copies serve on
            scratch, turn = progress.state.copy_for(seat), _turn_copy(progress.turn)
        try:
            if _hidden_buy(progress, step):
                assert isinstance(step, Buy)
                do_flip(scratch, turn, step.place, None, _TRIAL)
            else:
                do_step(scratch, turn, step, _TRIAL)
        except (RuleError, CannotPay):
            continue
        legal.append(step)
        scratch = None
    return legal


class _AnyDraw(Chance):
    """Legality never depends on a turned card's face (a flip is legal or not before it
    turns; a completed cross's new breeding card changes nothing of the step): the first
    option serves, and nothing is recorded."""

    def choice(self, label: str, options: Sequence[T]) -> T:
        return options[0]


_TRIAL = _AnyDraw("legal steps")
