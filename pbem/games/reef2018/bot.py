"""Legal orders written as a player would type them: random ones for bots and fuzzing, and the
safe default played when a deadline passes."""

from __future__ import annotations

import random

from pbem.games.reef2018.cards import CENTRE, COLOURS, MAX_HEIGHT, SQUARE_NAMES, SQUARES, cards
from pbem.games.reef2018.orders import Order, Play, Start, TakeMarket
from pbem.games.reef2018.parse import format_order
from pbem.games.reef2018.rules import HAND_LIMIT, pieces_due
from pbem.games.reef2018.state import State

OUTSIDE = tuple(s for s in range(SQUARES) if s not in CENTRE)


def random_order(state: State, seat: int, rng: random.Random) -> str:
    if state.phase == "setup":
        colours = list(COLOURS)
        rng.shuffle(colours)
        squares = [rng.choice(OUTSIDE) for _ in colours] if state.advanced else list(CENTRE)
        return format_order(Start(tuple(zip(colours, squares, strict=True))))
    mine = state.seats[seat]
    can_take = len(mine.hand) < HAND_LIMIT
    # The texts are format_order's, written directly rather than through order objects made
    # only to be written out (test_language.py reads them back and checks).
    if can_take and (not mine.hand or rng.random() < 0.45):
        if mine.score >= 1 and rng.random() < 0.2:
            lowest = min(_points(c) for c in state.market)
            token_on = rng.choice([c for c in state.market if _points(c) == lowest])
            return f"take deck, token on {token_on}"
        return f"take {rng.choice(state.market)}"
    card = rng.choice(mine.hand)
    heights = [len(s) for s in mine.reef]
    free = [s for s in range(SQUARES) if heights[s] < MAX_HEIGHT]  # in square order
    parts = []
    for colour in pieces_due(state, seat, card):
        square = rng.choice(free)
        heights[square] += 1
        if heights[square] == MAX_HEIGHT:
            free.remove(square)
        parts.append(f"{colour} {SQUARE_NAMES[square]}")
    return f"play {card}: {', '.join(parts)}" if parts else f"play {card}"


def default_order(state: State, seat: int) -> str:
    """Setup: the colours in order on the free squares; then the market card with the most
    tokens while the hand has room (it costs nothing), else the first card in hand, each coral
    on the lowest stack."""
    return format_order(default(state, seat))


def default(state: State, seat: int) -> Order:
    if state.phase == "setup":
        squares = (0, 3, 12, 15) if state.advanced else CENTRE
        return Start(tuple(zip(COLOURS, squares, strict=True)))
    mine = state.seats[seat]
    if len(mine.hand) < HAND_LIMIT:
        best = max(range(len(state.market)), key=lambda i: (state.market_tokens[i], -i))
        return TakeMarket(state.market[best])
    card = mine.hand[0]
    heights = [len(s) for s in mine.reef]
    pieces = []
    for colour in pieces_due(state, seat, card):
        square = min(range(SQUARES), key=lambda s: (heights[s], s))
        heights[square] += 1
        pieces.append((colour, square))
    return Play(card, tuple(pieces))


def _points(card: int) -> int:
    return cards()[card].points
