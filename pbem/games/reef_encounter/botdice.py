"""The bot's random calls, drawn exactly as ``random.Random`` draws them, with fewer Python calls.

A seeded bot game must stay the same game (the pinned digests), so every draw here asks the
generator for the same bits in the same order as the stdlib method it replaces; it only skips
``Random._randbelow``'s extra call per draw (a 140-cell shuffle makes 139 of them). Any other
generator (a subclass, a Python whose ``Random`` draws another way) gets the stdlib methods.
tests/games/reef_encounter/test_botdice.py checks both ways agree.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

# The stdlib's integer draw that these copies mirror; anything else falls back to the stdlib.
_MIRRORED = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


@lru_cache(maxsize=512)
def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """A shuffle's swaps, last first: (position, how many to choose from, bits per draw)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, length)))


class Dice:
    """``rng``'s shuffle, choice, randint and random, drawing the same bits as ``rng``'s own."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.random = rng.random
        self.sample = rng.sample
        if not (_MIRRORED and type(rng) is random.Random):
            self.shuffle = rng.shuffle  # type: ignore[method-assign]
            self.choice = rng.choice  # type: ignore[method-assign]
            self.randint = rng.randint  # type: ignore[method-assign]
        self._bits = rng.getrandbits

    def below(self, n: int) -> int:
        """``Random._randbelow_with_getrandbits(n)``: an int in [0, n), for n > 0."""
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def drawn(self, x: list[T]) -> Iterator[T]:
        """``x``'s items in a random order, each drawn only when asked for (a shuffle drawn
        lazily: a bot mostly takes the first item or few, and shuffling all cost more);
        ``x`` is reordered as it goes."""
        below = self.below
        left = len(x)
        while left:
            i = below(left)
            left -= 1
            item = x[i]
            x[i] = x[left]
            yield item

    def shuffle(self, x: list[T]) -> None:
        bits = self._bits
        for i, n, k in _steps(len(x)):
            j = bits(k)
            while j >= n:
                j = bits(k)
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: Sequence[T]) -> T:
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return seq[r]

    def randint(self, a: int, b: int) -> int:
        if b < a:
            raise ValueError(f"empty range for randint({a}, {b})")
        return a + self.below(b - a + 1)


def kept_dice(rng: random.Random) -> Dice:
    """The Dice of ``rng``, kept from its last turn: a game's bot plays every turn with one
    generator, and a Dice keeps no state of its own besides it."""
    global _LAST_DICE
    dice = _LAST_DICE  # read once: another thread's bot may replace it meanwhile
    if dice is None or dice.rng is not rng:
        dice = _LAST_DICE = Dice(rng)
    return dice


_LAST_DICE: Dice | None = None
