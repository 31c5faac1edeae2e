"""What a Das Riff seat may see: the game redealt from its seat's knowledge, for its bot."""

from __future__ import annotations

import random

from pbem.games.riff.area import face_down_places
from pbem.games.riff.state import State


def redeal(state: State, seat: int, rng: random.Random) -> State:
    """``state`` as ``seat`` may know it: every face-down card and the reef pile dealt afresh
    from the cards nobody has seen, the breeding pile shuffled. Nothing else is hidden in Das
    Riff (both players' holdings are public), and the pools are sorted before the deal, so
    the answer depends on what they hold, never on where it lay."""
    new = state.copy()
    places = face_down_places(new.area)
    pool = sorted([_card(new, r, c) for r, c in places] + new.pile)
    rng.shuffle(pool)
    for (r, c), card in zip(places, pool, strict=False):
        new.area[r][c] = {"card": card, "up": False}
    new.pile = pool[len(places):]
    new.breeding_pile = sorted(new.breeding_pile)
    rng.shuffle(new.breeding_pile)
    return new


def _card(state: State, row: int, column: int) -> str:
    slot = state.area[row][column]
    assert slot is not None
    return slot["card"]
