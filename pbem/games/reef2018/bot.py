"""Reef's random and default orders, chosen among the legal orders the rules produce
(legal.py); the strategy is strategy.py's, what a seat may see redeal.py's.

``random_order`` (tests, the demo, fuzzing) walks the rules' legal steps at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pbem.games.reef2018.cards import CENTRE, COLOURS
from pbem.games.reef2018.legal import legal_takes, piece_steps, playable, start_steps
from pbem.games.reef2018.orders import Order, Play, Start, TakeDeck, TakeMarket
from pbem.games.reef2018.parse import format_order
from pbem.games.reef2018.rules import Step
from pbem.games.reef2018.state import State


def random_order(state: State, seat: int, rng: random.Random) -> str:
    """Any legal order: a take about half the time the hand allows one (the deck now and then),
    else a card from the hand with its corals on random stacks."""
    if state.phase == "setup":
        return format_order(Start(walk(lambda placed: start_steps(state, seat, placed), rng)))
    takes = legal_takes(state, seat)
    hand = playable(state, seat)
    if takes and (not hand or rng.random() < 0.45):
        market = [t for t in takes if isinstance(t, TakeMarket)]
        deck = [t for t in takes if isinstance(t, TakeDeck)]
        return format_order(rng.choice(deck) if deck and rng.random() < 0.2
                            else rng.choice(market))
    card = rng.choice(hand)
    return format_order(Play(card, walk(
        lambda placed: piece_steps(state, seat, card, placed), rng)))


def walk(steps: Callable[[tuple[Step, ...]], list[Step]],
         rng: random.Random) -> tuple[Step, ...]:
    """A whole sequence of legal steps, each chosen at random among ``steps`` after those
    before it."""
    placed: tuple[Step, ...] = ()
    while after := steps(placed):
        placed = (*placed, rng.choice(after))
    return placed


def one_tap_orders(state: State, seat: int) -> list[str]:
    """The whole turns a player may choose with one tap: each card it may take (action A),
    from the market or the deck; playing a card takes a choice of squares, so it is typed."""
    return [format_order(take) for take in legal_takes(state, seat)]


def default_order(state: State, seat: int) -> str:
    """Setup: the colours in order on the free squares; then the market card with the most
    tokens while the hand has room (it costs nothing), else the first card in hand, each coral
    on the lowest stack."""
    return format_order(default(state, seat))


def default(state: State, seat: int) -> Order:
    if state.phase == "setup":
        squares = (0, 3, 12, 15) if state.advanced else CENTRE
        return Start(tuple(zip(COLOURS, squares, strict=True)))
    market = [t for t in legal_takes(state, seat) if isinstance(t, TakeMarket)]
    if market:
        return max(market, key=lambda t: (state.market_tokens[state.market.index(t.card)],
                                          -state.market.index(t.card)))
    card = playable(state, seat)[0]
    reef = state.players[seat].reef
    placed: tuple[Step, ...] = ()
    while after := piece_steps(state, seat, card, placed):
        heights = [len(stack) for stack in reef]
        for _, square in placed:
            heights[square] += 1
        first = [step for step in after if step[0] == after[0][0]]  # the card's next piece
        placed = (*placed, min(first, key=lambda step: (heights[step[1]], step[1])))
    return Play(card, placed)
