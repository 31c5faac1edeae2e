"""What a player can order, once read from text (parse.py) and before the rules check it.

Squares are indices 0..15 (row * 4 + column, see cards.py); cards are their numbers 1..60.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Start:
    """The setup step: where each of the 4 starting corals goes, in placing order."""

    pieces: tuple[tuple[str, int], ...]  # (colour, square)


@dataclass(frozen=True)
class TakeMarket:
    """Action A: a market card (with any tokens on it) into the hand."""

    card: int


@dataclass(frozen=True)
class TakeDeck:
    """Action A: the deck's top card, paying a one-point token onto the cheapest market card
    (``token_on`` names it when several tie; None lets the rules pick the only one)."""

    token_on: int | None = None


@dataclass(frozen=True)
class Play:
    """Action B: a card from the hand; its corals placed in this order (colour None: the
    card's next piece not yet named)."""

    card: int
    pieces: tuple[tuple[str | None, int], ...]


Order = Start | TakeMarket | TakeDeck | Play
