"""How good a position is for a seat: the computer player's judgement (bot.bot_order).

Points, not rules: what the rules decide (which parents fit which cross) is asked of them
(breeding.fits). A completed cross is worth most; then parents on a coral for an open cross,
fish in hand that would join them, free corals to breed on, boats (more columns to fish
from), pearls, worms and sharks to pay and play with.
"""

from __future__ import annotations

from pbem.games.riff.breeding import fits
from pbem.games.riff.rules import WIN
from pbem.games.riff.state import Coral, State

CROSS = 150.0
WON = 10_000.0
ON_CORAL = 30.0  # a parent on a coral, for an open cross
IN_HAND = 18.0  # a fish in hand that would join a coral's parents for an open cross
LOOSE = 6.0  # a fish in hand of an open cross's colour, for no coral yet
STRAY = 1.0  # any other fish
CORAL = (20.0, 20.0, 6.0)  # each free coral: the first two, then every other
BOATS = (0.0, 22.0, 16.0, 12.0, 6.0)  # the n-th boat (more: the last)
PEARL = 5.0
WORMS = (3.0, 6, 1.0)  # each worm up to 6 held, then each more: unspent worms buy nothing
SHARK = 3.0


def worth(state: State, seat: int) -> float:
    player = state.players[seat]
    crosses = [c for c in state.breeding_open if c is not None]
    done = player.crosses()
    value = CROSS * done + (WON if done >= WIN else 0.0)
    hand = list(player.fish)
    free = sorted((c for c in player.corals if c.cross is None),
                  key=lambda c: (c.male is None) + (c.female is None))
    for n, coral in enumerate(free):
        value += CORAL[min(n, len(CORAL) - 1)] + _coral(coral, hand, crosses)
    for fish in hand:
        colour = fish[:-2]
        value += LOOSE if any(fits(colour, None, c) for c in crosses) else STRAY
    value += sum(BOATS[min(n, len(BOATS) - 1)] for n in range(player.boats))
    value += PEARL * player.pearls + SHARK * player.sharks + _worms(sum(player.worms.values()))
    return value


def _coral(coral: Coral, hand: list[str], crosses: list[str]) -> float:
    """The worth of a free coral's parents and of the fish in ``hand`` that would join them
    for the best open cross; those fish are taken out of ``hand``."""
    best = 0.0
    best_used: tuple[str, ...] = ()
    for card in crosses:
        if not fits(coral.male, coral.female, card):
            continue
        on = ON_CORAL * ((coral.male is not None) + (coral.female is not None))
        used = _joining(coral, hand, card)
        if on + IN_HAND * len(used) > best:
            best, best_used = on + IN_HAND * len(used), used
    for fish in best_used:
        hand.remove(fish)
    return best


def _joining(coral: Coral, hand: list[str], card: str) -> tuple[str, ...]:
    """The most fish of ``hand`` that would join the coral's parents for cross ``card``."""
    males = [f for f in dict.fromkeys(hand) if f.endswith(":m")] if coral.male is None else []
    females = [f for f in dict.fromkeys(hand) if f.endswith(":f")] if coral.female is None else []
    for m in males:
        for f in females:
            if fits(m[:-2], f[:-2], card):
                return (m, f)
    for m in males:
        if fits(m[:-2], coral.female, card):
            return (m,)
    for f in females:
        if fits(coral.male, f[:-2], card):
            return (f,)
    return ()


def _worms(n: int) -> float:
    first, upto, more = WORMS
    return first * min(n, upto) + more * max(0, n - upto)
