"""The legal orders of a Reef turn, as the rules decide them, whole or step by step.

Every step the order language can write (a starting coral of each colour on each square, a
market card, the deck's top card with the token on each market card, a card of the hand, a
coral of the card on each square) is a candidate; it is legal when the rules' own check
accepts it (rules.py: :func:`~rules.check_turn` for the phase and the turn, then the check of
that kind of step). No rule is written here: bots choose among these, and
tests/games/reef2018/test_legal.py checks that apply accepts each order and that every order
apply accepts has the outcome of one of them.

Step by step, as every game's legal.py offers it (:func:`start`, :func:`next_steps`,
:func:`play`): an order is written one step at a time, first its action (the starting
corals, a take, a card to play) and then each coral it places.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from pbem.engine.chance import Chance
from pbem.engine.errors import IllegalOrder
from pbem.games.reef2018.cards import COLOURS, SQUARES
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.rules import (
    Step,
    check_in_hand,
    check_take_market,
    check_turn,
    deck_token,
    has_room,
    pieces_due,
    start_colour_fits,
    start_square_fits,
)
from pbem.games.reef2018.state import State

_NO_PIECES: tuple[Step, ...] = ()
Written = Order | Step
"""A step of an order being written: its action (with no coral yet), or one coral."""


@dataclass(frozen=True)
class Progress:
    """An order being written: the action chosen so far (None: none yet), with the corals it
    places so far. Made by :func:`start`, advanced by :func:`play`."""

    state: State
    seat: int
    order: Order | None = None


def start(state: State, seat: int) -> Progress:
    """``seat``'s order before its first step."""
    return Progress(state, seat)


def next_steps(progress: Progress) -> list[Written]:
    """The legal next steps of the order: its action (the setup step's starting corals, each
    legal take, each playable card), then each next coral; none once the order is whole."""
    state, seat, order = progress.state, progress.seat, progress.order
    if order is None:
        if state.phase == "setup":
            return [Start(_NO_PIECES)] if start_steps(state, seat, ()) else []
        return [*legal_takes(state, seat), *(Play(card, ()) for card in playable(state, seat))]
    if isinstance(order, Start):
        return list(start_steps(state, seat, order.pieces))
    if isinstance(order, Play):
        return list(piece_steps(state, seat, order.card, _placed(order)))
    return []  # a take is whole


def play(progress: Progress, step: Written, chance: Chance) -> Progress:
    """The order with ``step`` (a legal next step) written; nothing is drawn, nor applied: a
    Reef turn is applied whole, by the rules."""
    order = progress.order
    if isinstance(order, Start) and isinstance(step, tuple):
        return Progress(progress.state, progress.seat, Start((*order.pieces, step)))
    if isinstance(order, Play) and isinstance(step, tuple):
        return Progress(progress.state, progress.seat,
                        Play(order.card, (*_placed(order), step)))
    assert order is None and not isinstance(step, tuple), (order, step)
    return Progress(progress.state, progress.seat, step)


def _placed(order: Play) -> tuple[Step, ...]:
    """A play's corals written so far (each named: a written step names its colour)."""
    return tuple((colour, square) for colour, square in order.pieces if colour is not None)


def _accepted(check: Callable[[], object]) -> bool:
    try:
        check()
    except IllegalOrder:
        return False
    return True


def start_steps(state: State, seat: int, placed: Sequence[Step]) -> list[Step]:
    """The legal next starting corals after ``placed``: each colour on each square the rules'
    starting checks let follow them."""
    if len(placed) >= len(COLOURS) or not _accepted(
            partial(check_turn, state, seat, Start(_NO_PIECES))):
        return []
    return [(colour, square) for colour in COLOURS if start_colour_fits(placed, colour)
            for square in range(SQUARES) if start_square_fits(state, placed, square)]


def legal_takes(state: State, seat: int) -> list[TakeMarket | TakeDeck]:
    """Action A as the seat may take it now: each market card, then the deck's top card with
    the token on each market card the rules let it go on."""
    if not _accepted(partial(check_turn, state, seat, TakeMarket(0))):
        return []
    takes: list[TakeMarket | TakeDeck] = [
        TakeMarket(card) for card in state.market
        if _accepted(partial(check_take_market, state, seat, card))]
    takes += [TakeDeck(card) for card in state.market
              if _accepted(partial(deck_token, state, seat, card))]
    return takes


def playable(state: State, seat: int) -> list[int]:
    """The cards the seat may play now (action B)."""
    if not _accepted(partial(check_turn, state, seat, Play(0, ()))):
        return []
    hand = state.players[seat].hand
    return [card for card in hand if _accepted(partial(check_in_hand, state, seat, card))]


def piece_steps(state: State, seat: int, card: int, placed: Sequence[Step]) -> list[Step]:
    """The legal next corals of ``card`` after ``placed``: a piece the card gives now
    (:func:`~rules.pieces_due`) not yet placed, on a stack with room (:func:`~rules.has_room`)
    counting the pieces placed before it."""
    left = pieces_due(state, seat, card)
    for colour, _ in placed:
        left.remove(colour)
    heights = [len(stack) for stack in state.players[seat].reef]
    for _, square in placed:
        heights[square] += 1
    free = [sq for sq, height in enumerate(heights) if has_room(height)]
    return [(colour, sq) for colour in dict.fromkeys(left) for sq in free]


def legal_orders(state: State, seat: int) -> Iterator[Order]:
    """Every legal order of ``seat`` now, one per distinct outcome (orders placing the same
    pieces on the same stacks in the same order count once): the starting corals in the setup
    step, else the takes and then each card in hand with each way to place its corals."""
    if state.phase == "setup":
        if start_steps(state, seat, ()):
            for pieces in sequences(lambda placed: start_steps(state, seat, placed)):
                yield Start(pieces)
        return
    yield from legal_takes(state, seat)
    for card in playable(state, seat):
        for pieces in sequences(partial(piece_steps, state, seat, card)):
            yield Play(card, pieces)


def sequences(steps: Callable[[tuple[Step, ...]], list[Step]],
              placed: tuple[Step, ...] = ()) -> Iterator[tuple[Step, ...]]:
    """Every whole sequence of steps, squares in rising order: pieces on different squares
    may go in any order to the same outcome, so each outcome is made once."""
    after = steps(placed)
    if not after:
        yield placed
        return
    lowest = placed[-1][1] if placed else 0
    for step in after:
        if step[1] >= lowest:
            yield from sequences(steps, (*placed, step))
